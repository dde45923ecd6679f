// The core's facts in the shapes the workbench screens draw: the host and its engines, a model's
// config and weight sizes, and the plan with each variant's command and time estimate.
import { existsSync, statfsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ENGINES } from '../../core/variant.js';
import { VERSION } from '../../core/version.js';
import { getAdapter } from '../../engines/index.js';
import type { EngineInfo } from '../../engines/kit/types.js';
import type { HostInfo } from '../../host/gpus.js';
import { weightBytes } from '../../model/estimate.js';
import { resolveParallel } from '../../model/layout.js';
import { gpuNames } from '../../model/gpus.js';
import { getModel, type WeightDtype } from '../../model/models.js';
import { paramCounts } from '../../model/param-counts.js';
import { formatCommand } from '../../core/shell-quote.js';
import { estimateSeconds, type EstimateHost } from '../../tune/plan/estimate-time.js';
import type { Plan } from '../../tune/plan/types.js';
import { stageScenario } from '../../tune/plan/replica.js';
import { stageWeightsLine } from '../../tune/plan/weights-line.js';
import type { HostView, ModelView, PlanView, PlanVariantView } from './types.js';
import { SAME_SERVER } from '../../tune/decide/same-server.js';
import { isGgufPath } from '../../tune/request/llamacpp-args.js';
import { ggufModelView } from './gguf-view.js';
import { budgetPlanText } from '../../core/view-budget.js';

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

/** Each engine's detection, run side by side; `llamaServer` is --llama-server's path. */
export function detectEngines(llamaServer?: string): Promise<EngineInfo[]> {
  return Promise.all(
    ENGINES.map(
      (e): Promise<EngineInfo> =>
        getAdapter(e).detect?.({ runtime: 'native', timeoutMs: 10_000, ...(llamaServer ? { llamaServer } : {}) }) ??
        Promise.resolve({ engine: e, installed: false, runtime: 'native', detail: 'no detection' }),
    ),
  );
}

export function hostView(host: HostInfo, engines: EngineInfo[], runsDir: string): HostView {
  return {
    simulated: host.simulated,
    ...(host.note ? { note: host.note } : {}),
    gpus: host.gpus.map((g) => ({
      index: g.index,
      name: g.name,
      memTotalMiB: g.memTotalMiB,
      ...(g.computeCap ? { computeCap: g.computeCap } : {}),
      ...(g.arch ? { arch: g.arch } : {}),
    })),
    ...(host.driverVersion ? { driver: host.driverVersion } : {}),
    gpuTypes: gpuNames(),
    ...(host.cpu && !host.simulated ? { cpu: host.cpu } : {}),
    engines: host.simulated
      ? [...engines, { engine: 'sim', installed: true, runtime: 'sim', version: VERSION, detail: 'imitates vllm, sglang and trtllm' }]
      : engines,
    logDir: runsDir,
    freeDiskBytes: freeBytes(runsDir),
  };
}

export function planView(plan: Plan, host: EstimateHost, validationS?: number, opts: { dummyWeights?: boolean } = {}): PlanView {
  return {
    ...(validationS ? { validationS } : {}),
    ...(opts.dummyWeights ? { dummyWeights: true } : {}),
    ...(plan.budget ? { budget: budgetPlanText(plan.budget) } : {}),
    caveat: plan.caveats[0] ?? '',
    notes: plan.notes,
    stages: plan.stages.map((st) => ({
      name: st.name,
      title: st.title,
      notes: st.notes,
      ...(st.skipped ? { skipped: st.skipped } : {}),
      ...weightsOf(st.variants),
      variants: st.variants.map((pv) => ({
        id: pv.variant.id,
        label: pv.variant.label ?? pv.variant.id,
        knobs: pv.change,
        ...(pv.status !== 'planned' ? { pruned: pv.reason?.reason ?? pv.status, notRun: notRunWord(pv.status, pv.reason?.reason) } : {}),
        estimateS: estimateSeconds(pv, stageScenario(plan.scenario, plan.replica, pv.stage), host),
        command: formatCommand(pv.engineArgv ?? pv.argv ?? [], pv.env ?? {}),
        ...(pv.predicted ? { predictedTokS: pv.predicted.totalTokPerS } : {}),
        ...(pv.predicted?.errorPct !== undefined ? { predictedErrorPct: pv.predicted.errorPct } : {}),
      })),
    })),
  };
}

/** The stage's weights line as the dry-run plan says it (text-weights.ts), without its indent. */
function weightsOf(variants: Plan['stages'][number]['variants']): { weights?: string } {
  const line = stageWeightsLine(variants);
  return line ? { weights: line.trim() } : {};
}

const DTYPES: WeightDtype[] = ['bf16', 'fp8', 'int4'];

export function modelView(id: string): ModelView {
  if (isGgufPath(id.trim())) return ggufModelView(id.trim());
  const m = getModel(id);
  if (!m) {
    return {
      id,
      known: false,
      weights: [],
      note: `no config.json for '${id}' here or built in: sizes unknown (the simulated host needs a known model)`,
    };
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

/** The word before a not-planned row's reason: a same-server variant is not launched, not pruned. */
export function notRunWord(status: string, reason: string | undefined): NonNullable<PlanVariantView['notRun']> {
  if (reason?.startsWith(SAME_SERVER)) return 'not launched';
  return status === 'dropped' ? 'dropped' : 'pruned';
}
