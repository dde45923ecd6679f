// The planner's view of the rest of servelab, wired to the real modules: engine adapters for
// commands and supported knobs, the shared estimate for fit and preflight, and the simulator's
// virtual clock for predictions.
import { planningOf, servesGguf } from '../../engines/index.js';
import { vendorPrune } from '../../engines/vendor-support.js';
import type { Failure } from '../../core/events.js';
import { isGpuEngine, type EngineName, type Variant } from '../../core/variant.js';
import { rowAt, supportedKnobs } from '../../engines/table.js';
import { resolveVersion } from '../../engines/data/versions.js';
import { hostVendor, type HostInfo } from '../../host/gpus.js';
import { preflight } from '../../engines/preflight.js';
import { fits as estimateFits, resolveServer } from '../../model/estimate.js';
import { findGpu } from '../../model/gpus.js';
import type { GpuSpec } from '../../model/gpu-spec.js';
import { getModel, type ModelInfo } from '../../model/models.js';
import { defaultLoadTime, type StartupOpts as LoadTimeOptions } from '../../sim/imitation/startup.js';
import { PREDICTION_LATENCY, simulateWorkload } from '../../sim/scheduler/virtual.js';
import { scenarioRequests } from '../../sim/predict/workload.js';
import type { SessionConfig } from '../config/config.js';
import { launchWeights } from '../launch/dummy-weights.js';
import { launchContext, prepareLaunch } from '../launch/launch.js';
import type { PlanDeps } from './types.js';
import type { PlanHost, PreflightResult } from '../../engines/kit/plan-types.js';
import { llamacppPrior } from './llamacpp-predict.js';
import type { Predicted } from '../../core/predicted.js';
import { measuredError } from '../../model/data/measured-error.js';
import type { Scenario } from '../../core/scenario.js';

export function planHost(host: HostInfo): PlanHost {
  const g = host.gpus[0];
  const cap = g?.computeCap ? Number(g.computeCap) : undefined;
  return {
    gpuName: g ? (findGpu(g.name)?.name ?? g.name) : host.cpu && !host.simulated ? 'CPU' : 'unknown GPU',
    gpuCount: host.gpus.length,
    gpuMemMiB: g?.memTotalMiB ?? 0,
    ...(cap !== undefined && Number.isFinite(cap) ? { computeCap: cap } : {}),
    simulated: host.simulated,
    ...(host.gpusPerNode && host.gpusPerNode < host.gpus.length ? { gpusPerNode: host.gpusPerNode } : {}),
    ...(host.driverVersion ? { driver: host.driverVersion } : {}),
    ...(host.cpu ? { cpu: { ...host.cpu } } : {}),
    // The GPUs' maker: as detected, else the catalogue's (a simulated --gpu MI300X host is AMD's).
    ...planVendor(host),
  };
}

/**
 * A variant's preflight on this host: an engine that does not run on the host's GPU vendor
 * (TensorRT-LLM on AMD) is pruned with the reason; an engine with its own planning has its own
 * checks (llama.cpp: engines/llamacpp/preflight.ts); the GPU engines share preflight.ts's rules.
 */
function preflightOn(variant: Variant, host: HostInfo, model: ModelInfo | undefined): PreflightResult {
  const failure = vendorPrune(variant.engine, planVendor(host).vendor);
  if (failure) return { failure, warnings: [] };
  return planningOf(variant.engine)?.preflight(variant, planHost(host)) ?? preflightVariant(variant, host, model);
}

function planVendor(host: HostInfo): Pick<PlanHost, 'vendor'> {
  const g = host.gpus[0];
  const vendor = hostVendor(host) ?? (g ? findGpu(g.name)?.vendor : undefined);
  return vendor ? { vendor } : {};
}

/** Request lengths of a scenario for the virtual clock (deterministic; see scenarioRequests). */
export function scenarioLengths(s: Scenario): { promptLen: number; outputLen: number }[] {
  // A real ShareGPT file or the ShareGPT-like JSONL: the ShareGPT length table (reading and
  // tokenizing the file is the benchmark's job). Random shapes are spread by their range ratio.
  return scenarioRequests(s, s.seed);
}

/** Preflight prunes are results with a classified reason: map the rule to the failure kind. */
const RULE_KIND: Record<string, Failure['kind']> = {
  'fp8-needs-sm89': 'unsupported',
  'memory-fit': 'oom',
};

function ruleKind(rule: string | undefined): Failure['kind'] {
  if (!rule) return 'pruned';
  if (RULE_KIND[rule]) return RULE_KIND[rule]!;
  if (/head|tp-/.test(rule)) return 'tp-mismatch';
  if (/gpu|support|moe|blackwell|fp8/i.test(rule)) return 'unsupported';
  return 'pruned';
}

/** The engines' preflight rules, with the prune classified (unsupported, oom, tp-mismatch). */
export function preflightVariant(variant: Variant, host: HostInfo, model: ModelInfo | undefined): PreflightResult {
  const r = preflight(variant, host, model);
  if (r.ok || !r.pruned) return { warnings: r.warnings };
  return { failure: { ...r.pruned, kind: ruleKind(r.rule) }, warnings: r.warnings };
}

/** The simulator's own start-up model for a variant (simulated seconds), or undefined when unknown. */
export function modelledStartupS(variant: Variant, sim: { gpu: string; gpus: number }, opts: LoadTimeOptions = {}): number | undefined {
  const gpu = findGpu(sim.gpu);
  const model = getModel(variant.model);
  if (!gpu || !model) return undefined;
  const server = resolveServer(variant.engine, gpu, sim.gpus, model, variant.knobs);
  return defaultLoadTime(server.weights.perGpu, !!variant.knobs.torchCompile, opts);
}

/** A detected version string worth spelling commands for ('simulated' / 'unknown' are not). */
function realVersion(v: string | undefined): string | undefined {
  return v && !/^(simulated|unknown|sim)$/.test(v) ? v : undefined;
}

/**
 * `versions`: the engine releases detected on the host (session.ts's availableEngines); commands
 * are spelled for them, via the nearest knob table (src/engines/data/versions.ts).
 */
export function realPlanDeps(config: SessionConfig, host: HostInfo, runDir: string, versions: Record<string, string> = {}): PlanDeps {
  const gpu = host.gpus[0] ? findGpu(host.gpus[0].name) : undefined;
  const gpus = host.gpus.length;
  // A cluster: collectives of groups wider than a node cross the inter-node link (interconnect.ts).
  const nodeSize = config.sim?.nodes
    ? config.sim.gpus / config.sim.nodes
    : config.runtime.kind === 'slurm'
      ? config.runtime.gpusPerNode
      : undefined;
  const modelOf = (id: string) => getModel(id);
  const predictions = new Map<string, Predicted | undefined>();
  return {
    engineInfo(engine: EngineName) {
      const table = resolveVersion(engine, realVersion(versions[engine])).table;
      return { supports: supportedKnobs(engine, table), attentionBackends: rowAt(engine, 'attentionBackend', table)?.candidates ?? [] };
    },
    engineVersion: (engine) => realVersion(versions[engine]),
    command: (variant) => {
      // The runner's own command (launch.ts), at the first port of the range; planned variants are tuning launches.
      const dummyWeights = launchWeights(config, variant, 'plan')?.kind === 'dummy';
      const { spec, engineEnv } = prepareLaunch(
        variant,
        launchContext(config, { port: config.portStart, runDir: `${runDir}/logs/${variant.id}` }),
        { cacheDir: `${runDir}/cache`, dummyWeights, ...(config.sim?.truth ? { simTruth: config.sim.truth } : {}) },
      );
      return { ...spec, env: engineEnv };
    },
    weights: (variant) => launchWeights(config, variant, 'plan'),
    // First an engine off this host's GPU vendor, then an engine's own checks (llama.cpp) or the GPU engines' rules.
    preflight: (variant) => preflightOn(variant, host, modelOf(variant.model)),
    fits(variant) {
      const m = modelOf(variant.model);
      if (!gpu || !m) return undefined;
      // Memory only: other reasons a variant cannot run (FP8 on this GPU, heads) are preflight's.
      const fit = estimateFits(variant.engine, gpu, gpus, m, variant.knobs);
      return fit.fits || !(fit.kind === 'oom-weights' || fit.kind === 'oom-kv' || fit.kind === 'kv-too-small');
    },
    model: modelOf,
    predict(variant, scenario) {
      // The whole scenario: two concurrency limits (or lengths) under one name are two predictions.
      const key = `${variant.id}|${JSON.stringify(scenario)}`;
      if (predictions.has(key)) return predictions.get(key);
      let p: Predicted | undefined;
      if (servesGguf(variant.engine)) {
        p = llamacppPrior(variant, scenario, config, runDir);
        predictions.set(key, p);
        return p;
      }
      const m = modelOf(variant.model);
      if (gpu && m) p = simulatedPrediction(variant, scenario, { gpu, gpus, model: m, ...(nodeSize ? { gpusPerNode: nodeSize } : {}) });
      predictions.set(key, p);
      return p;
    },
  };
}

/** The model's measured error at this engine and concurrency, where held-out runs cover them. */
function errorOf(engine: EngineName, concurrency: number): Pick<Predicted, 'errorPct'> {
  const band = isGpuEngine(engine) ? measuredError(engine, concurrency) : undefined;
  return band ? { errorPct: Math.round(band.tputPerGpu * 1000) / 10 } : {};
}

/** A GPU engine's prediction on the virtual clock, with the model's measured error there; undefined when it does not fit. */
function simulatedPrediction(
  variant: Variant,
  scenario: Scenario,
  host: { gpu: GpuSpec; gpus: number; model: ModelInfo; gpusPerNode?: number },
): Predicted | undefined {
  try {
    const r = simulateWorkload({
      engine: variant.engine,
      ...host,
      knobs: variant.knobs,
      requests: scenarioLengths(scenario),
      ...(scenario.maxConcurrency ? { maxConcurrency: scenario.maxConcurrency } : {}),
      seed: scenario.seed,
      latencyMetrics: PREDICTION_LATENCY,
    });
    if (!r.metrics) return undefined;
    return {
      totalTokPerS: r.metrics.total_token_throughput,
      meanTtftMs: r.metrics.mean_ttft_ms,
      meanTpotMs: r.metrics.mean_tpot_ms,
      peakEventsPerS: r.metrics.max_output_tokens_per_s + 2 * r.metrics.request_throughput,
      ...errorOf(variant.engine, scenario.maxConcurrency ?? scenario.numPrompts),
    };
  } catch {
    return undefined;
  }
}
