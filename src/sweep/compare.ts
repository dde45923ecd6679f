// Re-sweep comparison for `replay`: did the frontier move down? With an SLO the comparison is at
// the SLO point: the most tok/s/GPU meeting it, recorded vs now. Without one, load by load for
// each variant measured both times. A drop beyond the margin is a regression. Pure.
import type { SloRule } from '../core/slo-rule.js';
import { analyseSweeps } from './analyse.js';
import type { VariantSweep } from './types.js';
import { loadLabel } from './spec.js';

export interface SweepComparison {
  verdict: 'ok' | 'faster' | 'regression' | 'failed';
  /** One line each: what was compared and by how much it moved. */
  reasons: string[];
  /** (now - recorded) / recorded in %, at the SLO point or the worst load; null when not comparable. */
  deltaPct: number | null;
}

const pct = (now: number, was: number) => ((now - was) / was) * 100;
const f0 = (n: number) => Math.round(n).toLocaleString('en-US');

export function compareSweeps(
  recorded: readonly VariantSweep[],
  now: readonly VariantSweep[],
  o: { gpus: number; slo: readonly SloRule[]; marginPct: number },
): SweepComparison {
  const was = analyseSweeps(recorded, o.gpus, o.slo);
  const is = analyseSweeps(now, o.gpus, o.slo);
  if (!is.points.length) return { verdict: 'failed', reasons: ['no point of the new sweep was measured'], deltaPct: null };
  if (o.slo.length) {
    if (!was.choice)
      return {
        verdict: is.choice ? 'faster' : 'ok',
        reasons: [`recorded: ${was.noChoice}`, is.choice ? `now: ${is.choice.sentence}` : `now: ${is.noChoice}`],
        deltaPct: null,
      };
    if (!is.choice) return { verdict: 'regression', reasons: [`recorded: ${was.choice.sentence}`, `now: ${is.noChoice}`], deltaPct: -100 };
    const d = pct(is.choice.point.tokPerGpu, was.choice.point.tokPerGpu);
    return {
      verdict: judge(d, o.marginPct),
      reasons: [`at the SLO: recorded ${was.choice.sentence}; now ${is.choice.sentence} (${sign(d)}%)`],
      deltaPct: d,
    };
  }
  let worst: number | null = null;
  let best: number | null = null;
  const reasons: string[] = [];
  for (const p of is.points) {
    const q = was.points.find((r) => r.variantId === p.variantId && r.load.kind === p.load.kind && r.load.value === p.load.value);
    if (!q || !(q.tokPerGpu > 0)) continue;
    const d = pct(p.tokPerGpu, q.tokPerGpu);
    if (worst === null || d < worst) worst = d;
    if (best === null || d > best) best = d;
    reasons.push(`${p.label} at ${loadLabel(p.load)}: ${f0(q.tokPerGpu)} -> ${f0(p.tokPerGpu)} tok/s/GPU (${sign(d)}%)`);
  }
  if (worst === null) return { verdict: 'failed', reasons: ['no load was measured both times'], deltaPct: null };
  const verdict = worst < -o.marginPct ? 'regression' : best! > o.marginPct && worst >= -o.marginPct ? 'faster' : 'ok';
  return { verdict, reasons, deltaPct: verdict === 'faster' ? best : worst };
}

function judge(d: number, margin: number): SweepComparison['verdict'] {
  return d < -margin ? 'regression' : d > margin ? 'faster' : 'ok';
}

const sign = (d: number) => `${d >= 0 ? '+' : ''}${d.toFixed(1)}`;
