// The block `vllm bench serve` prints, byte for byte in layout: '{:<40} {:<10}' rows (so lines
// keep vLLM's trailing spaces), '{:<40} {:<10.2f}' floats, centred section headers.
import { ALL_LATENCY_METRICS, percentileWord } from '../metrics/metrics.js';
import { pyCenter, pyFixed2 } from './pyformat.js';
import type { BenchResult } from '../types.js';
import { cacheMetrics, type CacheMetrics } from '../metrics/cache.js';
import { cacheRows } from './cache-rows.js';
import { turnMetrics, type TurnMetrics } from '../multiturn/turn-metrics.js';
import { turnRows } from './turn-rows.js';
import type { BenchMetrics, LatencyMetric } from '../../core/metrics.js';

export interface BlockOptions {
  /** Row "Maximum request concurrency" when set. */
  maxConcurrency?: number | null;
  /** Row "Request rate configured (RPS)" when finite. */
  requestRate?: number;
  /** Row "Request goodput (req/s)" when goodput SLOs were given. */
  goodput?: boolean;
  percentileMetrics?: readonly LatencyMetric[];
  metricPercentiles?: readonly number[];
  /** "Failed requests" row: 'auto' (default) prints it when any failed. */
  failedRow?: 'auto' | 'always' | 'never';
  /** servelab rows, printed only when true/set. */
  clientBound?: string | false;
  simulatedSpeed?: number;
  /** The prefix-cache section, when the workload had reuse or the server reported its cache. */
  cache?: CacheMetrics;
  /** The multi-turn section (TTFT by turn), for a multi-turn run. */
  multiTurn?: TurnMetrics;
}

const HEADERS: Record<LatencyMetric, [string, string]> = {
  ttft: ['TTFT', 'Time to First Token'],
  tpot: ['TPOT', 'Time per Output Token (excl. 1st token)'],
  itl: ['ITL', 'Inter-token Latency'],
  e2el: ['E2EL', 'End-to-end Latency'],
};

export const LABEL_WIDTH = 40;

export function intRow(label: string, v: number): string {
  return `${label.padEnd(LABEL_WIDTH)} ${String(v).padEnd(10)}`;
}
export function floatRow(label: string, v: number): string {
  return `${label.padEnd(LABEL_WIDTH)} ${pyFixed2(v).padEnd(10)}`;
}
function textRow(label: string, v: string): string {
  return `${label.padEnd(LABEL_WIDTH)} ${v.padEnd(10)}`;
}

export function formatResultBlock(m: BenchMetrics, o: BlockOptions = {}): string {
  const lines: string[] = [pyCenter(' Serving Benchmark Result ', 50, '=')];
  lines.push(intRow('Successful requests:', m.completed));
  const failedRow = o.failedRow ?? 'auto';
  if (failedRow === 'always' || (failedRow === 'auto' && (m.failed ?? 0) > 0)) lines.push(intRow('Failed requests:', m.failed ?? 0));
  if (o.maxConcurrency !== undefined && o.maxConcurrency !== null) lines.push(intRow('Maximum request concurrency:', o.maxConcurrency));
  if (o.requestRate !== undefined && Number.isFinite(o.requestRate)) lines.push(floatRow('Request rate configured (RPS):', o.requestRate));
  lines.push(floatRow('Benchmark duration (s):', m.duration));
  lines.push(intRow('Total input tokens:', m.total_input_tokens));
  lines.push(intRow('Total generated tokens:', m.total_output_tokens));
  lines.push(floatRow('Request throughput (req/s):', m.request_throughput));
  if (o.goodput) lines.push(floatRow('Request goodput (req/s):', m.request_goodput ?? 0));
  lines.push(floatRow('Output token throughput (tok/s):', m.output_throughput));
  lines.push(floatRow('Peak output token throughput (tok/s):', m.max_output_tokens_per_s));
  lines.push(floatRow('Peak concurrent requests:', m.max_concurrent_requests));
  lines.push(floatRow('Total Token throughput (tok/s):', m.total_token_throughput));
  if (o.simulatedSpeed !== undefined) lines.push(floatRow('Simulated clock speed (x real time):', o.simulatedSpeed));
  if (o.clientBound) lines.push(textRow('Client-bound (latencies inflated):', `yes: ${o.clientBound}`));
  const selected = o.percentileMetrics ?? ['ttft', 'tpot', 'itl'];
  const ps = o.metricPercentiles ?? [99];
  const rec = m as unknown as Record<string, number>;
  for (const name of ALL_LATENCY_METRICS) {
    if (!selected.includes(name)) continue;
    const [short, header] = HEADERS[name];
    lines.push(pyCenter(header, 50, '-'));
    lines.push(floatRow(`Mean ${short} (ms):`, rec[`mean_${name}_ms`] ?? 0));
    lines.push(floatRow(`Median ${short} (ms):`, rec[`median_${name}_ms`] ?? 0));
    for (const p of ps) lines.push(floatRow(`P${percentileWord(p)} ${short} (ms):`, rec[`p${percentileWord(p)}_${name}_ms`] ?? 0));
  }
  if (o.multiTurn) lines.push(...turnRows(o.multiTurn, floatRow, textRow));
  if (o.cache) lines.push(...cacheRows(o.cache, floatRow, textRow));
  lines.push('='.repeat(50));
  return lines.join('\n') + '\n';
}

/** The block for a finished run, with its optional rows. */
export function formatResult(r: BenchResult): string {
  const cache = cacheMetrics(r.outputs);
  const multiTurn = turnMetrics(r);
  return formatResultBlock(r.metrics, {
    ...(cache ? { cache } : {}),
    ...(multiTurn ? { multiTurn } : {}),
    maxConcurrency: r.config.maxConcurrency,
    requestRate: r.config.requestRate,
    goodput: r.config.goodput !== undefined,
    percentileMetrics: r.config.percentileMetrics,
    metricPercentiles: r.config.metricPercentiles,
    clientBound: r.clientBound ? r.client.reasons.join('; ') : false,
    ...(r.simulated ? { simulatedSpeed: r.simulated.speed } : {}),
  });
}
