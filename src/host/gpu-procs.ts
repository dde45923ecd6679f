// GPU memory held by processes, from whichever vendor's tool is here (nvidia-smi's compute apps,
// amd-smi's or rocm-smi's process list). A stopped server has only really let go when its PIDs no
// longer hold GPU memory; the next variant must not start before that, or it sees less free
// memory and fails or measures wrong.
import type { GpuProcess } from './gpus.js';
import { nvidiaSmiProcesses } from './nvidia-smi.js';
import { amdSmiProcesses } from './amd-smi.js';
import { rocmSmiProcesses } from './rocm-smi.js';
import { findOnPath } from '../core/which.js';

/** Processes holding GPU memory; [] when no tool is here or none says anything usable. */
export async function queryGpuProcesses(timeoutMs = 10_000): Promise<GpuProcess[]> {
  const nvidia = await nvidiaSmiProcesses(timeoutMs);
  // amd-smi answers for AMD GPUs where it is installed; rocm-smi only where it is not.
  const amd = findOnPath('amd-smi') ? await amdSmiProcesses(timeoutMs) : await rocmSmiProcesses(timeoutMs);
  return [...nvidia, ...amd];
}

/** Wait until none of `pids` holds GPU memory; false on time-out. Only our PIDs are looked at. */
export async function waitGpuReleased(pids: Iterable<number>, timeoutMs = 60_000, pollMs = 500): Promise<boolean> {
  const ours = new Set(pids);
  if (!ours.size) return true;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const held = await queryGpuProcesses();
    if (!held.some((a) => ours.has(a.pid))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
