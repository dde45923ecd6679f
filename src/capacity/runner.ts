// The capacity search against one server, engine-agnostic: all it needs is a base URL that speaks
// the OpenAI API (vLLM, SGLang, TensorRT-LLM, llama.cpp's llama-server, sim-serve). Each probe is
// one `vllm bench serve`-compatible run (src/bench) at one load, sized for the SLO's percentile
// (judge.ts); the search (search.ts) picks the loads. A servelab simulator is found by its
// /sim/info and its figures are converted to simulated GPU time, its arrivals sped up to match.
import type { BenchMetrics } from '../core/metrics.js';
import type { BenchResult, Workload } from '../bench/types.js';
import { fetchSimSpeed } from '../bench/http/models.js';
import { runBenchmark } from '../bench/load/run.js';
import type { RunOptions } from '../bench/load/run-options.js';
import { toSimulated } from '../bench/metrics/simulated.js';
import { UserError } from '../core/errors.js';
import { goodputFromSlo, sloPercentiles } from '../core/slo.js';
import type { SloRule } from '../core/slo-rule.js';
import { judgeProbe, probePrompts, type ProbeJudgement } from './judge.js';
import { searchAnswer, searchCapacity, type CapacityBy, type SearchSpec } from './search.js';

/** What every probe sends but its load and its requests (bench's run options). */
export type ProbeRun = Omit<
  RunOptions,
  | 'requests'
  | 'tokenCounts'
  | 'maxConcurrency'
  | 'requestRate'
  | 'goodput'
  | 'metricPercentiles'
  | 'percentileMetrics'
  | 'signal'
  | 'onEvent'
>;

export interface CapacityTarget {
  run: ProbeRun;
  /** The workload's first `n` requests (same seed each time: a bigger probe adds prompts, it does not redraw them). */
  workload(n: number): Promise<Workload>;
  /** Cap on requests in flight when searching by rate (bench's --max-concurrency); none by default. */
  maxConcurrency?: number | null;
  /** Against a simulator, keep wall-clock figures (bench's --wall-clock). */
  wallClock?: boolean;
}

export interface CapacitySpec extends SearchSpec {
  slo: SloRule[];
  /** Requests per probe at the least (--num-prompts): raises the rule's count, never lowers it. */
  minPrompts?: number;
}

/** What one probe needs of the search: the load kind, the SLO, the floor on its size. */
export type ProbeSpec = Pick<CapacitySpec, 'by' | 'slo' | 'minPrompts'>;

export interface CapacityProbe extends ProbeJudgement {
  value: number;
  numPrompts: number;
  metrics: BenchMetrics;
}

export interface CapacityResult {
  by: CapacityBy;
  answer: number | null;
  failing: number | null;
  /** The rule that breaks first at `failing` ("ttft:p99", or "errors"); null when nothing failed. */
  breaks: string | null;
  /** Requests/s meeting the SLO at the answer (vLLM's request_goodput); null without an answer. */
  goodput: number | null;
  /** In the order they ran. */
  probes: CapacityProbe[];
  /** Requests sent over all probes. */
  requests: number;
  /** The simulator's clock when the server is one (figures are in simulated time). */
  simSpeed?: number;
}

export interface CapacityHooks {
  signal?: AbortSignal;
  /** Before each probe runs. */
  onStart?: (value: number, numPrompts: number) => void;
  onProbe?: (p: CapacityProbe) => void;
}

/** Thrown when the signal stops a probe: the search has no answer to give. */
export class CapacityAborted extends UserError {
  constructor() {
    super('capacity search interrupted', 130);
  }
}

const ALL = ['ttft', 'tpot', 'itl', 'e2el'] as const;

async function measure(
  target: CapacityTarget,
  spec: ProbeSpec,
  value: number,
  n: number,
  speed: number | undefined,
  signal?: AbortSignal,
): Promise<BenchResult> {
  const w = await target.workload(n);
  const goodput = goodputFromSlo(spec.slo);
  const res = await runBenchmark({
    ...target.run,
    requests: w.requests,
    tokenCounts: w.tokenCounts,
    maxConcurrency: spec.by === 'concurrency' ? value : (target.maxConcurrency ?? null),
    // Rates are the server's own req/s: a simulator running `speed` times faster gets them sooner.
    requestRate: spec.by === 'rate' ? value * (speed ?? 1) : Infinity,
    percentileMetrics: [...ALL],
    metricPercentiles: [...new Set([50, 90, 99, ...sloPercentiles(spec.slo)])].sort((a, b) => a - b),
    ...(goodput ? { goodput } : {}),
    ...(signal ? { signal } : {}),
  });
  if (res.aborted) throw new CapacityAborted();
  return speed !== undefined ? toSimulated(res, speed) : res;
}

/** One probe at `value`, sized by the rule and judged against the SLO. */
async function probeAt(
  target: CapacityTarget,
  spec: ProbeSpec,
  value: number,
  speed: number | undefined,
  hooks: CapacityHooks,
): Promise<CapacityProbe> {
  const n = probePrompts(spec.slo, spec.by, value, spec.minPrompts);
  hooks.onStart?.(value, n);
  const { metrics } = await measure(target, spec, value, n, speed, hooks.signal);
  const p = { value, numPrompts: n, metrics, ...judgeProbe(metrics, spec.slo) };
  hooks.onProbe?.(p);
  return p;
}

const simSpeedOf = (target: CapacityTarget) => (target.wallClock ? Promise.resolve(undefined) : fetchSimSpeed(target.run.baseUrl));

/** Search the highest load at which every rule of `spec.slo` holds on `target`. */
export async function runCapacity(target: CapacityTarget, spec: CapacitySpec, hooks: CapacityHooks = {}): Promise<CapacityResult> {
  const speed = await simSpeedOf(target);
  const probes = await searchCapacity(spec, (value) => probeAt(target, spec, value, speed, hooks));
  const { answer, failing } = searchAnswer(probes);
  const at = (v: number | null) => probes.find((p) => p.value === v);
  return {
    by: spec.by,
    answer,
    failing,
    breaks: at(failing)?.breaks ?? null,
    goodput: at(answer)?.metrics.request_goodput ?? null,
    probes,
    requests: probes.reduce((s, p) => s + p.numPrompts, 0),
    ...(speed !== undefined ? { simSpeed: speed } : {}),
  };
}

/** Benchmark one load once more, judged the same way (replay's check, the test's both ends). */
export async function probeOnce(target: CapacityTarget, spec: ProbeSpec, value: number, hooks: CapacityHooks = {}): Promise<CapacityProbe> {
  return probeAt(target, spec, value, await simSpeedOf(target), hooks);
}
