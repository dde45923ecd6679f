// The SVG chart file beside a profile's report (NAME.sweep.svg), shared by the tuning session
// and `servelab sweep PROFILE`: one series per variant, the frontier, the choice marked.
import { writeFileSync } from 'node:fs';
import { basename } from 'node:path';
import { chartSeries, type SweepAnalysis } from '../../sweep/analyse.js';
import { renderSvg } from '../../sweep/chart-svg.js';
import type { SweepRecord } from '../../sweep/record.js';
import { loadLabel } from '../../sweep/spec.js';
import type { VariantSweep } from '../../sweep/types.js';

/** The chart's path for a report path: `NAME.md` -> `NAME.sweep.svg`. */
export function chartPathFor(reportPath: string): string {
  return reportPath.replace(/\.md$/, '') + '.sweep.svg';
}

/** Write the chart beside `reportPath`; returns its file name (what the record and the report link). */
export function writeSweepChart(
  reportPath: string,
  sweeps: readonly VariantSweep[],
  a: SweepAnalysis,
  record: SweepRecord,
  what: { model: string; gpuName: string; gpuCount: number; simulated: boolean },
): string {
  const file = chartPathFor(reportPath);
  const { series, titles, labels } = chartSeries(sweeps, a);
  const c = a.choice?.point;
  const highlight = c
    ? {
        x: c.tokPerUser,
        y: c.tokPerGpu,
        text: `chosen${record.slo ? ` for ${record.slo}` : ''}: ${sweeps.length > 1 ? `${c.label}, ` : ''}${loadLabel(c.load)}`,
      }
    : undefined;
  const title = `${what.model} on ${what.gpuCount} x ${what.gpuName}: sweep ${record.spec}`;
  const subtitle = `${record.slo ? `SLO ${record.slo}. ` : ''}${what.simulated ? 'Simulated host (performance model), not measured on a GPU.' : `Measured ${record.at.slice(0, 10)}.`}`;
  writeFileSync(
    file,
    renderSvg(series, { title, subtitle, pointTitles: titles, pointLabels: labels, ...(highlight ? { highlight } : {}) }),
  );
  return basename(file);
}
