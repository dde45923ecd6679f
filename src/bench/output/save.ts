// --save-result: the JSON `vllm bench serve` writes, with its key order and file naming.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ALL_LATENCY_METRICS, percentileWord } from '../metrics/metrics.js';
import { pyFloatStr } from './pyformat.js';
import type { BenchResult } from '../types.js';
import { cacheMetrics } from '../metrics/cache.js';
import { turnMetrics } from '../multiturn/turn-metrics.js';

export interface SaveOptions {
  resultDir?: string;
  resultFilename?: string;
  /** Add per-request arrays (input_lens, output_lens, ttfts, itls, generated_texts, errors, start_times, latencies). */
  saveDetailed?: boolean;
  /** Append one line to an existing file instead of replacing it. */
  appendResult?: boolean;
  /** --metadata KEY=VALUE pairs, placed after num_prompts. */
  metadata?: Record<string, string>;
  /** Date used in the file name and the `date` key (default: now). */
  now?: Date;
}

const pad = (n: number) => String(n).padStart(2, '0');
/** Python datetime.now().strftime("%Y%m%d-%H%M%S"), local time. */
export function vllmDate(d: Date): string {
  return `${d.getFullYear()}${pad(d.getMonth() + 1)}${pad(d.getDate())}-${pad(d.getHours())}${pad(d.getMinutes())}${pad(d.getSeconds())}`;
}

/** `{label|backend}-{request_rate}qps[-concurrency{N}]-{model basename}-{date}.json` */
export function resultFileName(r: BenchResult, now: Date): string {
  const c = r.config;
  const base = c.modelId.split('/').pop() ?? c.modelId;
  const conc = c.maxConcurrency !== null ? `-concurrency${c.maxConcurrency}` : '';
  return `${c.label || c.backend}-${pyFloatStr(c.requestRate)}qps${conc}-${base}-${vllmDate(now)}.json`;
}

/** The aggregate keys in vLLM's order, then the latency keys per selected metric. */
export function orderedMetricKeys(metrics: Record<string, unknown>): string[] {
  const head = [
    'duration',
    'completed',
    'failed',
    'total_input_tokens',
    'total_output_tokens',
    'request_throughput',
    'request_goodput',
    'output_throughput',
    'total_token_throughput',
    'max_output_tokens_per_s',
    'max_concurrent_requests',
  ];
  const keys = head.filter((k) => k in metrics);
  const seen = new Set(keys);
  for (const m of ALL_LATENCY_METRICS) {
    const own = Object.keys(metrics).filter((k) => k.endsWith(`_${m}_ms`));
    for (const k of [`mean_${m}_ms`, `median_${m}_ms`, `std_${m}_ms`, ...own]) {
      if (k in metrics && !seen.has(k)) {
        keys.push(k);
        seen.add(k);
      }
    }
  }
  for (const k of Object.keys(metrics)) if (!seen.has(k)) keys.push(k);
  return keys;
}

export function resultJson(r: BenchResult, o: SaveOptions = {}): Record<string, unknown> {
  const c = r.config;
  const now = o.now ?? new Date(r.startedAt);
  const j: Record<string, unknown> = {
    date: vllmDate(now),
    endpoint_type: c.endpointType,
    backend: c.backend,
    label: c.label ?? null,
    model_id: c.modelId,
    tokenizer_id: c.tokenizerId ?? c.modelId,
    num_prompts: c.numPrompts,
    ...(o.metadata ?? {}),
    request_rate: Number.isFinite(c.requestRate) ? c.requestRate : 'inf',
    burstiness: c.burstiness,
    max_concurrency: c.maxConcurrency,
  };
  const m = r.metrics as unknown as Record<string, unknown>;
  for (const k of orderedMetricKeys(m)) j[k] = m[k];
  if (o.saveDetailed) {
    j.input_lens = r.outputs.map((x) => x.promptLen);
    j.output_lens = r.outputs.map((x) => x.outputLen);
    j.ttfts = r.outputs.map((x) => x.ttft);
    j.itls = r.outputs.map((x) => x.itl);
    j.generated_texts = r.outputs.map((x) => x.generatedText);
    j.errors = r.outputs.map((x) => x.error);
    j.start_times = r.outputs.map((x) => x.startTime);
    j.latencies = r.outputs.map((x) => x.latency);
  }
  // servelab additions, after vLLM's keys so vLLM tooling reads the file unchanged.
  const turns = turnMetrics(r);
  if (turns) Object.assign(j, turns);
  if (o.saveDetailed && turns) j.turn_of_request = r.outputs.map((x) => (x.turn ? [x.turn.conversation, x.turn.index] : null));
  const cache = cacheMetrics(r.outputs);
  if (cache) Object.assign(j, cache);
  if (o.saveDetailed && r.outputs.some((x) => x.cachedTokens !== undefined)) j.cached_tokens = r.outputs.map((x) => x.cachedTokens ?? null);
  j.client_bound = r.clientBound;
  j.client_stats = r.client;
  j.token_counts = r.tokenCounts;
  if (r.simulated) j.simulated = r.simulated;
  if (r.aborted) j.aborted = true;
  if (r.notes.length) j.notes = r.notes;
  return j;
}

/** Write the result file; returns its path. */
export function saveResultJson(r: BenchResult, o: SaveOptions = {}): string {
  const now = o.now ?? new Date();
  const name = o.resultFilename ?? resultFileName(r, now);
  const file = o.resultDir ? path.join(o.resultDir, name) : name;
  if (o.resultDir) mkdirSync(o.resultDir, { recursive: true });
  const line = JSON.stringify(resultJson(r, { ...o, now }));
  if (o.appendResult) appendFileSync(file, line + '\n');
  else writeFileSync(file, line);
  return file;
}
