// The CPU side of this host, for engines that compute on it (llama.cpp): threads this process
// may use, memory available, and whether the CPU has Intel AMX (llama.cpp picks its AMX kernels
// then; see src/tune/plan/llamacpp-gguf.ts hostQuirkArgs). A host without an NVIDIA GPU is a
// real host for such an engine: cpuOnlyHost.
import { readFileSync } from 'node:fs';
import { availableParallelism, freemem } from 'node:os';
import type { CpuInfo, HostInfo } from './gpus.js';

function cpuHasAmx(): boolean {
  try {
    return /^flags\s*:.*\bamx_int8\b/m.test(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return false;
  }
}

export function cpuInfo(): CpuInfo {
  return { threads: availableParallelism(), memAvailMiB: Math.floor(freemem() / 2 ** 20), ...(cpuHasAmx() ? { amx: true } : {}) };
}

/** A real host with no GPU: llama.cpp runs on its CPU. */
export function cpuOnlyHost(): HostInfo {
  return { simulated: false, gpus: [], note: 'no NVIDIA GPU found: llama.cpp runs on the CPU', cpu: cpuInfo() };
}
