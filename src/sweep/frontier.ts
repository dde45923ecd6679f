// The throughput-interactivity frontier (pure). Each swept point becomes output tok/s per GPU
// (y: what the operator pays for) against tok/s per user = 1000 / mean TPOT (x: what each user
// sees), the axes of InferenceMAX's charts and `vllm bench sweep plot_pareto` (which uses
// output_throughput / concurrency for x; servelab uses 1000 / mean TPOT, which
// stays meaningful for rate sweeps where concurrency is not fixed).
import type { BenchMetrics } from '../core/metrics.js';
import type { SloRule } from '../core/slo-rule.js';
import { sloKey, sloViolations } from '../core/slo.js';
import { loadLabel, type SweepLoad } from './spec.js';
import { DEFAULT_MAX_FAILED_PCT, failedOver, failedOverReason } from '../core/failed-share.js';

/** What the frontier needs of one measured point; a VariantResult's fields fit. */
export interface PointInput {
  variantId: string;
  /** Human name of the variant, e.g. "sglang fp8 dp-attn". */
  label: string;
  load: SweepLoad;
  /** vLLM --save-result metrics; absent when the point failed or was not run. */
  metrics?: Record<string, unknown>;
}

export interface FrontierPoint {
  variantId: string;
  label: string;
  load: SweepLoad;
  /** Output tokens per second per GPU. */
  tokPerGpu: number;
  /** Tokens per second per user: 1000 / mean TPOT (ms). */
  tokPerUser: number;
  ttftP50Ms: number;
  ttftP99Ms: number;
  /** Requests/s meeting the SLO (vLLM's request_goodput); null without an SLO. */
  goodput: number | null;
  /** Broken SLO rules, one line each; empty when all hold (or no SLO). */
  violations: string[];
  metrics: Record<string, unknown>;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : NaN);

/** A point whose failed requests exceed --max-failed is never chosen: partial success is not success. */
function failedViolation(m: Record<string, unknown>, maxFailedPct: number): string[] {
  const counts = { completed: num(m.completed), failed: num(m.failed) || 0 };
  return failedOver(counts, maxFailedPct) ? [failedOverReason(counts, maxFailedPct)] : [];
}

/** The point on the frontier's axes, or null when it has no usable measurement (failed, no TPOT). */
export function toFrontierPoint(
  p: PointInput,
  gpus: number,
  slo: readonly SloRule[],
  maxFailedPct = DEFAULT_MAX_FAILED_PCT,
): FrontierPoint | null {
  const m = p.metrics;
  if (!m || !(num(m.completed) > 0)) return null;
  const tpot = num(m.mean_tpot_ms);
  const out = num(m.output_throughput);
  // One-token outputs have no TPOT (vLLM leaves it 0): such a point has no place on the x axis.
  if (!(tpot > 0) || !(out >= 0)) return null;
  const goodput = typeof m.request_goodput === 'number' ? m.request_goodput : null;
  return {
    variantId: p.variantId,
    label: p.label,
    load: p.load,
    tokPerGpu: out / Math.max(1, gpus),
    tokPerUser: 1000 / tpot,
    ttftP50Ms: num(m.median_ttft_ms),
    ttftP99Ms: num(m.p99_ttft_ms),
    goodput,
    violations: [...(slo.length ? sloViolations(m as unknown as BenchMetrics, slo) : []), ...failedViolation(m, maxFailedPct)],
    metrics: m,
  };
}

export interface Frontier {
  /** Non-dominated points, by tok/s/user ascending (left to right on the chart). */
  points: FrontierPoint[];
  /** Points another beats on both axes (or matches on one and beats on the other). */
  dominated: { point: FrontierPoint; by: FrontierPoint }[];
  /** Groups of frontier points with identical coordinates: all are kept, none is preferred. */
  ties: FrontierPoint[][];
}

/** Does a beat b: at least as good on both axes and better on one. Equal points do not. */
function dominates(a: FrontierPoint, b: FrontierPoint): boolean {
  return a.tokPerGpu >= b.tokPerGpu && a.tokPerUser >= b.tokPerUser && (a.tokPerGpu > b.tokPerGpu || a.tokPerUser > b.tokPerUser);
}

/** Pareto frontier over all points of all variants (maximise both axes). */
export function paretoFrontier(all: readonly FrontierPoint[]): Frontier {
  const points: FrontierPoint[] = [];
  const dominated: Frontier['dominated'] = [];
  for (const p of all) {
    // The strongest dominator (most tok/s/GPU) is named, so the report says what beat it.
    const by = all.filter((q) => q !== p && dominates(q, p)).sort((a, b) => b.tokPerGpu - a.tokPerGpu)[0];
    if (by) dominated.push({ point: p, by });
    else points.push(p);
  }
  points.sort((a, b) => a.tokPerUser - b.tokPerUser || b.tokPerGpu - a.tokPerGpu);
  const ties: FrontierPoint[][] = [];
  for (const p of points) {
    const group = ties.find((g) => g[0]!.tokPerGpu === p.tokPerGpu && g[0]!.tokPerUser === p.tokPerUser);
    if (group) group.push(p);
    else ties.push([p]);
  }
  return { points, dominated, ties: ties.filter((g) => g.length > 1) };
}

export interface SloChoice {
  point: FrontierPoint;
  /** "sglang fp8 dp-attn: 1,850 tok/s/GPU at 64 concurrent, TPOT p99 38 ms". */
  sentence: string;
  /** Why this one: how many points met the SLO, and what tied or came next. */
  why: string;
}

const fmt0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');

/** The measured values of the SLO's metrics at a point: "TPOT p99 38 ms, TTFT p99 812 ms". */
export function sloValues(p: FrontierPoint, slo: readonly SloRule[]): string {
  return slo.map((r) => `${r.metric.toUpperCase()} ${r.stat} ${fmt0(num(p.metrics[sloKey(r)]))} ms`).join(', ');
}

export function choiceSentence(p: FrontierPoint, slo: readonly SloRule[]): string {
  const values = slo.length ? `, ${sloValues(p, slo)}` : `, TPOT mean ${fmt0(1000 / p.tokPerUser)} ms`;
  return `${p.label}: ${fmt0(p.tokPerGpu)} tok/s/GPU at ${loadLabel(p.load)}${values}`;
}

/**
 * The best variant and load: the most output tok/s/GPU among points meeting every SLO rule
 * (without an SLO, among all points). Ties on tok/s/GPU go to more tok/s/user, then the lighter
 * load, then the variant listed first. Null when no point qualifies.
 */
export function chooseForSlo(all: readonly FrontierPoint[], slo: readonly SloRule[]): SloChoice | null {
  const ok = all.filter((p) => p.violations.length === 0);
  if (!ok.length) return null;
  const order = new Map(all.map((p, i) => [p, i]));
  const ranked = [...ok].sort(
    (a, b) => b.tokPerGpu - a.tokPerGpu || b.tokPerUser - a.tokPerUser || a.load.value - b.load.value || order.get(a)! - order.get(b)!,
  );
  const best = ranked[0]!;
  const tied = ranked.filter((p) => p !== best && p.tokPerGpu === best.tokPerGpu);
  const next = ranked.find((p) => p.tokPerGpu < best.tokPerGpu);
  const parts = [
    slo.length
      ? `${ok.length} of ${all.length} measured points meet the SLO`
      : `no SLO: the most tok/s/GPU of ${all.length} measured points`,
  ];
  if (tied.length)
    parts.push(
      `tied on tok/s/GPU with ${tied.map((p) => `${p.label} at ${loadLabel(p.load)}`).join(', ')}; chosen for more tok/s/user or the lighter load`,
    );
  if (next) parts.push(`next: ${choiceSentence(next, slo)}`);
  return { point: best, sentence: choiceSentence(best, slo), why: parts.join('; ') };
}

/** Why nothing met the SLO: the closest point's broken rules. */
export function noChoiceReason(all: readonly FrontierPoint[], slo: readonly SloRule[]): string {
  if (!all.length) return 'no point was measured';
  const fewest = [...all].sort((a, b) => a.violations.length - b.violations.length || b.tokPerUser - a.tokPerUser)[0]!;
  return `no measured point meets the SLO; the closest, ${fewest.label} at ${loadLabel(fewest.load)}: ${fewest.violations.join('; ')}`;
}
