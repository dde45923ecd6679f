// Reads what `vllm bench serve` wrote: its printed result blocks (any number, optional rows,
// labels matched case-insensitively) or its --save-result JSON (one object per line).
import { readFileSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import type { BlockOptions } from './format.js';
import { orderedMetricKeys } from './save.js';
import type { BenchMetrics, LatencyMetric } from '../../core/metrics.js';

export interface ParsedBlock {
  /** Metric values with vLLM's result key names. */
  metrics: Record<string, number | null>;
  /** Enough to print the same block again. */
  block: BlockOptions;
  /** 1-based line of the block header. */
  line: number;
}

const ROWS: Record<string, string> = {
  'successful requests': 'completed',
  'failed requests': 'failed',
  'maximum request concurrency': 'max_concurrency',
  'request rate configured (rps)': 'request_rate',
  'benchmark duration (s)': 'duration',
  'total input tokens': 'total_input_tokens',
  'total generated tokens': 'total_output_tokens',
  'request throughput (req/s)': 'request_throughput',
  'request goodput (req/s)': 'request_goodput',
  'output token throughput (tok/s)': 'output_throughput',
  'peak output token throughput (tok/s)': 'max_output_tokens_per_s',
  'peak concurrent requests': 'max_concurrent_requests',
  'total token throughput (tok/s)': 'total_token_throughput',
  'simulated clock speed (x real time)': 'simulated_speed',
};
const SHORT: Record<string, LatencyMetric> = { ttft: 'ttft', tpot: 'tpot', itl: 'itl', e2el: 'e2el' };
const HEADER = /^=+ ?serving benchmark result ?=+$/i;
const FOOTER = /^={50}$/;
const SECTION = /^-+.*-+$/;
const ROW = /^(.+?):\s+(\S.*?)\s*$/;

function num(v: string): number | null {
  if (v === 'inf') return Infinity;
  if (v === 'None' || v === 'null') return null;
  const x = Number(v);
  return Number.isFinite(x) ? x : NaN;
}

/** All result blocks in `text`. `source` names the file in errors. */
export function parseResultText(text: string, source = '<text>'): ParsedBlock[] {
  const lines = text.split(/\r?\n/);
  const blocks: ParsedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!HEADER.test(lines[i]!.trim())) continue;
    const start = i;
    const metrics: Record<string, number | null> = {};
    const block: BlockOptions = { percentileMetrics: [], metricPercentiles: [], failedRow: 'never', clientBound: false };
    const pcts = new Set<number>();
    let closed = false;
    for (i = i + 1; i < lines.length; i++) {
      const line = lines[i]!.trim();
      const where = `${source}:${i + 1}`;
      if (FOOTER.test(line)) {
        closed = true;
        break;
      }
      if (line === '' || SECTION.test(line)) continue;
      if (/^client-bound\b/i.test(line)) {
        block.clientBound = line
          .slice(line.indexOf(':') + 1)
          .trim()
          .replace(/^yes:\s*/, '');
        continue;
      }
      const m = ROW.exec(line);
      if (!m) throw new UserError(`${where}: not a 'label: value' row inside a result block: ${JSON.stringify(line.slice(0, 80))}`);
      const label = m[1]!.trim().toLowerCase();
      const rawValue = m[2]!;
      const value = num(rawValue);
      const key = ROWS[label];
      const lat = /^(mean|median|p([\d.]+)) (ttft|tpot|itl|e2el) \(ms\)$/.exec(label);
      if (value !== null && Number.isNaN(value)) {
        // Rows we do not know (newer vLLM: per-position acceptance lists...) may hold text.
        if (!key && !lat) continue;
        throw new UserError(`${where}: '${m[1]}' has a value that is not a number: ${rawValue}`);
      }
      if (key) {
        if (key === 'max_concurrency') block.maxConcurrency = value;
        else if (key === 'request_rate') block.requestRate = value ?? undefined;
        else if (key === 'simulated_speed') block.simulatedSpeed = value ?? undefined;
        else {
          if (key === 'failed') block.failedRow = 'always';
          if (key === 'request_goodput') block.goodput = true;
          metrics[key] = value;
        }
        continue;
      }
      if (lat) {
        const name = SHORT[lat[3]!]!;
        if (!block.percentileMetrics!.includes(name)) (block.percentileMetrics as LatencyMetric[]).push(name);
        if (lat[2] !== undefined) {
          const p = Number(lat[2]);
          pcts.add(p);
          metrics[`p${lat[2]}_${name}_ms`] = value;
        } else metrics[`${lat[1]}_${name}_ms`] = value;
        continue;
      }
      // Rows from newer vLLM (RTFx, spec decode, client queue...) are kept under a derived key.
      metrics[
        label
          .replace(/\(([^)]*)\)/g, '$1')
          .replace(/[^a-z0-9]+/g, '_')
          .replace(/^_|_$/g, '')
      ] = value;
    }
    if (!closed) throw new UserError(`${source}:${start + 1}: result block is not closed by a line of 50 '='`);
    if (metrics.completed === undefined) throw new UserError(`${source}:${start + 1}: result block has no 'Successful requests' row`);
    block.metricPercentiles = [...pcts];
    blocks.push({ metrics, block, line: start + 1 });
  }
  return blocks;
}

/** Objects of a --save-result file (one JSON per line; --append-result adds lines). */
export function parseResultJson(text: string, source = '<json>'): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const lines = text.split(/\r?\n/);
  // A pretty-printed single object spans lines; try the whole text first.
  try {
    const whole = JSON.parse(text) as unknown;
    if (whole && typeof whole === 'object' && !Array.isArray(whole)) return [whole as Record<string, unknown>];
    if (Array.isArray(whole)) return whole as Record<string, unknown>[];
  } catch {
    /* one object per line */
  }
  lines.forEach((line, i) => {
    if (line.trim() === '') return;
    try {
      const v = JSON.parse(line) as unknown;
      if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not a JSON object');
      out.push(v as Record<string, unknown>);
    } catch (e) {
      throw new UserError(`${source}:${i + 1}: not a vLLM result JSON line: ${(e as Error).message}`);
    }
  });
  return out;
}

const DETAILED = new Set([
  'input_lens',
  'output_lens',
  'ttfts',
  'itls',
  'generated_texts',
  'errors',
  'start_times',
  'latencies',
  'queue_times',
]);

/** The metrics of one parsed block with vLLM's result key names (optional settings included). */
export function blockToResultJson(b: ParsedBlock): Record<string, unknown> {
  const out: Record<string, unknown> = {
    request_rate: b.block.requestRate === undefined || b.block.requestRate === Infinity ? 'inf' : b.block.requestRate,
    max_concurrency: b.block.maxConcurrency ?? null,
  };
  const m: Record<string, unknown> = { ...b.metrics };
  if (!b.block.goodput) m.request_goodput = null;
  for (const k of orderedMetricKeys(m)) out[k] = m[k];
  return out;
}

export interface ImportedResult {
  /** Metrics and settings with vLLM's result key names. */
  result: Record<string, unknown>;
  /** How to print it again as vLLM's block. */
  block: BlockOptions;
}

/** Read a file of either kind; one entry per block or JSON line. */
export function importResultFile(file: string): ImportedResult[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new UserError(code === 'ENOENT' ? `${file}: no such file` : `${file}: ${(e as Error).message}`);
  }
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    // `i` counts results (array items or JSON lines), not lines of the file: say "result N".
    return parseResultJson(text, file).map((o, i) => {
      if (typeof o.completed !== 'number' || typeof o.duration !== 'number') {
        throw new UserError(
          `${file}: result ${i + 1}: not a vLLM result JSON: no numeric 'completed' and 'duration' (a --save-result file has both)`,
        );
      }
      const result = Object.fromEntries(Object.entries(o).filter(([k]) => !DETAILED.has(k)));
      return { result, block: resultJsonToBlock(result).block };
    });
  }
  const blocks = parseResultText(text, file);
  if (blocks.length === 0) throw new UserError(`${file}:1: no '==== Serving Benchmark Result ====' block and not a result JSON`);
  return blocks.map((b) => ({ result: blockToResultJson(b), block: b.block }));
}

/** Metrics object typed for formatResultBlock from parsed values. */
export function asMetrics(b: ParsedBlock): BenchMetrics {
  return { failed: 0, request_goodput: null, ...b.metrics } as unknown as BenchMetrics;
}

/** The other way: a result object (from a block or a --save-result file) and its print options. */
export function resultJsonToBlock(r: Record<string, unknown>): { metrics: Record<string, unknown>; block: BlockOptions } {
  const metricNames: LatencyMetric[] = [];
  const pcts: number[] = [];
  for (const k of Object.keys(r)) {
    const m = /^(mean|p([\d.]+))_(ttft|tpot|itl|e2el)_ms$/.exec(k);
    if (!m) continue;
    const name = m[3] as LatencyMetric;
    if (!metricNames.includes(name)) metricNames.push(name);
    if (m[2] !== undefined && !pcts.includes(Number(m[2]))) pcts.push(Number(m[2]));
  }
  const order: LatencyMetric[] = ['ttft', 'tpot', 'itl', 'e2el'];
  const rate = r.request_rate;
  const block: BlockOptions = {
    percentileMetrics: order.filter((n) => metricNames.includes(n)),
    metricPercentiles: pcts,
    goodput: r.request_goodput !== null && r.request_goodput !== undefined,
    failedRow: 'auto',
    ...(typeof r.max_concurrency === 'number' ? { maxConcurrency: r.max_concurrency } : {}),
    ...(typeof rate === 'number' ? { requestRate: rate } : {}),
    ...(typeof (r.simulated as { speed?: unknown } | undefined)?.speed === 'number'
      ? { simulatedSpeed: (r.simulated as { speed: number }).speed }
      : {}),
    clientBound:
      r.client_bound === true ? ((r.client_stats as { reasons?: string[] } | undefined)?.reasons ?? []).join('; ') || 'yes' : false,
  };
  return { metrics: { failed: 0, request_goodput: null, ...r }, block };
}
