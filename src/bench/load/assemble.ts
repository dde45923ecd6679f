// A run's BenchResult from its outputs, duration and client stats: the same for one client and
// for the merged shards, so the printed block and the result JSON do not depend on the threads.
import { calculateMetrics } from '../metrics/metrics.js';
import type { CheckedRun, RunOptions } from './run-options.js';
import type { BenchResult, ClientStats, RequestOutput } from '../types.js';

export interface RunFacts {
  /** Finished and failed requests, in request-index order (aborted ones left out). */
  outputs: RequestOutput[];
  /** Seconds from the start of the arrival loop to the end of the last request. */
  duration: number;
  client: ClientStats;
  aborted: boolean;
  startedAt: Date;
  /** performance.timeOrigin + benchStart, ms: the epoch instant of the run's time zero. */
  clockOriginMs: number;
  /** Extra notes (e.g. the sharded client's thread count), after the standard ones. */
  extraNotes?: string[];
}

type Described = Pick<RunOptions, 'requests' | 'label' | 'model' | 'tokenizerId' | 'goodput' | 'tokenCounts'>;

export function assembleResult(opts: Described, run: CheckedRun, f: RunFacts): BenchResult {
  const { percentileMetrics, metricPercentiles } = run;
  const metrics = calculateMetrics(f.outputs, f.duration, {
    percentileMetrics,
    metricPercentiles,
    ...(opts.goodput ? { goodput: opts.goodput } : {}),
  });
  const tokenCounts = opts.tokenCounts ?? 'approximate';
  const clientBound = f.client.reasons.length > 0;
  const notes: string[] = [];
  const ok = f.outputs.filter((o) => o.success);
  const serverCounted = ok.length > 0 && ok.every((o) => o.serverCounted);
  if (tokenCounts === 'approximate' && serverCounted) {
    notes.push(
      "token counts are the server's own (every request's usage report); without a tokenizer the prompts were sized one word = one token, so their lengths differ from the asked ones",
    );
  } else if (tokenCounts === 'approximate')
    notes.push('token counts are approximate (no tokenizer): one word = one token; totals use the server usage reports when given');
  if (clientBound) notes.push(`client-bound: ${f.client.reasons.join('; ')}; latencies include the client's own delay`);
  if (f.aborted) notes.push(`aborted: ${f.outputs.length} of ${opts.requests.length} requests finished`);
  notes.push(...(f.extraNotes ?? []));
  return {
    metrics,
    outputs: f.outputs,
    config: {
      backend: run.backend,
      endpointType: run.backend,
      ...(opts.label ? { label: opts.label } : {}),
      modelId: opts.model,
      ...(opts.tokenizerId ? { tokenizerId: opts.tokenizerId } : {}),
      numPrompts: opts.requests.length,
      requestRate: run.requestRate,
      burstiness: run.burstiness,
      maxConcurrency: run.maxConcurrency,
      percentileMetrics,
      metricPercentiles,
      ...(opts.goodput ? { goodput: opts.goodput } : {}),
    },
    clientBound,
    client: f.client,
    tokenCounts,
    aborted: f.aborted,
    notes,
    startedAt: f.startedAt.toISOString(),
    clockOriginMs: f.clockOriginMs,
  };
}

/** Outputs of a map by request index, in index order. */
export function inIndexOrder(outputs: ReadonlyMap<number, RequestOutput>): RequestOutput[] {
  return [...outputs.entries()].sort((a, b) => a[0] - b[0]).map(([, o]) => o);
}
