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
import { cacheBefore, nextDraw } from './fresh-prompts.js';
import { UserError } from '../core/errors.js';
import { goodputFromSlo, sloPercentiles } from '../core/slo.js';
import type { SloRule } from '../core/slo-rule.js';
import type { NoiseEstimate } from '../core/noise-rule.js';
import { judgeProbe, probePrompts, type ProbeJudgement } from './judge.js';
import { EarlyStop } from './early-stop.js';
import { pilotSize, pilotStart } from './pilot.js';
import { loadVerdict, marginPct, reprobeNoise } from './reprobe.js';
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
  /** `n` requests drawn at the workload's seed + `draw`, one draw per probe (fresh-prompts.ts). */
  workload(n: number, draw: number): Promise<Workload>;
  /** Cap on requests in flight when searching by rate (bench's --max-concurrency); none by default. */
  maxConcurrency?: number | null;
  /** Against a simulator, keep wall-clock figures (bench's --wall-clock). */
  wallClock?: boolean;
  /**
   * Runs a probe of about `n` requests in place of the bench's run of `workload(n)`: a workload
   * with its own driver (multi-turn conversations, whose users are the probe's concurrency).
   */
  probe?: (o: RunOptions, n: number) => Promise<BenchResult>;
}

export interface CapacitySpec extends SearchSpec {
  slo: SloRule[];
  /** Requests per probe at the least (--num-prompts): raises the rule's count, never lowers it. */
  minPrompts?: number;
  /** Place the bracket's start with short pilot probes (pilot.ts) before the full-size search. */
  pilot?: boolean;
}

/** What one probe needs of the search: the load kind, the SLO, the floor on its size. */
export type ProbeSpec = Pick<CapacitySpec, 'by' | 'slo' | 'minPrompts'>;

export interface CapacityProbe extends ProbeJudgement {
  value: number;
  numPrompts: number;
  metrics: BenchMetrics;
  /** Why the probe stopped before its last request (early-stop.ts): its verdict could no longer change. */
  early?: string;
  /** A short probe that only places the bracket's start (pilot.ts); it judges no load. */
  pilot?: boolean;
  /** 2 or 3: this probe re-ran a load (reprobe.ts). */
  attempt?: number;
  /** Share of prompt tokens the server served from a cache this probe had not filled (0..1), where it reports its cache. */
  cacheHitBeforeRun?: number;
}

/** One load's verdict, from its probes by the noise rule (reprobe.ts). */
export interface LoadJudgement {
  value: number;
  holds: boolean;
  probes: CapacityProbe[];
}

/** A probe's requests so far, for the live views. */
export interface ProbeProgress {
  value: number;
  done: number;
  planned: number;
  /** Requests at or over each rule's limit, against the count that fails it: "ttft:p99 3/11". */
  tally: string;
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
  /** Run-to-run noise measured from the re-probes (reprobe.ts); absent when no load ran twice in full. */
  noise?: NoiseEstimate;
  /** % under the tightest limit at the answer (the median of its probes); null without an answer. */
  marginPct: number | null;
  /** Probes that re-ran a load already probed. */
  reprobes: number;
}

export interface CapacityHooks {
  signal?: AbortSignal;
  /** Before each probe runs. */
  onStart?: (value: number, numPrompts: number) => void;
  onProbe?: (p: CapacityProbe) => void;
  /** While a probe runs, about once a second. */
  onProgress?: (p: ProbeProgress) => void;
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
  hooks: CapacityHooks,
  early: EarlyStop,
): Promise<{ result: BenchResult; settled: 'holds' | 'fails' | null }> {
  const w = target.probe ? undefined : await target.workload(n, nextDraw(target));
  const goodput = goodputFromSlo(spec.slo);
  const user = hooks.signal;
  const stop = new AbortController();
  const onUser = () => stop.abort();
  user?.addEventListener('abort', onUser, { once: true });
  if (user?.aborted) stop.abort();
  let settled: 'holds' | 'fails' | null = null;
  const progress = () => hooks.onProgress?.({ value, done: early.done, planned: n, tally: early.tally() });
  const run = target.probe ? (o: RunOptions) => target.probe!(o, n) : runBenchmark;
  const res = await run({
    ...target.run,
    requests: w?.requests ?? [],
    ...(w ? { tokenCounts: w.tokenCounts } : {}),
    maxConcurrency: spec.by === 'concurrency' ? value : (target.maxConcurrency ?? null),
    // Rates are the server's own req/s: a simulator running `speed` times faster gets them sooner.
    requestRate: spec.by === 'rate' ? value * (speed ?? 1) : Infinity,
    percentileMetrics: [...ALL],
    metricPercentiles: [...new Set([50, 90, 99, ...sloPercentiles(spec.slo)])].sort((a, b) => a - b),
    ...(goodput ? { goodput } : {}),
    signal: stop.signal,
    onEvent: (e) => {
      if (e.type === 'snapshot') progress();
      if ((e.type !== 'request-finished' && e.type !== 'request-failed') || settled) return;
      const out = e.type === 'request-finished' ? e.output : failedOutput(e.error);
      settled = early.add(out);
      if (settled) stop.abort();
    },
  }).finally(() => user?.removeEventListener('abort', onUser));
  if (user?.aborted) throw new CapacityAborted();
  if (res.aborted && !settled) throw new CapacityAborted();
  return { result: speed !== undefined ? toSimulated(res, speed) : res, settled };
}

function failedOutput(error: string): import('../bench/types.js').RequestOutput {
  return { success: false, promptLen: 0, outputLen: 0, ttft: 0, itl: [], latency: 0, startTime: 0, generatedText: '', error };
}

/**
 * One probe at `value`, sized by the rule (or `size`, a pilot's), stopped once its verdict is
 * settled (early-stop.ts) and judged against the SLO.
 */
async function probeAt(
  target: CapacityTarget,
  spec: ProbeSpec,
  value: number,
  speed: number | undefined,
  hooks: CapacityHooks,
  o: { size?: number; pilot?: boolean; attempt?: number } = {},
): Promise<CapacityProbe> {
  const n = o.size ?? probePrompts(spec.slo, spec.by, value, spec.minPrompts);
  hooks.onStart?.(value, n);
  const early = new EarlyStop(n, spec.slo, speed);
  const { result, settled } = await measure(target, spec, value, n, speed, hooks, early);
  const { metrics } = result;
  const judged = settled
    ? {
        holds: settled === 'holds',
        violations: settled === 'fails' ? [`stopped after ${early.done} of ${n}: ${early.reason}`] : [],
        breaks:
          settled === 'fails'
            ? early.reason!.startsWith('a request failed')
              ? 'errors'
              : early.reason!.split(':').slice(0, 2).join(':')
            : null,
      }
    : judgeProbe(metrics, spec.slo);
  const p: CapacityProbe = {
    value,
    numPrompts: settled ? early.done : n,
    metrics,
    ...judged,
    ...(settled ? { early: early.reason! } : {}),
    ...(o.pilot ? { pilot: true } : {}),
    ...(o.attempt && o.attempt > 1 ? { attempt: o.attempt } : {}),
    ...cacheBefore(result),
  };
  hooks.onProbe?.(p);
  return p;
}

/** Probe one load until the noise rule settles it (reprobe.ts). */
async function judgeLoad(
  target: CapacityTarget,
  spec: ProbeSpec,
  value: number,
  speed: number | undefined,
  hooks: CapacityHooks,
  noise: () => NoiseEstimate | undefined,
): Promise<LoadJudgement> {
  const probes: CapacityProbe[] = [];
  for (;;) {
    probes.push(await probeAt(target, spec, value, speed, hooks, { attempt: probes.length + 1 }));
    const v = loadVerdict(probes, spec.slo, noise());
    if (v) return { value, holds: v === 'holds', probes };
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

const simSpeedOf = (target: CapacityTarget) => (target.wallClock ? Promise.resolve(undefined) : fetchSimSpeed(target.run.baseUrl));

/** Search the highest load at which every rule of `spec.slo` holds on `target`. */
export async function runCapacity(target: CapacityTarget, spec: CapacitySpec, hooks: CapacityHooks = {}): Promise<CapacityResult> {
  const speed = await simSpeedOf(target);
  const pilots: CapacityProbe[] = [];
  const start = !spec.pilot
    ? spec.start
    : await pilotStart(
        spec,
        async (value) => {
          const p = await probeAt(target, spec, value, speed, hooks, { size: pilotSize(spec, value), pilot: true });
          pilots.push(p);
          return p;
        },
        probePrompts(spec.slo, spec.by, spec.start, spec.minPrompts),
      );
  const loads: LoadJudgement[] = [];
  const noise = () =>
    reprobeNoise(
      loads.map((l) => l.probes),
      spec.slo,
    );
  await searchCapacity({ ...spec, start }, async (value) => {
    const l = await judgeLoad(target, spec, value, speed, hooks, noise);
    loads.push(l);
    return l;
  });
  const { answer, failing } = searchAnswer(loads);
  const at = (v: number | null) => loads.find((l) => l.value === v)?.probes.find((p) => p.holds === (v === answer));
  const answered = loads.find((l) => l.value === answer)?.probes.filter((p) => p.holds) ?? [];
  const margins = answered.map((p) => marginPct(p.metrics, spec.slo)).filter((m): m is number => m !== null);
  const probes = [...pilots, ...loads.flatMap((l) => l.probes)];
  const measured = noise();
  return {
    by: spec.by,
    answer,
    failing,
    breaks: at(failing)?.breaks ?? null,
    goodput: at(answer)?.metrics.request_goodput ?? null,
    probes,
    requests: probes.reduce((s, p) => s + p.numPrompts, 0),
    ...(speed !== undefined ? { simSpeed: speed } : {}),
    ...(measured ? { noise: measured } : {}),
    marginPct: margins.length ? Number(median(margins).toFixed(1)) : null,
    reprobes: loads.reduce((s, l) => s + l.probes.length - 1, 0),
  };
}

/** Benchmark one load once more, judged the same way (the capacity perf script's both ends). */
export async function probeOnce(target: CapacityTarget, spec: ProbeSpec, value: number, hooks: CapacityHooks = {}): Promise<CapacityProbe> {
  return probeAt(target, spec, value, await simSpeedOf(target), hooks);
}

/** One load judged as each of the search's (re-probed until two agree, reprobe.ts) against `noise`: replay's check. */
export async function judgeOnce(target: CapacityTarget, spec: ProbeSpec, value: number, hooks: CapacityHooks, noise?: NoiseEstimate) {
  return judgeLoad(target, spec, value, await simSpeedOf(target), hooks, () => noise);
}
