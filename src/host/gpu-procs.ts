// GPU memory held by our own processes (nvidia-smi --query-compute-apps). A stopped server has
// only really let go when its PIDs no longer hold GPU memory; the next variant must not start
// before that, or it sees less free memory and fails or measures wrong.
import { execa } from 'execa';
import { findOnPath } from '../core/which.js';

export interface ComputeApp {
  pid: number;
  usedMiB?: number;
  gpuUuid: string;
}

/** Processes holding GPU memory; [] when nvidia-smi is missing or says nothing usable. */
export async function queryComputeApps(timeoutMs = 10_000): Promise<ComputeApp[]> {
  const exe = findOnPath('nvidia-smi');
  if (!exe) return [];
  const r = await execa(exe, ['--query-compute-apps=pid,used_memory,gpu_uuid', '--format=csv,noheader,nounits'], {
    reject: false,
    timeout: timeoutMs,
  });
  if (r.exitCode !== 0) return [];
  const out: ComputeApp[] = [];
  for (const line of String(r.stdout).split('\n')) {
    const f = line.split(',').map((s) => s.trim());
    if (f.length < 3 || !/^\d+$/.test(f[0]!)) continue;
    const used = Number(f[1]);
    out.push({ pid: Number(f[0]), usedMiB: Number.isFinite(used) ? used : undefined, gpuUuid: f[2]! });
  }
  return out;
}

/** Wait until none of `pids` holds GPU memory; false on time-out. Only our PIDs are looked at. */
export async function waitGpuReleased(pids: Iterable<number>, timeoutMs = 60_000, pollMs = 500): Promise<boolean> {
  const ours = new Set(pids);
  if (!ours.size) return true;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const apps = await queryComputeApps();
    if (!apps.some((a) => ours.has(a.pid))) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((r) => setTimeout(r, pollMs));
  }
}
