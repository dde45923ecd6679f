// Which vendor's tool reports this host's GPUs: nvidia-smi first, then amd-smi, then rocm-smi
// (AMD's older tool, for hosts that have only it). The first that finds a GPU answers; a tool that
// is absent or finds none passes to the next. Callers get the one host model (gpus.ts).
//
//   queryGpus({ timeoutMs? }) -> Promise<GpuInfo[] | null>   null = no GPU any tool can see
//   detectHost({ sim?, gpu?, gpus? }) -> Promise<HostInfo>   real GPUs, else the simulated host
import { simulatedHost, type GpuInfo, type HostInfo } from './gpus.js';
import { queryNvidiaSmi } from './nvidia-smi.js';
import { queryAmdSmi } from './amd-smi.js';
import { queryRocmSmi } from './rocm-smi.js';

const READERS = [queryNvidiaSmi, queryAmdSmi, queryRocmSmi];

/**
 * This host's GPUs, from the first vendor tool that finds any. A tool that is there but broken
 * does not hide another vendor's GPUs (an nvidia-smi left in an AMD host's image); its UserError
 * is thrown only when no other tool finds a GPU.
 */
export async function queryGpus(opts: { timeoutMs?: number } = {}): Promise<GpuInfo[] | null> {
  let broken: unknown;
  for (const read of READERS) {
    try {
      const found = await read(opts);
      if (found) return found;
    } catch (e) {
      broken ??= e;
    }
  }
  if (broken) throw broken;
  return null;
}

/**
 * Real GPUs, or the simulated host when asked for (`sim`) or when no tool finds a GPU (then
 * `note` says so; the caller shows it on screen). `gpu`/`gpus` shape the simulated host.
 */
export async function detectHost(opts: { sim?: boolean; gpu?: string; gpus?: number } = {}): Promise<HostInfo> {
  if (opts.sim) return simulatedHost(opts.gpu, opts.gpus, 'simulated host (--sim)');
  const found = await queryGpus();
  if (!found) {
    return simulatedHost(opts.gpu, opts.gpus, 'no NVIDIA or AMD GPU found on this host: using the simulated host');
  }
  return { simulated: false, gpus: found, driverVersion: found[0]?.driverVersion };
}
