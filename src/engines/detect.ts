// Is an engine installed here, and which version? Three places to look: the executable on PATH
// (vllm, trtllm-serve), a Python environment (import metadata, without importing the package:
// importing vllm or tensorrt_llm takes many seconds), or a container image.
//
//   detectEngine(engine, { runtime?: 'native' | 'docker', python?: string, image?: string, timeoutMs? })
//     -> Promise<EngineInfo>   never throws; `installed: false` carries `detail` (why)
//   assertImageExists(image) -> Promise<void>   throws UserError (docker missing / image missing)
import { execa } from 'execa';
import { UserError } from '../core/errors.js';
import type { EngineName } from '../core/variant.js';
import { findOnPath } from '../core/which.js';
import type { DetectOptions, EngineInfo } from './types.js';

/** The executable each engine's CLI lives in, and its Python distribution name. */
const NATIVE: Record<EngineName, { exe?: string; dist: string }> = {
  vllm: { exe: 'vllm', dist: 'vllm' },
  sglang: { dist: 'sglang' },
  trtllm: { exe: 'trtllm-serve', dist: 'tensorrt_llm' },
};

async function pythonVersionOf(python: string, dist: string, timeoutMs: number): Promise<string | undefined> {
  const r = await execa(python, ['-c', `from importlib.metadata import version; print(version(${JSON.stringify(dist)}))`], {
    reject: false,
    timeout: timeoutMs,
  });
  if (r.exitCode !== 0) return undefined;
  const v = String(r.stdout).trim().split('\n').at(-1);
  return v || undefined;
}

export async function detectEngine(engine: EngineName, opts: DetectOptions = {}): Promise<EngineInfo> {
  const timeoutMs = opts.timeoutMs ?? 15_000;
  if (opts.runtime === 'docker') {
    if (!opts.image) return { engine, installed: false, runtime: 'docker', detail: 'no image given (--image)' };
    try {
      await assertImageExists(opts.image, timeoutMs);
    } catch (e) {
      return { engine, installed: false, runtime: 'docker', image: opts.image, detail: (e as Error).message };
    }
    const tag = opts.image.includes(':') ? opts.image.split(':').at(-1) : undefined;
    return { engine, installed: true, runtime: 'docker', image: opts.image, version: tag?.replace(/^v/, '') };
  }
  const { exe, dist } = NATIVE[engine];
  const python = opts.python ?? findOnPath('python3');
  if (!opts.python && exe && !findOnPath(exe)) {
    return { engine, installed: false, runtime: 'native', detail: `'${exe}' is not on PATH` };
  }
  if (!python) return { engine, installed: false, runtime: 'native', detail: 'no python3 on PATH' };
  const version = await pythonVersionOf(python, dist, timeoutMs);
  if (!version) return { engine, installed: false, runtime: 'native', detail: `Python package '${dist}' is not installed in ${python}` };
  return { engine, installed: true, runtime: 'native', version };
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
