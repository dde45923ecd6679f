// Plan-time estimates: rough wall-clock seconds each planned variant and the validation take on
// this host, for the plan's time column. The TUI's Plan screen and `--auto --dry-run` both show
// these, so they live in the core.
import type { SessionConfig } from '../config/config.js';
import { getAdapter } from '../../engines/index.js';
import { modelledStartupS } from './deps.js';
import type { Plan, PlannedVariant } from './types.js';
import type { Predicted } from '../../core/predicted.js';
import type { Scenario } from '../../core/scenario.js';
import { stageScenario } from './replica.js';
import { speedForEventRate } from '../launch/simspeed.js';

/** The host an estimate is for: the GPU, and on the simulated host its clock. */
export type EstimateHost = { gpu: string; gpus: number; speed?: number; autoSpeed?: boolean };

/** The estimate host of a configuration: the simulated one, else the plan's GPUs. */
export function estimateHostFor(config: Pick<SessionConfig, 'sim'>, plan: Pick<Plan, 'host'>): EstimateHost {
  const sim = config.sim;
  return sim
    ? { gpu: sim.gpu, gpus: sim.gpus, speed: sim.speed, autoSpeed: sim.autoSpeed === true }
    : { gpu: plan.host.gpuName, gpus: plan.host.gpuCount };
}

/** A typical cold start of each engine with the weights in the page cache, when the model has no estimate. */
// llama.cpp maps the GGUF and is ready in seconds: 0.2-1.6 s for the 57 MB random GGUF of the tests
// (llama-server 80fb11a, this 2-core host); a multi-GB file read cold takes longer.
const TYPICAL_STARTUP_S: Record<string, number> = { vllm: 120, sglang: 90, trtllm: 180, llamacpp: 10 };
/** Seconds for the sim-serve process to start (its modelled load is played instantly). */
const SIM_PROCESS_S = 2;
/** Mean ShareGPT prompt and output lengths (the studies' 1000 filtered prompts), when a scenario has none. */
const SHAREGPT_MEAN_IN = 217;
const SHAREGPT_MEAN_OUT = 201;

/** Seconds one scenario's workload takes at `tokPerS` (a minute when nothing was predicted). */
export function workloadSeconds(scenario: Scenario, p: Predicted | undefined, host: EstimateHost): number {
  const tokens = scenario.numPrompts * ((scenario.inputLen ?? SHAREGPT_MEAN_IN) + (scenario.outputLen ?? SHAREGPT_MEAN_OUT));
  const bench = p?.totalTokPerS ? tokens / p.totalTokPerS : 60;
  if (!host.speed) return bench;
  // The same clock the runner will pick for this launch (src/tune/launch/simspeed.ts).
  const speed = host.autoSpeed && p?.peakEventsPerS ? speedForEventRate(host.speed, p.peakEventsPerS) : host.speed;
  return bench / speed;
}

/** Seconds from launch to the first request: the process on the simulated host, else start-up and warm-up. */
export function launchSeconds(variant: PlannedVariant['variant'], host: EstimateHost, dummyWeights = false): number {
  if (host.speed) return SIM_PROCESS_S;
  return (modelledStartupS(variant, host, { dummyWeights }) ?? TYPICAL_STARTUP_S[variant.engine] ?? 120) + 10;
}

/**
 * Rough wall-clock seconds a variant takes here. A real engine: start-up (the simulator's
 * start-up model for this GPU, model and knobs; else a typical cold start), warm-up, and the
 * workload at the predicted throughput. The simulated host plays its start-up instantly, so
 * there it is the server process starting plus the workload at `speed` times the simulated pace.
 */
export function estimateSeconds(candidate: PlannedVariant, scenario: Scenario, host: EstimateHost): number | undefined {
  if (candidate.status !== 'planned') return undefined;
  return launchSeconds(candidate.variant, host, candidate.weights?.kind === 'dummy') + workloadSeconds(scenario, candidate.predicted, host);
}

/**
 * Seconds the validation takes after the stages: the baseline (vLLM's defaults, else the first
 * engine candidate) and the predicted winner each launched once and run on every validation
 * scenario the stages did not already measure. `predict` gives tok/s for a variant on a scenario.
 */
export function validationSeconds(
  plan: Plan,
  host: EstimateHost,
  predict: (v: PlannedVariant['variant'], s: Scenario) => Predicted | undefined,
): number {
  if (plan.validation.length === 0) return 0;
  const planned = plan.stages.flatMap((st) => st.variants).filter((candidate) => candidate.status === 'planned');
  const engine = plan.stages.find((st) => st.name === 'engine')?.variants.filter((candidate) => candidate.status === 'planned') ?? [];
  const baseline = engine.find((candidate) => getAdapter(candidate.variant.engine).baselineFirst) ?? engine[0];
  const winner = planned.find((candidate) => candidate.variant.id === plan.predictedWinnerId) ?? baseline;
  const sides = [baseline, winner].filter(
    (candidate, i, a): candidate is PlannedVariant =>
      candidate !== undefined && a.findIndex((x) => x?.variant.id === candidate.variant.id) === i,
  );
  // Under --dummy-weights (planned variants carry weights) validation measures the tuning scenario anew, on real weights.
  const dummy = planned.some((candidate) => candidate.weights);
  const measured = (s: Scenario) => !dummy && s.name === plan.scenario.name && s.numPrompts === plan.scenario.numPrompts;
  let total = 0;
  for (const side of sides) {
    const todo = plan.validation.filter((s) => !measured(s));
    if (todo.length === 0) continue;
    total += launchSeconds(side.variant, host);
    for (const s of todo) total += workloadSeconds(s, predict(side.variant, s), host);
  }
  return total;
}

export interface PlanTimes {
  /** Seconds per planned variant id (absent for pruned and dropped ones). */
  variantS: Record<string, number>;
  /** Seconds the validation adds after the stages. */
  validationS: number;
  /** Stages and validation together. */
  totalS: number;
}

/** The plan's time column, as the Plan screen and the dry run show it. */
export function planTimes(
  plan: Plan,
  host: EstimateHost,
  predict: (v: PlannedVariant['variant'], s: Scenario) => Predicted | undefined,
): PlanTimes {
  const variantS: Record<string, number> = {};
  for (const st of plan.stages) {
    for (const candidate of st.variants) {
      const s = estimateSeconds(candidate, stageScenario(plan.scenario, plan.replica, candidate.stage), host);
      if (s !== undefined) variantS[candidate.variant.id] = s;
    }
  }
  const validationS = validationSeconds(plan, host, predict);
  return { variantS, validationS, totalS: Object.values(variantS).reduce((a, b) => a + b, validationS) };
}
