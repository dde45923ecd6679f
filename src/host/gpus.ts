// GPUs on this host, from nvidia-smi (resolved from PATH), or the simulated host.
//
//   queryGpus({ timeoutMs? }) -> Promise<GpuInfo[] | null>   null = no NVIDIA GPU here
//   parseGpuCsv(text, { withComputeCap }) -> GpuInfo[]       throws UserError on unreadable output
//   detectHost({ sim?, gpu?, gpus? }) -> Promise<HostInfo>   real GPUs, else the simulated host
//   simulatedHost(gpu = 'H100', count = 1) -> HostInfo
//   readSimGpus(baseUrl) -> Promise<GpuSample[] | null>      a sim server's own GPU report
import { execa } from 'execa';
import type { GpuSample } from '../core/metrics.js';
import { UserError } from '../core/errors.js';
import { findGpu, gpuNames } from '../model/gpus.js';
import { findOnPath } from '../core/which.js';
import type { GpuVendor } from '../core/gpu-vendor.js';

export interface GpuInfo {
  index: number;
  uuid: string;
  /** As nvidia-smi prints it, e.g. "NVIDIA H100 80GB HBM3". */
  name: string;
  memTotalMiB: number;
  /** Undefined where nvidia-smi reports [N/A] (MIG, some consumer parts). */
  memUsedMiB?: number;
  memFreeMiB?: number;
  utilPct?: number;
  /** "9.0"; from the GPU catalog when the driver cannot report it. */
  computeCap?: string;
  driverVersion?: string;
  /** Some fields read [N/A] (MIG mode or an unsupported query). */
  partial?: boolean;
  /** Who makes it (the tool that reported it); absent means NVIDIA. */
  vendor?: GpuVendor;
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

export const GPU_QUERY_FIELDS = [
  'index',
  'uuid',
  'name',
  'memory.total',
  'memory.used',
  'memory.free',
  'utilization.gpu',
  'compute_cap',
  'driver_version',
] as const;

const NA = /^\[?(N\/A|Not Supported|Unknown Error|Insufficient Permissions)\]?$/i;

function num(field: string, raw: string, line: string): number | undefined {
  const v = raw.trim().replace(/\s*(MiB|%)$/i, '');
  if (NA.test(v)) return undefined;
  const n = Number(v);
  if (v === '' || !Number.isFinite(n)) throw garbage(line, `${field} is '${raw.trim()}'`);
  return n;
}

function garbage(line: string, why: string): UserError {
  return new UserError(`cannot read nvidia-smi output (${why}): '${line.slice(0, 120)}'; check the NVIDIA driver, or run with --sim`);
}

/** Catalog compute capability for a GPU name ("NVIDIA A100-SXM4-80GB" -> "8.0"). */
export function computeCapFromName(name: string): string | undefined {
  const spec = findGpu(name);
  return spec?.computeCapability?.toFixed(1);
}

export function parseGpuCsv(text: string, opts: { withComputeCap: boolean } = { withComputeCap: true }): GpuInfo[] {
  const nFields = opts.withComputeCap ? 9 : 8;
  const out: GpuInfo[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const f = line.split(',').map((s) => s.trim());
    if (f.length !== nFields) throw garbage(line, `expected ${nFields} fields, got ${f.length}`);
    const index = Number(f[0]);
    if (!/^\d+$/.test(f[0]!)) throw garbage(line, `index is '${f[0]}'`);
    const name = f[2]!;
    const total = num('memory.total', f[3]!, line);
    const used = num('memory.used', f[4]!, line);
    const free = num('memory.free', f[5]!, line);
    const util = num('utilization.gpu', f[6]!, line);
    let cap = opts.withComputeCap ? f[7]! : undefined;
    if (cap !== undefined && NA.test(cap)) cap = undefined;
    if (cap !== undefined && !/^\d+\.\d+$/.test(cap)) throw garbage(line, `compute_cap is '${cap}'`);
    const driver = f[nFields - 1]!;
    const spec = findGpu(name);
    const gpu: GpuInfo = {
      index,
      uuid: f[1]!,
      name,
      // MIG can hide the total; the catalog knows the part's memory.
      memTotalMiB: total ?? spec?.memMiB ?? 0,
      memUsedMiB: used,
      memFreeMiB: free,
      utilPct: util,
      computeCap: cap ?? computeCapFromName(name),
      driverVersion: NA.test(driver) ? undefined : driver,
    };
    if ([total, used, free, util].some((v) => v === undefined)) gpu.partial = true;
    out.push(gpu);
  }
  return out;
}

const NO_GPU = /No devices were found|couldn't communicate with the NVIDIA driver|NVIDIA driver is not loaded/i;

/** Run nvidia-smi's GPU query. null = no NVIDIA GPU on this host; UserError = broken driver or garbage. */
export async function queryGpus(opts: { timeoutMs?: number } = {}): Promise<GpuInfo[] | null> {
  const exe = findOnPath('nvidia-smi');
  if (!exe) return null;
  const timeout = opts.timeoutMs ?? 15_000;
  const run = (fields: readonly string[]) =>
    execa(exe, [`--query-gpu=${fields.join(',')}`, '--format=csv,noheader,nounits'], { reject: false, timeout });
  let withComputeCap = true;
  let r = await run(GPU_QUERY_FIELDS);
  const said = (x: { stdout: unknown; stderr: unknown }) => `${String(x.stdout)}\n${String(x.stderr)}`;
  // R470-era drivers do not know compute_cap: ask again without it, take it from the catalog.
  if (r.exitCode !== 0 && /compute_cap" is not a valid field/i.test(said(r))) {
    withComputeCap = false;
    r = await run(GPU_QUERY_FIELDS.filter((f) => f !== 'compute_cap'));
  }
  if (r.timedOut) throw new UserError(`nvidia-smi did not answer within ${timeout / 1000} s; check the NVIDIA driver, or run with --sim`);
  const text = said(r);
  if (NO_GPU.test(text)) return null;
  if (r.exitCode !== 0) {
    const first =
      text
        .split('\n')
        .map((l) => l.trim())
        .find(Boolean) ?? `exit code ${r.exitCode}`;
    throw new UserError(`nvidia-smi failed: ${first}; fix the NVIDIA driver (a driver/library mismatch needs a reboot), or run with --sim`);
  }
  const gpus = parseGpuCsv(String(r.stdout), { withComputeCap });
  return gpus.length ? gpus : null;
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

/**
 * Real GPUs, or the simulated host when asked for (`sim`) or when there is no NVIDIA GPU (then
 * `note` says so; the caller shows it on screen). `gpu`/`gpus` shape the simulated host.
 */
export async function detectHost(opts: { sim?: boolean; gpu?: string; gpus?: number } = {}): Promise<HostInfo> {
  if (opts.sim) return simulatedHost(opts.gpu, opts.gpus, 'simulated host (--sim)');
  const found = await queryGpus();
  if (!found) {
    return simulatedHost(opts.gpu, opts.gpus, 'no NVIDIA GPU found on this host: using the simulated host');
  }
  return { simulated: false, gpus: found, driverVersion: found[0]?.driverVersion };
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
