// Where llama-server is and which version it is. Three places, in order: a path the user gives
// (--llama-server PATH, or SERVELAB_LLAMA_SERVER), `llama-server` on PATH, and servelab's own build
// (`servelab engines build llamacpp`, src/host/llamacpp-build.ts). The version comes from
// `llama-server --version`, which prints (80fb11a, common/build-info):
//   version: 0.4.0-dev (build 1, commit 80fb11a)
//   built with GNU 12.2.0 for Linux x86_64
// and whether it offloads to a GPU from `llama-server --list-devices` (devices.ts). Which of
// servelab's builds: a GPU build where this host has that vendor's GPU device files, else the CPU
// build (a CUDA build does not even start without the driver's libcuda.so.1).
import fs from 'node:fs';
import { execa } from 'execa';
import { findOnPath } from '../../core/which.js';
import { findLlamaCppBuild, LLAMACPP_COMMIT } from '../../host/llamacpp-build.js';
import type { LlamaBackend } from '../../host/llamacpp-backend.js';
import { devicesText, listDevices } from './devices.js';
import { resolveVersion } from '../data/versions.js';
import type { EngineInfo } from '../kit/types.js';

export interface LlamaServerFound {
  path: string;
  from: 'flag' | 'path' | 'build';
}

/** The llama-server to use, or undefined when there is none. */
export function findLlamaServer(
  explicit: string | undefined = process.env.SERVELAB_LLAMA_SERVER || undefined,
): LlamaServerFound | undefined {
  if (explicit) {
    const p = findOnPath(explicit.includes('/') ? explicit : `./${explicit}`);
    return p ? { path: p, from: 'flag' } : undefined;
  }
  const onPath = findOnPath('llama-server');
  if (onPath) return { path: onPath, from: 'path' };
  for (const backend of usableBackends()) {
    const built = findLlamaCppBuild(LLAMACPP_COMMIT, backend);
    if (built) return { path: built, from: 'build' };
  }
  return undefined;
}

/** The device files of each vendor's driver: /dev/nvidiactl (NVIDIA), /dev/kfd (ROCm's kernel driver). */
const DEVICE_FILES: [LlamaBackend, string][] = [
  ['cuda', '/dev/nvidiactl'],
  ['hip', '/dev/kfd'],
];

/** The builds this host can run, GPU builds first. */
export function usableBackends(exists: (p: string) => boolean = fs.existsSync): LlamaBackend[] {
  return [...DEVICE_FILES.filter(([, f]) => exists(f)).map(([b]) => b), 'cpu'];
}

export interface LlamaVersion {
  version: string;
  build?: number;
  commit?: string;
}

/** "version: 0.4.0-dev (build 1, commit 80fb11a)" -> { version: '0.4.0-dev', build: 1, commit: '80fb11a' }. */
export function parseLlamaVersion(text: string): LlamaVersion | undefined {
  const m = /^version: (\S+) \((?:build (\d+), commit ([0-9a-f]+)|([0-9a-f]+))\)/m.exec(text);
  if (!m) return undefined;
  return { version: m[1]!, ...(m[2] ? { build: Number(m[2]) } : {}), ...((m[3] ?? m[4]) ? { commit: (m[3] ?? m[4])! } : {}) };
}

export async function detectLlamaCpp(opts: { llamaServer?: string; timeoutMs?: number } = {}): Promise<EngineInfo> {
  const found = findLlamaServer(opts.llamaServer);
  if (!found) {
    const detail = opts.llamaServer
      ? `'${opts.llamaServer}' is not an executable file`
      : "'llama-server' is not on PATH and servelab has not built it (run `servelab engines build llamacpp`)";
    return { engine: 'llamacpp', installed: false, runtime: 'native', detail };
  }
  const r = await execa(found.path, ['--version'], { reject: false, all: true, timeout: opts.timeoutMs ?? 15_000 });
  const v = parseLlamaVersion(String(r.all ?? ''));
  if (!v) {
    const first =
      String(r.all ?? '')
        .trim()
        .split('\n')[0] ?? '';
    return {
      engine: 'llamacpp',
      installed: false,
      runtime: 'native',
      path: found.path,
      detail: `${found.path} --version did not print a version (${first.slice(0, 120)})`,
    };
  }
  const d = await listDevices(found.path, opts.timeoutMs ?? 15_000);
  const info: EngineInfo = {
    engine: 'llamacpp',
    installed: true,
    runtime: 'native',
    version: v.version,
    path: found.path,
    ...(d ? { backend: d.backend, gpuDevices: d.devices, detail: devicesText(d) } : {}),
  };
  const t = resolveVersion('llamacpp', v.version);
  if (!t.exact) {
    const table = `no knob table for ${v.version}: flags spelled for ${t.table}`;
    return { ...info, knobTable: t.table, detail: info.detail ? `${table}; ${info.detail}` : table };
  }
  return info;
}
