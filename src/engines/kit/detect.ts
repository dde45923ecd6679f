// Is an engine installed here, and which version? Three places to look: the executable on PATH
// (vllm, trtllm-serve), a Python environment (import metadata, without importing the package:
// importing vllm or tensorrt_llm takes many seconds), or a container image. llama.cpp has its own
// lookup (llamacpp/detect.ts: a given path, PATH, or servelab's build).
//
//   detectGpuEngine(engine, { runtime?: 'native' | 'docker', python?: string, image?: string, timeoutMs? })
//     -> Promise<EngineInfo>   never throws; `installed: false` carries `detail` (why); an installed
//        version without a knob table of its own carries `knobTable` and a `detail` saying so.
//   Docker: the version is the image tag when it is one, else the package version inside the image.
//   A release servelab has not read (help-check.ts helpCheckReason) gets its help read here, once,
//   before anything is launched; `helpCheck` on the result says why and what came of it.
//   assertImageExists(image) -> Promise<void>   throws UserError (docker missing / image missing)
import { execa } from 'execa';
import { UserError } from '../../core/errors.js';
import type { EngineName, GpuEngineName } from '../../core/variant.js';
import { findOnPath } from '../../core/which.js';
import { resolveVersion } from '../data/versions.js';
import { captureEngineHelp, helpCheckReason, type CaptureOptions } from './help-check.js';
import { probeGpuPlatform } from './rocm-build.js';
import type { DetectOptions, EngineInfo } from './types.js';

/** The executable each engine's CLI lives in, and its Python distribution name. */
const NATIVE: Record<GpuEngineName, { exe?: string; dist: string; rocmBuilds?: boolean }> = {
  // vLLM and SGLang ship ROCm builds as well (rocm-build.ts tells which one is installed).
  vllm: { exe: 'vllm', dist: 'vllm', rocmBuilds: true },
  sglang: { dist: 'sglang', rocmBuilds: true },
  trtllm: { exe: 'trtllm-serve', dist: 'tensorrt_llm' },
};

/** The installed build's GPU platform, for an engine that ships ROCm builds; nothing when torch does not answer. */
async function withPlatform(engine: GpuEngineName, info: EngineInfo, where: { python: string } | { image: string }, timeoutMs: number) {
  if (!NATIVE[engine].rocmBuilds || !info.installed) return info;
  const p = await probeGpuPlatform(where, timeoutMs);
  return p ? { ...info, ...p } : info;
}

async function pythonVersionOf(python: string, dist: string, timeoutMs: number): Promise<string | undefined> {
  const r = await execa(python, ['-c', `from importlib.metadata import version; print(version(${JSON.stringify(dist)}))`], {
    reject: false,
    timeout: timeoutMs,
  });
  if (r.exitCode !== 0) return undefined;
  const v = String(r.stdout).trim().split('\n').at(-1);
  return v || undefined;
}

export async function detectGpuEngine(engine: GpuEngineName, opts: DetectOptions = {}): Promise<EngineInfo> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  if (opts.runtime === 'docker') {
    if (!opts.image) return { engine, installed: false, runtime: 'docker', detail: 'no image given (--image)' };
    try {
      await assertImageExists(opts.image, timeoutMs);
    } catch (e) {
      return { engine, installed: false, runtime: 'docker', image: opts.image, detail: (e as Error).message };
    }
    const version = versionFromTag(opts.image) ?? (await versionInImage(opts.image, NATIVE[engine].dist, timeoutMs));
    const info = withTableNote({ engine, installed: true, runtime: 'docker', image: opts.image, ...(version ? { version } : {}) });
    return withHelp(engine, await withPlatform(engine, info, { image: opts.image }, timeoutMs), { runtime: 'docker', image: opts.image });
  }
  const { exe, dist } = NATIVE[engine];
  const python = opts.python ?? findOnPath('python3');
  if (!opts.python && exe && !findOnPath(exe)) {
    return { engine, installed: false, runtime: 'native', detail: `'${exe}' is not on PATH` };
  }
  if (!python) return { engine, installed: false, runtime: 'native', detail: 'no python3 on PATH' };
  const version = await pythonVersionOf(python, dist, timeoutMs);
  if (!version) return { engine, installed: false, runtime: 'native', detail: `Python package '${dist}' is not installed in ${python}` };
  const info = await withPlatform(engine, withTableNote({ engine, installed: true, runtime: 'native', version }), { python }, timeoutMs);
  return withHelp(engine, info, {
    runtime: 'native',
    ...(opts.python ? { python: opts.python } : {}),
  });
}

/** Read the installed engine's help when servelab has no table read at its release. */
async function withHelp(engine: EngineName, info: EngineInfo, opts: CaptureOptions): Promise<EngineInfo> {
  const why = helpCheckReason(engine, info.version);
  if (!why || !info.version) return info;
  const h = await captureEngineHelp(engine, info.version, why, opts);
  const helpCheck = h.error
    ? `${why}; its help could not be read, so flags are not checked: ${h.error}`
    : `${why}: every planned flag is checked against its own help (${h.flags.size} flags)`;
  return { ...info, helpCheck };
}

/** 'vllm/vllm-openai:v0.11.0' -> '0.11.0', 'lmsysorg/sglang:v0.5.5.post1-cu129' -> '0.5.5.post1'; 'latest' -> undefined. */
export function versionFromTag(image: string): string | undefined {
  const colon = image.lastIndexOf(':');
  if (colon < 0 || image.indexOf('/', colon) >= 0) return undefined; // no tag (a registry port is not one)
  const m = /^v?(\d+\.\d+(?:\.\d+)*(?:(?:rc|post|\.post|dev|a|b)\d+)?)/.exec(image.slice(colon + 1));
  return m?.[1];
}

/** The engine package's version inside an image whose tag does not say it (e.g. :latest). */
async function versionInImage(image: string, dist: string, timeoutMs: number): Promise<string | undefined> {
  const code = `from importlib.metadata import version; print(version(${JSON.stringify(dist)}))`;
  const r = await execa('docker', ['run', '--rm', '--entrypoint', 'python3', image, '-c', code], { reject: false, timeout: timeoutMs });
  if (r.exitCode !== 0) return undefined;
  return String(r.stdout).trim().split('\n').at(-1) || undefined;
}

/** Say which knob table an installed version gets when it has none of its own (shown on the Host screen). */
function withTableNote(info: EngineInfo & { engine: EngineName }): EngineInfo {
  const r = resolveVersion(info.engine, info.version);
  if (r.exact) return info;
  const why = info.version ? `no knob table for ${info.version}` : 'version unknown';
  return { ...info, knobTable: r.table, detail: `${why}: flags spelled for ${r.table}` };
}

/** Bad input check before a docker launch: docker must exist and the image must be present locally. */
export async function assertImageExists(image: string, timeoutMs = 15_000): Promise<void> {
  if (!findOnPath('docker')) {
    throw new UserError(`docker is not installed or not on PATH (needed for --image ${image}); install docker or use the native runtime`);
  }
  const r = await execa('docker', ['image', 'inspect', '--format', '{{.Id}}', image], { reject: false, timeout: timeoutMs });
  if (r.exitCode !== 0) {
    const why = String(r.stderr).trim().split('\n')[0] ?? '';
    if (/Cannot connect to the Docker daemon|permission denied/i.test(why)) {
      throw new UserError(`docker cannot be used: ${why}`);
    }
    throw new UserError(`docker image '${image}' was not found locally; pull it first with: docker pull ${image}`);
  }
}
