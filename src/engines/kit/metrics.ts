// Prometheus text exposition, reduced to what servelab needs: one number per metric name,
// summed across label sets (SGLang and vLLM export one series per DP rank / engine).
import type { ServerMetricsSample } from '../../core/metrics.js';

export type MetricTotals = Map<string, { sum: number; count: number; max: number }>;

/** Parse `name{labels} value [timestamp]` lines; comments, blanks and bad lines are skipped. */
export function parsePrometheus(text: string): MetricTotals {
  const out: MetricTotals = new Map();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const m = /^([A-Za-z_:][A-Za-z0-9_:]*)(\{.*\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const value = Number(m[3]);
    if (!Number.isFinite(value)) continue;
    const cur = out.get(m[1]!) ?? { sum: 0, count: 0, max: -Infinity };
    cur.sum += value;
    cur.count += 1;
    cur.max = Math.max(cur.max, value);
    out.set(m[1]!, cur);
  }
  return out;
}

/** Names of the four live figures in one engine's exposition. */
export interface MetricNames {
  running: string[];
  waiting: string[];
  /** 0..1 gauges; averaged across series (one per DP rank). */
  kvUsage: string[];
  preemptions: string[];
}

export function pickMetrics(text: string, names: MetricNames): Partial<ServerMetricsSample> {
  const totals = parsePrometheus(text);
  const first = (keys: string[]) => keys.map((k) => totals.get(k)).find((v) => v !== undefined);
  const out: Partial<ServerMetricsSample> = {};
  const running = first(names.running);
  if (running) out.running = running.sum;
  const waiting = first(names.waiting);
  if (waiting) out.waiting = waiting.sum;
  const kv = first(names.kvUsage);
  if (kv) out.kvUsage = kv.sum / kv.count;
  const pre = first(names.preemptions);
  if (pre) out.preemptions = pre.sum;
  return out;
}
