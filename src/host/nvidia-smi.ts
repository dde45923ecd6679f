// The NVIDIA reader of the host model: nvidia-smi's CSV queries (resolved from PATH), turned into
// GpuInfo and GpuProcess. Only this file knows nvidia-smi's fields and its error texts.
//
//   queryNvidiaSmi({ timeoutMs? }) -> Promise<GpuInfo[] | null>   null = no NVIDIA GPU here
//   parseGpuCsv(text, { withComputeCap }) -> GpuInfo[]           throws UserError on unreadable output
//   nvidiaSmiProcesses(timeoutMs?) -> Promise<GpuProcess[]>      [] when nvidia-smi is missing or says nothing usable
import { execa } from 'execa';
import { UserError } from '../core/errors.js';
import { findGpu } from '../model/gpus.js';
import { findOnPath } from '../core/which.js';
import type { GpuInfo, GpuProcess } from './gpus.js';

const GPU_QUERY_FIELDS = [
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
function computeCapFromName(name: string): string | undefined {
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
export async function queryNvidiaSmi(opts: { timeoutMs?: number } = {}): Promise<GpuInfo[] | null> {
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

/** nvidia-smi's compute apps: who holds memory on which GPU (by UUID). */
export async function nvidiaSmiProcesses(timeoutMs = 10_000): Promise<GpuProcess[]> {
  const exe = findOnPath('nvidia-smi');
  if (!exe) return [];
  const r = await execa(exe, ['--query-compute-apps=pid,used_memory,gpu_uuid', '--format=csv,noheader,nounits'], {
    reject: false,
    timeout: timeoutMs,
  });
  if (r.exitCode !== 0) return [];
  const out: GpuProcess[] = [];
  for (const line of String(r.stdout).split('\n')) {
    const f = line.split(',').map((s) => s.trim());
    if (f.length < 3 || !/^\d+$/.test(f[0]!)) continue;
    const used = Number(f[1]);
    out.push({ pid: Number(f[0]), ...(Number.isFinite(used) && f[1] !== '' ? { usedMiB: used } : {}), gpuUuid: f[2]! });
  }
  return out;
}
