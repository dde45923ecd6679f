// Tune a replica, then the host, in the plan: when the model fits on fewer GPUs than
// the host has, every tuning stage measures ONE replica at the smallest TP it fits at (so several
// variants run at once on disjoint GPUs), the parallelism stage, moved after the other tuning
// stages, compares whole-host layouts of the tuned replica (replicas x TP, through the engine's
// data parallelism: vLLM --data-parallel-size, SGLang --dp-size; engines/{vllm,sglang}/knobs.ts name the sources),
// and validation runs the chosen whole-host layout against the baseline on the whole host (the
// engine on defaults at the TP the host needs, what a user runs without servelab).
// Why parallelism moves last: a replica's serving knobs (batching, attention, compile,
// speculative) are tuned on one replica's GPUs; comparing a whole-host layout with a one-replica
// winner in a later stage would compare different GPU counts.
import type { ReplicaInfo } from './types.js';
import type { Knobs, Variant } from '../../core/variant.js';
import type { ModelInfo } from '../../model/models.js';
import type { ExpandContext } from './types.js';
import type { Candidate } from '../../engines/kit/plan-types.js';
import { engineStageTp } from './tp.js';
import { headsDivideTp } from '../../model/layout.js';
import type { SessionConfig, StageName } from '../config/config.js';
import { makeVariant } from './variant-ids.js';
import type { Scenario } from '../../core/scenario.js';
import { WINDOW_FRACTION } from '../decide/early-stop-rate.js';

function headsAllow(info: ModelInfo | undefined, tp: number): boolean {
  return !info || !headsDivideTp(info, tp);
}

/** The smallest TP every engine fits the checkpoint at, when it is below the host's; else null. */
export function replicaFor(ctx: ExpandContext, checkpoint: string): ReplicaInfo | null {
  const { config, host, deps } = ctx;
  if (config.replica !== 'auto') return null;
  // A host spanning nodes (Slurm, --sim nodes) keeps main's cross-node layouts (cross-node.ts).
  if (host.gpusPerNode && host.gpusPerNode < host.gpuCount) return null;
  // A load sweep (--sweep) compares its finalists per GPU and may make one the profile: they must
  // all be whole-host variants, so the replica plan is off with it (buildPlan says so).
  if (config.sweep) return null;
  const info = deps.model(checkpoint) ?? deps.model(config.model);
  const full = engineStageTp(info, host.gpuCount);
  for (let tp = 1; tp < full; tp *= 2) {
    if (host.gpuCount % tp !== 0 || !headsAllow(info, tp)) continue;
    const fitsAll = config.engines.every(
      (engine) => deps.fits({ id: 'probe', engine, model: checkpoint, knobs: tp > 1 ? { tp } : {} }) !== false,
    );
    if (fitsAll) {
      return {
        tp,
        hostGpus: host.gpuCount,
        why: `${checkpoint} fits one replica on ${tp} GPU(s): the tuning stages measure one replica (TP${tp}); the parallelism stage, run after them, compares whole-host layouts of ${host.gpuCount} GPUs; validation runs the chosen layout`,
      };
    }
  }
  return null;
}

/** Stage order with a replica: parallelism after the other tuning stages (added when not asked for). */
export function replicaStageOrder(stages: readonly StageName[]): StageName[] {
  return [...stages.filter((s) => s !== 'parallelism'), 'parallelism'];
}

/** Whole-host layouts of the tuned replica: R replicas x TP t for t from the replica's TP up to the host. */
export function hostLayoutCandidates(carried: Variant, replica: ReplicaInfo): Candidate[] {
  const out: Candidate[] = [];
  for (let t = replica.tp; t <= replica.hostGpus; t *= 2) {
    if (replica.hostGpus % t !== 0) continue;
    const dp = replica.hostGpus / t;
    const knobs: Knobs = { tp: t > 1 ? t : undefined, dp: dp > 1 ? dp : undefined, ep: undefined, dpAttention: undefined };
    out.push({ knobs, change: dp > 1 ? `${dp} replicas x TP${t} (whole host)` : `TP${t} (whole host)`, needs: dp > 1 ? ['dp'] : [] });
  }
  // Keep the carried replica's other knobs; only the layout changes.
  void carried;
  return out;
}

/** The baseline as validation runs it with a replica plan: the same engine and knobs at the host's TP. */
export function wholeHostVariant(config: Pick<SessionConfig, 'model'>, v: Variant, hostGpus: number, info: ModelInfo | undefined): Variant {
  const tp = engineStageTp(info, hostGpus);
  return makeVariant(v.engine, v.model, { ...v.knobs, tp: tp > 1 ? tp : undefined, dp: undefined }, config, undefined, v.engineVersion);
}

/** Which GPUs a stage's variants use, for the plan. */
export function stageGpusText(stage: StageName, replica: ReplicaInfo | null | undefined, hostGpus: number): string {
  if (!replica || stage === 'parallelism') return `GPUs 0-${hostGpus - 1} (whole host) per variant`;
  const slots = Math.floor(hostGpus / replica.tp);
  return `one replica per variant on ${replica.tp} GPU(s): up to ${slots} variants at once on GPUs ${Array.from({ length: slots }, (_, i) => (replica.tp === 1 ? `${i}` : `${i * replica.tp}-${(i + 1) * replica.tp - 1}`)).join(', ')}`;
}

/**
 * The workload a stage measures: with a replica plan, a tuning stage's replica gets its share of
 * the host's load (1/replicas of the prompts and of any concurrency cap), so it runs about as
 * long as the whole host would on the full workload and the replica's figures are its share.
 * The parallelism stage and validation measure the whole workload on the whole host.
 */
export function stageScenario(scenario: Scenario, replica: ReplicaInfo | null | undefined, stage: string): Scenario {
  if (!replica || stage === 'parallelism' || stage.startsWith('validation')) return scenario;
  const replicas = Math.max(1, Math.floor(replica.hostGpus / replica.tp));
  if (replicas === 1) return scenario;
  return {
    ...scenario,
    numPrompts: Math.max(1, Math.ceil(scenario.numPrompts / replicas)),
    maxConcurrency: scenario.maxConcurrency === null ? null : Math.max(1, Math.ceil(scenario.maxConcurrency / replicas)),
    label: `${scenario.label}, one replica's share (1/${replicas})`,
  };
}

/**
 * Below this many requests per run, the early-stop rule's rate window (WINDOW_FRACTION of the
 * requests) holds fewer than 10 requests, and a run that short is mostly ramp-up and drain: its
 * throughput and p99 are noisy. Our own threshold, derived from that window, not an engine's.
 */
export const MIN_STEADY_PROMPTS = Math.ceil(10 / WINDOW_FRACTION);

/** The plan's note on a replica's share of the prompts; says what to do when the share is small. */
export function replicaShareNote(scenario: Scenario, replica: ReplicaInfo | null | undefined): string | undefined {
  if (!replica) return undefined;
  const replicas = Math.max(1, Math.floor(replica.hostGpus / replica.tp));
  if (replicas === 1) return undefined;
  const share = stageScenario(scenario, replica, 'engine').numPrompts;
  const base = `each tuning run sends one replica its share: ${share} of the scenario's ${scenario.numPrompts} prompts (1/${replicas})`;
  if (share >= MIN_STEADY_PROMPTS) return `${base}.`;
  return `${base}; under ${MIN_STEADY_PROMPTS} requests a run is mostly ramp-up and drain and reads noisy: raise --num-prompts to ${MIN_STEADY_PROMPTS * replicas} or more (or --scale), or pass --replica off.`;
}
