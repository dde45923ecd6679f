// The AMD reader of the host model: amd-smi's JSON (static, metric, process), turned into GpuInfo
// and GpuProcess. Field names are those of amdsmi_cli/amdsmi_commands.py (ROCm 6.1 to 6.4: a bare
// list of {"gpu": N, ...}); amd-smi 26 (ROCm 7) wraps the same records in {"gpu_data": [...]}
// (https://github.com/ROCm/rocm-systems/pull/223: "amd-smi < 26 does not have top level gpu_data
// key"), so both are read.
//
//   queryAmdSmi({ timeoutMs? }) -> Promise<GpuInfo[] | null>   null = no amd-smi, or no AMD GPU
//   parseAmdSmi(staticText, metricText) -> GpuInfo[]           throws UserError on unreadable output
//   amdSmiProcesses(timeoutMs?) -> Promise<GpuProcess[]>       [] when amd-smi is missing or says nothing usable
//   parseAmdSmiProcesses(text) -> GpuProcess[]
import { execa } from 'execa';
import { UserError } from '../core/errors.js';
import { findOnPath } from '../core/which.js';
import type { GpuInfo, GpuProcess } from './gpus.js';
import { fieldsOf, firstLine, jsonOf, mibOf, numberOf } from './smi-json.js';

const TOOL = 'amd-smi';

/** The per-GPU records, from a bare list or amd-smi 26's {"gpu_data": [...]}. */
function records(doc: unknown, what: string): Record<string, unknown>[] {
  const list = Array.isArray(doc) ? doc : fieldsOf(doc).gpu_data;
  if (!Array.isArray(list))
    throw new UserError(`cannot read amd-smi ${what} output (no list of GPUs in it); check the ROCm install, or run with --sim`);
  return list.map(fieldsOf).filter((r) => Number.isInteger(r.gpu));
}

const text = (x: unknown): string | undefined => (typeof x === 'string' && x.trim() && !/^N\/A$/i.test(x.trim()) ? x.trim() : undefined);

/** GPUs from `amd-smi static --json` and `amd-smi metric --json` (matched by their "gpu" index). */
export function parseAmdSmi(staticText: string, metricText: string): GpuInfo[] {
  const metrics = new Map(records(jsonOf(TOOL, metricText), 'metric').map((r) => [r.gpu as number, r]));
  return records(jsonOf(TOOL, staticText), 'static').map((s) => {
    const index = s.gpu as number;
    const m = metrics.get(index) ?? {};
    const asic = fieldsOf(s.asic);
    const mem = fieldsOf(m.mem_usage);
    const total = mibOf(mem.total_vram, 'MB') ?? mibOf(fieldsOf(s.vram).size, 'MB');
    const used = mibOf(mem.used_vram, 'MB');
    const free = mibOf(mem.free_vram, 'MB') ?? (total !== undefined && used !== undefined ? total - used : undefined);
    const util = numberOf(fieldsOf(m.usage).gfx_activity);
    const power = numberOf(fieldsOf(m.power).socket_power);
    const arch = text(asic.target_graphics_version);
    const driver = text(fieldsOf(s.driver).version);
    const bdf = text(fieldsOf(s.bus).bdf);
    const gpu: GpuInfo = {
      index,
      // amd-smi static prints no UUID; the PCI address names the GPU as uniquely.
      uuid: bdf ?? `amd-gpu-${index}`,
      name: text(asic.market_name) ?? `AMD GPU ${index}`,
      memTotalMiB: total ?? 0,
      vendor: 'amd',
      ...(used !== undefined ? { memUsedMiB: used } : {}),
      ...(free !== undefined ? { memFreeMiB: free } : {}),
      ...(util !== undefined ? { utilPct: util } : {}),
      ...(power !== undefined ? { powerW: power } : {}),
      ...(arch ? { arch } : {}),
      ...(driver ? { driverVersion: driver } : {}),
    };
    if ([total, used, util].some((v) => v === undefined)) gpu.partial = true;
    return gpu;
  });
}

/** Processes from `amd-smi process --json`: each GPU's process_list, VRAM held (else all memory held). */
export function parseAmdSmiProcesses(out: string): GpuProcess[] {
  const procs: GpuProcess[] = [];
  for (const r of records(jsonOf(TOOL, out), 'process')) {
    for (const item of Array.isArray(r.process_list) ? r.process_list : []) {
      // "No running processes detected" / "N/A" stand where a process would be.
      const p = fieldsOf(fieldsOf(item).process_info);
      const pid = numberOf(p.pid);
      if (pid === undefined || !Number.isInteger(pid)) continue;
      const used = mibOf(fieldsOf(p.memory_usage).vram_mem, 'B') ?? mibOf(p.mem_usage, 'B');
      procs.push({ pid, gpuIndex: r.gpu as number, ...(used !== undefined ? { usedMiB: used } : {}) });
    }
  }
  return procs;
}

// Said when the amdgpu driver is absent (amdsmi_cli/amdsmi_init.py, ROCm 6.2: "Drivers not
// loaded (amdgpu and amd_hsmp drivers not found in modules)"), or amd-smi finds no GPU.
const NO_GPU =
  /not found in modules|Drivers? not loaded|Unable to detect any GPU|No GPU|AMDSMI_STATUS_(INIT_ERROR|DRIVER_NOT_LOADED|NOT_FOUND)/i;

async function run(exe: string, args: string[], timeout: number) {
  const r = await execa(exe, args, { reject: false, timeout });
  const said = `${String(r.stdout)}\n${String(r.stderr)}`;
  if (r.timedOut) throw new UserError(`amd-smi did not answer within ${timeout / 1000} s; check the amdgpu driver, or run with --sim`);
  return { ok: r.exitCode === 0, stdout: String(r.stdout), said, exitCode: r.exitCode };
}

// What `amd-smi static` says does not change while servelab runs: read once per executable.
const staticOnce = new Map<string, Promise<Awaited<ReturnType<typeof run>>>>();

/** amd-smi's GPUs. null = no amd-smi, or it found no AMD GPU; UserError = it failed otherwise, or printed garbage. */
export async function queryAmdSmi(opts: { timeoutMs?: number } = {}): Promise<GpuInfo[] | null> {
  const exe = findOnPath(TOOL);
  if (!exe) return null;
  const timeout = opts.timeoutMs ?? 30_000;
  const pending = staticOnce.get(exe) ?? run(exe, ['static', '--asic', '--bus', '--vram', '--driver', '--json'], timeout);
  staticOnce.set(exe, pending);
  // Only a good answer is kept: a failure or a time-out is asked again next time.
  const st = await pending.catch((e: unknown) => {
    staticOnce.delete(exe);
    throw e;
  });
  if (!st.ok) staticOnce.delete(exe);
  if (NO_GPU.test(st.said)) return null;
  if (!st.ok)
    throw new UserError(`amd-smi failed: ${firstLine(st.said) || `exit code ${st.exitCode}`}; fix the ROCm install, or run with --sim`);
  let m = await run(exe, ['metric', '--usage', '--power', '--mem-usage', '--json'], timeout);
  // amd-smi offers --usage/--power only once amdgpu is up, --mem-usage not on a hypervisor
  // (amdsmi_cli/amdsmi_parser.py, ROCm 6.2): without them, every metric.
  if (!m.ok) m = await run(exe, ['metric', '--json'], timeout);
  const gpus = parseAmdSmi(st.stdout, m.ok ? m.stdout : '[]');
  return gpus.length ? gpus : null;
}

/** Who holds memory on which AMD GPU (by index). */
export async function amdSmiProcesses(timeoutMs = 30_000): Promise<GpuProcess[]> {
  const exe = findOnPath(TOOL);
  if (!exe) return [];
  const r = await execa(exe, ['process', '--json'], { reject: false, timeout: timeoutMs });
  if (r.exitCode !== 0) return [];
  try {
    return parseAmdSmiProcesses(String(r.stdout));
  } catch {
    return [];
  }
}
