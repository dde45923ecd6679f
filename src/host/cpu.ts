// The CPU side of this host, for engines that compute on it (llama.cpp), and the one reader of
// /proc/cpuinfo and /proc/stat: threads this process may use, memory available, the CPU's model
// and flags (Intel AMX: a llama-server built with its AMX kernels picks them then; see
// src/engines/llamacpp/amx.ts), and how busy other processes keep the cores. The llama.cpp estimate takes these
// as facts (src/model/cpu.ts cpuFactsFrom). A host without an NVIDIA GPU is a real host for such
// an engine: cpuOnlyHost.
import { readFileSync } from 'node:fs';
import { availableParallelism, cpus, freemem, loadavg, totalmem } from 'node:os';
import { cpuFactsFrom, type CpuFacts, type CpuIdentity, type CpuLoad } from '../model/cpu.js';
import type { CpuInfo, HostInfo } from './gpus.js';

const readOr = (path: string) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return ''; // no /proc (not Linux): callers take the empty text's defaults, and their source says so
  }
};

/** What /proc/cpuinfo text states (exported for tests). */
export function cpuIdentityFrom(cpuinfo: string): CpuIdentity {
  const mhz = Number(/^cpu MHz\s*:\s*([\d.]+)/m.exec(cpuinfo)?.[1]);
  const modelName = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim();
  return {
    logicalCpus: (cpuinfo.match(/^processor\s*:/gm) ?? []).length,
    ...(mhz > 0 ? { mhz } : {}),
    flags: (/^flags\s*:(.*)$/m.exec(cpuinfo)?.[1] ?? '').trim().split(/\s+/).filter(Boolean),
    ...(modelName ? { modelName } : {}),
  };
}

let identity: CpuIdentity | undefined;
/** This host's CPU as /proc/cpuinfo states it (read once per process). */
export function cpuIdentity(): CpuIdentity {
  return (identity ??= cpuIdentityFrom(readOr('/proc/cpuinfo')));
}

/** Busy and total jiffies of the aggregate "cpu" line of /proc/stat text (iowait counts as idle). */
export function statTimes(stat: string): { busy: number; total: number } {
  const f = (/^cpu\s+(.*)$/m.exec(stat)?.[1] ?? '').trim().split(/\s+/).map(Number);
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = f;
  const busy = user + nice + system + irq + softirq + steal;
  return { busy, total: busy + idle + iowait };
}

/** Cores busy over a short window of /proc/stat, and the load average: what other processes take before a session launches anything. */
export function cpuLoadNow(windowMs = 250): CpuLoad {
  const a = statTimes(readOr('/proc/stat'));
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, windowMs); // a synchronous wait: predict stays one call
  const b = statTimes(readOr('/proc/stat'));
  const cores = Math.max(1, cpuIdentity().logicalCpus);
  const busyCores = b.total > a.total ? ((b.busy - a.busy) / (b.total - a.total)) * cores : 0;
  const loadAvg1 = loadavg()[0] ?? 0;
  return {
    busyCores,
    loadAvg1,
    source: `others kept ${busyCores.toFixed(2)} of ${cores} cores busy (/proc/stat over ${windowMs} ms; load average ${loadAvg1.toFixed(2)})`,
  };
}

/** This host's CPU facts for the llama.cpp estimate, its load read now. */
export function hostCpuFacts(): CpuFacts {
  return cpuFactsFrom(cpuIdentity(), cpuLoadNow());
}

export function cpuInfo(): CpuInfo {
  const id = cpuIdentity();
  // The kernel's "model name" line (x86); os.cpus() names it on other systems.
  const model = (id.modelName ?? cpus()[0]?.model ?? '').trim();
  return {
    threads: availableParallelism(),
    memAvailMiB: Math.floor(freemem() / 2 ** 20),
    memTotalMiB: Math.floor(totalmem() / 2 ** 20),
    ...(model ? { model } : {}),
    ...(id.flags.includes('amx_int8') ? { amx: true } : {}),
  };
}

/** A real host with no GPU: llama.cpp runs on its CPU. */
export function cpuOnlyHost(): HostInfo {
  return { simulated: false, gpus: [], note: 'no NVIDIA GPU found: llama.cpp runs on the CPU', cpu: cpuInfo() };
}
