// The host model, one for every vendor: the GPUs (whoever reported them: nvidia-smi, amd-smi,
// rocm-smi, or the simulated host), the processes that hold their memory, the CPU side. Screens,
// the ledger, leftover detection, `servelab gpus` and the live GPU panel read this model; only the
// readers (nvidia-smi.ts, amd-smi.ts, rocm-smi.ts, picked by gpu-detect.ts) know a vendor's CLI.
//
//   simulatedHost(gpu = 'H100', count = 1) -> HostInfo
//   readSimGpus(baseUrl) -> Promise<GpuSample[] | null>      a sim server's own GPU report
import type { GpuSample } from '../core/metrics.js';
import { UserError } from '../core/errors.js';
import { findGpu, gpuNames } from '../model/gpus.js';
import type { GpuVendor } from '../core/gpu-vendor.js';

export interface GpuInfo {
  index: number;
  uuid: string;
  /** As the vendor's tool prints it, e.g. "NVIDIA H100 80GB HBM3", "AMD Instinct MI300X". */
  name: string;
  memTotalMiB: number;
  /** Undefined where the tool reports N/A (MIG, some consumer parts, a secondary die). */
  memUsedMiB?: number;
  memFreeMiB?: number;
  utilPct?: number;
  /** "9.0"; from the GPU catalog when the driver cannot report it. NVIDIA only (AMD: `arch`). */
  computeCap?: string;
  driverVersion?: string;
  /** Some fields read [N/A] (MIG mode or an unsupported query). */
  partial?: boolean;
  /** Who makes it (the tool that reported it); absent means NVIDIA. */
  vendor?: GpuVendor;
  /** AMD: the graphics target, e.g. "gfx942" (what ROCm builds and kernels are keyed by). */
  arch?: string;
  /** Board power now, W (amd-smi's socket power, rocm-smi's graphics package power). */
  powerW?: number;
}

/** A process holding GPU memory, as the vendor's tool reports it. */
export interface GpuProcess {
  pid: number;
  /** Memory it holds on that GPU (AMD: its VRAM), MiB. */
  usedMiB?: number;
  /** The GPU, by UUID (nvidia-smi) or by index (amd-smi); neither when the tool does not say (rocm-smi). */
  gpuUuid?: string;
  gpuIndex?: number;
}

export interface HostInfo {
  simulated: boolean;
  gpus: GpuInfo[];
  /** Why the host is simulated, or other things worth saying on screen. */
  note?: string;
  driverVersion?: string;
  /** A cluster (`--runtime slurm`, `--sim --nodes`): GPUs per node; `gpus` lists all nodes' GPUs. */
  gpusPerNode?: number;
  /** The CPU side, for engines that run on it (llama.cpp): set by sessions that have such an engine. */
  cpu?: CpuInfo;
}

export interface CpuInfo {
  /** Threads this process may use (os.availableParallelism). */
  threads: number;
  /** Memory available to new processes (os.freemem, MemAvailable on Linux). */
  memAvailMiB: number;
  /** Memory installed (os.totalmem). */
  memTotalMiB?: number;
  /** The CPU's name ("model name" of /proc/cpuinfo), when the system says: a CPU calibration's host fingerprint. */
  model?: string;
  /** The CPU has Intel AMX (the amx_int8 flag of /proc/cpuinfo): llama.cpp picks its AMX kernels then. */
  amx?: boolean;
}

/** Who makes the host's GPUs (the model says per GPU); undefined means NVIDIA, or no GPU. */
export function hostVendor(host: { gpus: readonly GpuInfo[] }): GpuVendor | undefined {
  return host.gpus.find((g) => g.vendor)?.vendor;
}

/** The simulated host: `count` GPUs of a catalog type, idle. */
export function simulatedHost(gpu = 'H100', count = 1, note?: string): HostInfo {
  const spec = findGpu(gpu);
  if (!spec) throw new UserError(`unknown GPU '${gpu}' for the simulated host (choose from ${gpuNames().join(', ')})`);
  if (!Number.isInteger(count) || count < 1 || count > 64) throw new UserError(`--gpus must be a whole number from 1 to 64, got ${count}`);
  const gpus: GpuInfo[] = Array.from({ length: count }, (_, index) => ({
    index,
    uuid: `GPU-sim-${index}`,
    name: spec.smiName,
    memTotalMiB: spec.memMiB,
    memUsedMiB: 0,
    memFreeMiB: spec.memMiB,
    utilPct: 0,
    ...(spec.computeCapability !== undefined ? { computeCap: spec.computeCapability.toFixed(1) } : {}),
    ...(spec.vendor ? { vendor: spec.vendor } : {}),
  }));
  return { simulated: true, gpus, note };
}

/** GET <sim server>/sim/gpus: the GPUs (and the memory) the simulated server models; null when it does not answer with a list. */
export async function readSimGpus(baseUrl: string): Promise<GpuSample[] | null> {
  try {
    const res = await fetch(`${baseUrl}/sim/gpus`, { signal: AbortSignal.timeout(2000) });
    if (!res.ok) return null;
    const list = (await res.json()) as GpuSample[];
    return Array.isArray(list) ? list : null;
  } catch {
    return null;
  }
}
