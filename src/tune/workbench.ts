// The workbench's services wired to the real core: host and engine detection, model metadata,
// the planner and the session runner. The screens' choices become the same SessionConfig that
// `servelab --auto` builds from flags (through its own parser), so both front ends run one thing.
import { existsSync, statfsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UserError } from '../core/errors.js';
import type { Settings } from '../core/settings.js';
import { ENGINES } from '../core/variant.js';
import { VERSION } from '../core/version.js';
import type { EngineInfo } from '../engines/types.js';
import { getAdapter } from '../engines/index.js';
import { detectHost, type HostInfo } from '../host/gpus.js';
import { resolveParallel, weightBytes } from '../model/estimate.js';
import { gpuNames } from '../model/gpus.js';
import { builtinModelIds, getModel, paramCounts, type WeightDtype } from '../model/models.js';
import { formatCommand } from '../profiles/command.js';
import { AUTO_FLAGS, parseAutoArgs } from './args.js';
import type { SessionConfig } from './config.js';
import type { Plan } from './plan.js';
import { estimateHostFor, estimateSeconds, validationSeconds, type EstimateHost } from './estimate-time.js';
import { realPlanDeps } from './deps.js';
import { planSession, runSession, SessionControl } from './session.js';
import { parseSlo } from './slo.js';
import type { SessionStarter } from '../tui/hooks/useTuneSession.js';
import type { Choices, PlannedSession, Services, WorkbenchDefaults } from '../tui/services.js';
import type { WorkloadForm } from '../tui/state/wizard.js';
import type { HostView, ModelView, PlanView } from '../tui/view.js';

/** Flags the screens own: the form's value replaces any given on the command line. */
const FORM_FLAGS = new Set(['model', 'scenario', 'num-prompts', 'dataset-path', 'objective', 'slo', 'validation', 'sim', 'gpu', 'gpus', 'auto']);

type Flags = Record<string, string | boolean | string[] | undefined>;

export function parseTuiFlags(argv: readonly string[]): Flags {
  try {
    return parseArgs({ args: [...argv], options: AUTO_FLAGS, strict: true, allowPositionals: false }).values as Flags;
  } catch (e) {
    const msg = (e as Error).message.split('\n')[0]!;
    throw new UserError(`${msg}; the workbench takes the same flags as 'servelab --auto --help'`);
  }
}

/** The command line without the flags the screens own, to pass under the form's own flags. */
function passThrough(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.startsWith('--') ? a.slice(2).split('=')[0]! : '';
    const spec = (AUTO_FLAGS as Record<string, { type: string }>)[name];
    if (name && FORM_FLAGS.has(name)) {
      if (spec?.type === 'string' && !a.includes('=')) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

function formDefaults(flags: Flags, settings: Settings): WorkloadForm {
  const s = (k: string) => flags[k] as string | undefined;
  const recent = settings.get('recent-models') ?? [];
  const dataset = s('dataset-path') ?? settings.get('dataset-path');
  const scen = s('scenario')?.toLowerCase();
  const rnd = scen ? /^random[-:](\d+)[-/](\d+)$/.exec(scen) : null;
  return {
    model: s('model') ?? recent[0] ?? 'Qwen/Qwen3-14B',
    scenario: rnd ? 'random' : scen === 'sharegpt' || (!scen && dataset) ? 'sharegpt' : 'sharegpt-like',
    datasetPath: dataset ?? '',
    inputLen: rnd?.[1] ?? '1024',
    outputLen: rnd?.[2] ?? '128',
    numPrompts: s('num-prompts') ?? '200',
    seed: '42',
    objective: ((s('objective') ?? settings.get('objective') ?? 'total') as WorkloadForm['objective']),
    slo: s('slo') ?? settings.get('slo') ?? '',
    validation: s('validation')?.toLowerCase() === 'none' ? 'none' : 'quick',
  };
}

/** Free bytes on the file system that will hold `dir` (its nearest existing parent). */
function freeBytes(dir: string): number | undefined {
  let d = resolve(dir);
  while (!existsSync(d) && dirname(d) !== d) d = dirname(d);
  try {
    const st = statfsSync(d);
    return st.bavail * st.bsize;
  } catch {
    return undefined;
  }
}

// The estimates are the core's (src/tune/estimate-time.ts); re-exported for the UI's callers.
export { estimateSeconds, validationSeconds };

export function planView(plan: Plan, host: EstimateHost, validationS?: number): PlanView {
  return {
    ...(validationS ? { validationS } : {}),
    caveat: plan.caveats[0] ?? '',
    notes: plan.notes,
    stages: plan.stages.map((st) => ({
      name: st.name,
      title: st.title,
      notes: st.notes,
      ...(st.skipped ? { skipped: st.skipped } : {}),
      variants: st.variants.map((pv) => ({
        id: pv.variant.id,
        label: pv.variant.label ?? pv.variant.id,
        knobs: pv.change,
        ...(pv.status !== 'planned' ? { pruned: pv.reason?.reason ?? pv.status } : {}),
        estimateS: estimateSeconds(pv, plan.scenario, host),
        command: formatCommand(pv.engineArgv ?? pv.argv ?? [], pv.env ?? {}),
        ...(pv.predicted ? { predictedTokS: pv.predicted.totalTokPerS } : {}),
      })),
    })),
  };
}

const DTYPES: WeightDtype[] = ['bf16', 'fp8', 'int4'];

export function modelView(id: string): ModelView {
  const m = getModel(id);
  if (!m) {
    return { id, known: false, weights: [], note: `no config.json for '${id}' here or built in: sizes unknown (the simulated host needs a known model)` };
  }
  const p = paramCounts(m);
  const par = resolveParallel('vllm', {});
  return {
    id,
    known: true,
    architecture: m.architecture,
    paramsB: p.total / 1e9,
    ...(m.moe ? { activeParamsB: p.active / 1e9, moe: { experts: m.moe.numExperts, perToken: m.moe.expertsPerTok } } : {}),
    heads: m.numHeads,
    kvHeads: m.numKvHeads,
    layers: m.numLayers,
    contextLen: m.maxPositionEmbeddings,
    checkpointDtype: m.weightDtype,
    weights: DTYPES.map((d) => ({ dtype: d, bytes: weightBytes(m, d, par).total })),
  };
}

export function checkForm(f: WorkloadForm): string[] {
  const out: string[] = [];
  if (!f.model.trim()) out.push('give a model id (e.g. Qwen/Qwen3-14B) or a local folder with config.json');
  const int = (v: string, what: string) => {
    if (!/^\d+$/.test(v) || Number(v) < 1) out.push(`${what} must be a whole number >= 1`);
  };
  int(f.numPrompts, 'prompts');
  if (!/^\d+$/.test(f.seed)) out.push('seed must be a whole number');
  if (f.scenario === 'random') {
    int(f.inputLen, 'input tokens');
    int(f.outputLen, 'output tokens');
  }
  if (f.scenario === 'sharegpt') {
    if (!f.datasetPath.trim()) out.push('the ShareGPT scenario needs the path of a ShareGPT JSON file');
    else if (!existsSync(resolve(f.datasetPath.trim()))) out.push(`${f.datasetPath.trim()}: no such file`);
  }
  if (f.slo.trim()) {
    try {
      parseSlo(f.slo);
    } catch (e) {
      out.push((e as Error).message);
    }
  }
  if (f.objective === 'goodput' && !f.slo.trim()) out.push('the goodput objective needs SLOs (e.g. ttft:p99<2000,tpot:mean<100)');
  return out;
}

/** The --auto argv for these choices: the command line's other flags, then the screens' values. */
export function choicesArgv(base: readonly string[], c: Omit<Choices, 'disabled'>): string[] {
  const f = c.form;
  const args = [...passThrough(base), '--model', f.model.trim(), '--num-prompts', f.numPrompts, '--objective', f.objective];
  if (c.host.simulated) args.push('--sim', '--gpu', c.host.gpuType, '--gpus', String(c.host.gpuCount));
  if (f.scenario === 'random') args.push('--scenario', `random:${f.inputLen}/${f.outputLen}`);
  else if (f.scenario === 'sharegpt') args.push('--scenario', 'sharegpt', '--dataset-path', f.datasetPath.trim());
  else args.push('--scenario', 'sharegpt-like');
  if (f.slo.trim()) args.push('--slo', f.slo.trim());
  if (f.validation === 'none') args.push('--validation', 'none');
  else if (f.validation === 'quick' && !base.some((a) => a === '--scale' || a.startsWith('--scale='))) args.push('--scale', '0.1');
  return args;
}

/**
 * The plan's checklist as config: later stages are re-expanded from the winner actually carried,
 * so an unchecked candidate is dropped by what it changes ('quant=fp8'), which names it whatever
 * wins before; engine-stage candidates by id (they all change 'defaults'); a stage with every
 * candidate unchecked is left out.
 */
export function dropUnchecked(config: SessionConfig, plan: Plan, disabled: readonly string[]): SessionConfig {
  const off = new Set(disabled);
  const drop: string[] = [];
  const stagesOff = new Set<string>();
  for (const st of plan.stages) {
    const candidates = st.variants.filter((v) => v.status === 'planned');
    for (const v of candidates) if (off.has(v.variant.id)) drop.push(st.name === 'engine' ? v.variant.id : v.change);
    if (st.name !== 'engine' && candidates.length > 0 && candidates.every((v) => off.has(v.variant.id))) stagesOff.add(st.name);
  }
  return { ...config, drop: [...config.drop, ...new Set(drop)], stages: config.stages.filter((s) => !stagesOff.has(s)) };
}

export interface RealServicesOptions {
  /** The command line given to `servelab` (tuning flags, as `--auto` takes them). */
  argv: readonly string[];
  settings: Settings;
}

export interface RealServices {
  services: Services;
  defaults: WorkbenchDefaults;
  /** The running session's promise (settles once its servers are stopped), or null. */
  activeSession(): Promise<unknown> | null;
}

export function realServices(opts: RealServicesOptions): RealServices {
  const flags = parseTuiFlags(opts.argv);
  const forceSim = flags.sim === true;
  const gpuCount = flags.gpus !== undefined ? Number(flags.gpus) : 1;
  if (!Number.isInteger(gpuCount) || gpuCount < 1 || gpuCount > 64) throw new UserError(`--gpus must be a whole number from 1 to 64, got '${String(flags.gpus)}'`);
  const defaults: WorkbenchDefaults = {
    gpuType: (flags.gpu as string | undefined) ?? 'H100',
    gpuCount,
    form: formDefaults(flags, opts.settings),
    ...(opts.settings.get('gpu-hour-price') !== undefined || flags['gpu-hour-price'] !== undefined
      ? { pricePerGpuHour: Number(flags['gpu-hour-price'] ?? opts.settings.get('gpu-hour-price')) }
      : {}),
  };
  let detected: HostInfo | undefined;
  let active: Promise<unknown> | null = null;
  const runsDir = (flags['runs-dir'] as string | undefined) ?? 'servelab-runs';

  const services: Services = {
    async detectHost(): Promise<HostView> {
      const [host, engines] = await Promise.all([
        detectHost({ sim: forceSim, gpu: defaults.gpuType, gpus: defaults.gpuCount }),
        Promise.all(
          ENGINES.map(
            (e): Promise<EngineInfo> =>
              getAdapter(e).detect?.({ runtime: 'native', timeoutMs: 10_000 }) ?? Promise.resolve({ engine: e, installed: false, runtime: 'native', detail: 'no detection' }),
          ),
        ),
      ]);
      detected = host;
      return {
        simulated: host.simulated,
        ...(host.note ? { note: host.note } : {}),
        gpus: host.gpus.map((g) => ({ index: g.index, name: g.name, memTotalMiB: g.memTotalMiB, ...(g.computeCap ? { computeCap: g.computeCap } : {}) })),
        ...(host.driverVersion ? { driver: host.driverVersion } : {}),
        gpuTypes: gpuNames(),
        engines: host.simulated ? [...engines, { engine: 'sim', installed: true, runtime: 'sim', version: VERSION, detail: 'imitates vllm, sglang and trtllm' }] : engines,
        logDir: runsDir,
        freeDiskBytes: freeBytes(runsDir),
      };
    },
    describeModel: modelView,
    recentModels() {
      const recent = opts.settings.get('recent-models') ?? [];
      return [...new Set([...recent, ...builtinModelIds()])];
    },
    checkForm,
    async plan(choices): Promise<PlannedSession> {
      const parsed = parseAutoArgs(choicesArgv(opts.argv, choices), opts.settings.all());
      const config: SessionConfig = { ...parsed.config!, scenario: { ...parsed.config!.scenario, seed: Number(choices.form.seed) } };
      const host = choices.host.simulated ? undefined : detected;
      const { plan, host: resolved } = await planSession(config, host ? { host } : {});
      const estHost = estimateHostFor(config, plan);
      const deps = realPlanDeps(config, resolved, config.runDir ?? join(config.runsDir, 'RUN'));
      return {
        view: planView(plan, estHost, validationSeconds(plan, estHost, (v, s) => deps.predict(v, s))),
        start: (disabled): SessionStarter => (onEvent, signal) => {
          const control = new SessionControl();
          const done = runSession(dropUnchecked(config, plan, disabled), { onEvent, signal, control, ...(host ? { host } : {}) });
          active = done;
          return { done, skipVariant: () => control.skipVariant(), stopAfterStage: () => control.stopAfterStage() };
        },
      };
    },
    remember(choices) {
      try {
        opts.settings.addRecentModel(choices.form.model.trim());
      } catch {
        // A read-only config folder must not stop a run.
      }
    },
  };
  return { services, defaults, activeSession: () => active };
}
