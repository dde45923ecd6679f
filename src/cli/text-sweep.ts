// The sweep's plain text for the headless front end: a progress line per sweep event and the
// summary's "Load sweep" section (the chart, the table, the choice), from the projection.
import type { TuneEvent } from '../core/events.js';
import type { SweepLoadInfo } from '../core/sweep-info.js';
import type { SweepView } from '../core/view-sweep.js';
import { sweepChartSeries } from '../sweep/view-chart.js';
import { renderChart } from '../sweep/chart-text.js';
import { loadLabel } from '../sweep/spec.js';

const load = (l: SweepLoadInfo) => loadLabel({ kind: l.kind, value: l.value ?? Infinity });
const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-');

type SweepEvent = Extract<TuneEvent, { type: 'sweep-started' | 'sweep-point' | 'sweep-finished' }>;

/** One stderr line per sweep event. */
export function sweepProgressLine(e: SweepEvent): string | null {
  switch (e.type) {
    case 'sweep-started':
      return [
        `sweep ${e.spec}${e.slo ? ` for ${e.slo}` : ''}: ${e.variants.length} finalist(s) (${e.rule})`,
        ...e.variants.map((v) => `  ${v.variantId}: ${v.why}`),
      ].join('\n');
    case 'sweep-point': {
      if (e.status === 'not-run') return null;
      const s = e.summary;
      const what =
        e.status !== 'ok' || !s
          ? `${e.status}${e.reason ? `: ${e.reason}` : ''}`
          : `${f0(s.tokPerGpu)} tok/s/GPU, ${s.tokPerUser.toFixed(1)} tok/s/user, TPOT p99 ${f0(s.tpotP99Ms)} ms, TTFT p99 ${f0(s.ttftP99Ms)} ms`;
      const slo = e.violations.length ? ` (SLO broken: ${e.violations.join('; ')})` : '';
      return `  ${e.variantId} at ${load(e.load)}: ${what}${slo}${e.resumed ? ' (from the journal)' : ''}`;
    }
    case 'sweep-finished':
      return e.choice
        ? `frontier: ${e.choice.sentence}${e.decides ? ' (chosen)' : ''}`
        : `frontier: no choice: ${e.noChoice ?? 'nothing measured'}`;
  }
}

/** The summary's sweep section: chart, one line per point, the choice and the runner-up. */
export function sweepSummaryText(s: SweepView, width = 80): string[] {
  const out = [`Load sweep ${s.spec}${s.slo ? ` for ${s.slo}` : ''} (${s.rule})`];
  const series = sweepChartSeries(s);
  if (series.length) out.push(...renderChart(series, Math.max(60, Math.min(width, 160)), 20));
  const onFrontier = (id: string, l: SweepLoadInfo) =>
    s.frontier.some((p) => p.variantId === id && p.load.kind === l.kind && p.load.value === l.value);
  for (const v of s.series) {
    out.push(`  ${v.label} (${v.variantId}${v.why ? `: ${v.why}` : ''})`);
    for (const p of v.points) {
      const m = p.summary;
      const what = m
        ? `${f0(m.tokPerGpu).padStart(7)} tok/s/GPU ${m.tokPerUser.toFixed(1).padStart(7)} tok/s/user  TPOT p99 ${f0(m.tpotP99Ms)} ms  TTFT p99 ${f0(m.ttftP99Ms)} ms`
        : `${p.status}${p.reason ? `: ${p.reason}` : ''}`;
      const tags = [m ? (p.violations.length ? 'SLO broken' : 'SLO met') : '', onFrontier(v.variantId, p.load) ? 'frontier' : '']
        .filter(Boolean)
        .join(', ');
      out.push(`    ${load(p.load).padEnd(14)} ${what}${tags ? `  [${tags}]` : ''}`);
    }
  }
  if (s.choice) {
    out.push(
      `${s.decides ? 'Chosen' : 'Frontier choice (not applied: the objective is not frontier)'}: ${s.choice.sentence}`,
      `  why: ${s.choice.why}`,
    );
    if (s.choice.runnerUp) out.push(`  runner-up: ${s.choice.runnerUp}`);
  } else if (s.done) out.push(`No choice: ${s.noChoice ?? 'nothing measured'}; the staged winner stands.`);
  out.push('');
  return out;
}
