// The older AMD reader, for hosts with rocm-smi and no amd-smi: its JSON ({"card0": {...},
// "system": {...}}), turned into GpuInfo and GpuProcess. The keys are the labels rocm_smi.py
// prints (python_smi_tools/rocm_smi.py, ROCm 6.2: showProductName, showMemInfo, showUse,
// showPower, showUniqueId, showPids); older releases spell some in lower case ("Card series"),
// so keys are matched without regard to case. rocm-smi exits 0 even when it fails: the JSON is the
// only signal.
//
//   queryRocmSmi({ timeoutMs? }) -> Promise<GpuInfo[] | null>   null = no rocm-smi, or no AMD GPU
//   parseRocmSmi(text) -> GpuInfo[]
//   rocmSmiProcesses(timeoutMs?) -> Promise<GpuProcess[]>
//   parseRocmSmiPids(text) -> GpuProcess[]
import { execa } from 'execa';
import { UserError } from '../core/errors.js';
import { findOnPath } from '../core/which.js';
import type { GpuInfo, GpuProcess } from './gpus.js';
import { fieldsOf, firstLine, jsonOf, mibOf, numberOf } from './smi-json.js';

const TOOL = 'rocm-smi';

/** A card's value by label, case-insensitive; `re` picks among labels that vary ("Current Socket" or "Average" power). */
function pick(card: Record<string, unknown>, label: string | RegExp): unknown {
  for (const [k, v] of Object.entries(card)) {
    if (typeof label === 'string' ? k.toLowerCase() === label.toLowerCase() : label.test(k)) return v;
  }
  return undefined;
}

const text = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() && !/^N\/A/i.test(x.trim()) ? x.trim() : undefined);

/** GPUs from `rocm-smi --showproductname --showmeminfo vram --showuse --showpower --showuniqueid --showdriverversion --json`. */
export function parseRocmSmi(out: string): GpuInfo[] {
  const doc = fieldsOf(jsonOf(TOOL, out));
  const driver = text(pick(fieldsOf(doc.system), 'Driver version'));
  const gpus: GpuInfo[] = [];
  for (const [key, value] of Object.entries(doc)) {
    const m = /^card(\d+)$/.exec(key);
    if (!m) continue;
    const card = fieldsOf(value);
    const index = Number(m[1]);
    const total = mibOf(pick(card, 'VRAM Total Memory (B)'), 'B');
    const used = mibOf(pick(card, 'VRAM Total Used Memory (B)'), 'B');
    const util = numberOf(pick(card, 'GPU use (%)'));
    // "Current Socket Graphics Package Power (W)" (MI300) or "Average Graphics Package Power (W)".
    const power = numberOf(pick(card, /Graphics Package Power \(W\)$/i));
    const arch = text(pick(card, 'GFX Version'));
    const gpu: GpuInfo = {
      index,
      uuid: text(pick(card, 'Unique ID')) ?? key,
      name: text(pick(card, 'Card Series')) ?? `AMD GPU ${index}`,
      memTotalMiB: total ?? 0,
      vendor: 'amd',
      ...(used !== undefined ? { memUsedMiB: used } : {}),
      ...(total !== undefined && used !== undefined ? { memFreeMiB: total - used } : {}),
      ...(util !== undefined ? { utilPct: util } : {}),
      ...(power !== undefined ? { powerW: power } : {}),
      ...(arch ? { arch } : {}),
      ...(driver ? { driverVersion: driver } : {}),
    };
    if ([total, used, util].some((v) => v === undefined)) gpu.partial = true;
    gpus.push(gpu);
  }
  return gpus.sort((a, b) => a.index - b.index);
}

/**
 * Processes from `rocm-smi --showpids --json`: {"system": {"PID<pid>": "<name>, <gpus>, <vram
 * bytes>, <sdma>, <cu occupancy>"}} (print2DArray in JSON mode). It counts a process's GPUs but
 * does not say which (--showpidgpus prints nothing in JSON mode), so the GPU stays unknown.
 */
export function parseRocmSmiPids(out: string): GpuProcess[] {
  const procs: GpuProcess[] = [];
  for (const [key, value] of Object.entries(fieldsOf(fieldsOf(jsonOf(TOOL, out)).system))) {
    const m = /^PID(\d+)$/i.exec(key);
    if (!m || typeof value !== 'string') continue;
    const used = mibOf(value.split(',')[2]?.trim(), 'B');
    procs.push({ pid: Number(m[1]), ...(used !== undefined ? { usedMiB: used } : {}) });
  }
  return procs;
}

// rocm_smi.py's initRsmi: "Driver not initialized (amdgpu not found in modules)"; with no card to
// report, JSON mode prints "WARNING: No JSON data to report".
const NO_GPU = /not found in modules|Driver not initialized|No JSON data to report/i;

const QUERY = ['--showproductname', '--showmeminfo', 'vram', '--showuse', '--showpower', '--showuniqueid', '--showdriverversion', '--json'];

/** rocm-smi's GPUs. null = no rocm-smi, or it found no AMD GPU; UserError = it printed garbage. */
export async function queryRocmSmi(opts: { timeoutMs?: number } = {}): Promise<GpuInfo[] | null> {
  const exe = findOnPath(TOOL);
  if (!exe) return null;
  const timeout = opts.timeoutMs ?? 30_000;
  const r = await execa(exe, QUERY, { reject: false, timeout });
  if (r.timedOut) throw new UserError(`rocm-smi did not answer within ${timeout / 1000} s; check the amdgpu driver, or run with --sim`);
  const said = `${String(r.stdout)}\n${String(r.stderr)}`;
  if (NO_GPU.test(said)) return null;
  if (r.exitCode !== 0 && !/^\s*[[{]/m.test(String(r.stdout))) {
    throw new UserError(`rocm-smi failed: ${firstLine(said) || `exit code ${r.exitCode}`}; fix the ROCm install, or run with --sim`);
  }
  const gpus = parseRocmSmi(String(r.stdout));
  return gpus.length ? gpus : null;
}

/** Who holds memory on AMD GPUs, by rocm-smi (the GPU itself unknown). */
export async function rocmSmiProcesses(timeoutMs = 30_000): Promise<GpuProcess[]> {
  const exe = findOnPath(TOOL);
  if (!exe) return [];
  const r = await execa(exe, ['--showpids', '--json'], { reject: false, timeout: timeoutMs });
  try {
    return parseRocmSmiPids(String(r.stdout));
  } catch {
    return [];
  }
}
