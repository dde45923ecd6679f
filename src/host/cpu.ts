// The CPU side of this host, for engines that compute on it (llama.cpp): threads this process
// may use, memory available, and whether the CPU has Intel AMX (llama.cpp picks its AMX kernels
// then; see src/tune/plan/llamacpp-gguf.ts hostQuirkArgs). A host without an NVIDIA GPU is a
// real host for such an engine: cpuOnlyHost.
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, freemem, totalmem } from 'node:os';
import type { CpuInfo, HostInfo } from './gpus.js';

function procCpuinfo(): string {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    return '';
  }
}

export function cpuInfo(): CpuInfo {
  const text = procCpuinfo();
  // The kernel's "model name" line (x86); os.cpus() names it on other systems.
  const model = (/^model name\s*:\s*(.+)$/m.exec(text)?.[1] ?? cpus()[0]?.model ?? '').trim();
  return {
    threads: availableParallelism(),
    memAvailMiB: Math.floor(freemem() / 2 ** 20),
    memTotalMiB: Math.floor(totalmem() / 2 ** 20),
    ...(model ? { model } : {}),
    ...(/^flags\s*:.*\bamx_int8\b/m.test(text) ? { amx: true } : {}),
  };
}

/** A real host with no GPU: llama.cpp runs on its CPU. */
export function cpuOnlyHost(): HostInfo {
  return { simulated: false, gpus: [], note: 'no NVIDIA GPU found: llama.cpp runs on the CPU', cpu: cpuInfo() };
}
