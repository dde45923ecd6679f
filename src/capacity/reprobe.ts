// When one probe is not enough: the noise rule (src/core/noise-rule.ts) applied to a load's
// probes. A load fails its SLO only when a re-probe agrees: a failing probe is probed again, and
// so is a holding one whose margin under the limit is within the effective margin (the larger of
// CAPACITY_MARGIN_PCT and the noise measured so far). Two that agree settle the load; when they
// disagree a third decides (the majority of three). The noise is measured from the re-probes
// themselves: the spread of the deciding figure between probes of one load.
import { effectiveMarginPct, type NoiseEstimate } from '../core/noise-rule.js';
import { sloKey } from '../core/slo.js';
import type { SloRule } from '../core/slo-rule.js';

/** The margin below which a holding probe is re-probed when no noise was measured yet (tuning's --margin default). */
export const CAPACITY_MARGIN_PCT = 2;
/** Most probes one load gets: two that agree, or a third to break a disagreement. */
export const MAX_PROBES_PER_LOAD = 3;

export interface JudgedProbe {
  holds: boolean;
  /** The SLO's figures as measured (p99_ttft_ms ...); partial when the probe stopped early. */
  metrics: object;
  /** Why the probe stopped once its verdict was settled (its figures then cover fewer requests). */
  early?: string;
}

/** Percent under the tightest rule's limit (negative: over it); null when no rule was measured. */
export function marginPct(metrics: object, slo: readonly SloRule[]): number | null {
  const m = metrics as Record<string, unknown>;
  let least: number | null = null;
  for (const r of slo) {
    const v = m[sloKey(r)];
    if (typeof v !== 'number' || Number.isNaN(v)) continue;
    const pct = ((r.limitMs - v) / r.limitMs) * 100;
    least = least === null ? pct : Math.min(least, pct);
  }
  return least;
}

/** The verdict on a load from its probes so far: 'holds', 'fails', or null when another probe is needed. */
export function loadVerdict(probes: readonly JudgedProbe[], slo: readonly SloRule[], noise?: NoiseEstimate): 'holds' | 'fails' | null {
  const fails = probes.filter((p) => !p.holds).length;
  const holds = probes.length - fails;
  if (probes.length === 1) {
    const p = probes[0]!;
    if (!p.holds) return null;
    const margin = marginPct(p.metrics, slo);
    return margin !== null && margin < effectiveMarginPct(CAPACITY_MARGIN_PCT, noise) ? null : 'holds';
  }
  if (fails >= 2) return 'fails';
  if (holds >= 2) return 'holds';
  return probes.length >= MAX_PROBES_PER_LOAD ? (fails > holds ? 'fails' : 'holds') : null;
}

/**
 * The run-to-run noise from the loads probed more than once: per load, half the range of each
 * rule's figure over the probes that ran (nearly) in full, as a % of their mean; the largest over loads and
 * rules (the conservative reading). Undefined until some load has two full probes.
 */
export function reprobeNoise(loads: readonly (readonly JudgedProbe[])[], slo: readonly SloRule[]): NoiseEstimate | undefined {
  let pct = -1;
  let runs = 0;
  for (const probes of loads) {
    // A probe that held early ran all but the last few requests; one that failed early ran few.
    const full = probes.filter((p) => !p.early || p.holds);
    if (full.length < 2) continue;
    runs += full.length;
    for (const r of slo) {
      const vs = full.map((p) => (p.metrics as Record<string, unknown>)[sloKey(r)]).filter((v): v is number => typeof v === 'number');
      if (vs.length < 2) continue;
      const mean = vs.reduce((s, v) => s + v, 0) / vs.length;
      if (mean > 0) pct = Math.max(pct, ((Math.max(...vs) - Math.min(...vs)) / 2 / mean) * 100);
    }
  }
  return pct < 0 ? undefined : { pct: Number(pct.toFixed(1)), runs, source: `${runs} probes re-run at the same load` };
}
