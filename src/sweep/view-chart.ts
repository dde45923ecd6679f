// The sweep projection as chart series, for both front ends: one series per variant (its measured
// points on the frontier's axes, SLO breaks marked), the Pareto frontier as a line. The headless
// summary renders them as text, the TUI's sweep panels as a live chart.
import type { SweepView } from '../core/view-sweep.js';
import type { ChartSeries } from './chart-scale.js';

/** The view's series as chart series: one per variant (measured points), the frontier as a line. */
export function sweepChartSeries(s: SweepView): ChartSeries[] {
  const out: ChartSeries[] = s.series
    .map((v) => ({
      name: v.label,
      points: v.points.flatMap((p) =>
        p.summary ? [{ x: p.summary.tokPerUser, y: p.summary.tokPerGpu, ...(p.violations.length ? { broken: true } : {}) }] : [],
      ),
    }))
    .filter((v) => v.points.length > 0);
  if (s.frontier.length > 1)
    out.push({ name: 'Pareto frontier', lineOnly: true, points: s.frontier.map((p) => ({ x: p.tokPerUser, y: p.tokPerGpu })) });
  return out;
}
