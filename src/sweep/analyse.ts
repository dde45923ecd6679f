// From swept variants to the answer: every measured point on the frontier's axes, the Pareto
// frontier, the SLO choice, and the chart series. This is the one call the tuning session makes
// for `--objective frontier`: analyseSweeps(sweeps, gpus, slo).
import type { SloRule } from '../core/slo-rule.js';
import type { ChartSeries } from './chart-scale.js';
import {
  chooseForSlo,
  noChoiceReason,
  paretoFrontier,
  toFrontierPoint,
  type Frontier,
  type FrontierPoint,
  type SloChoice,
} from './frontier.js';
import { loadLabel } from './spec.js';
import type { VariantSweep } from './types.js';

export interface SweepAnalysis {
  /** Every measured point, variant by variant, in load order. */
  points: FrontierPoint[];
  frontier: Frontier;
  /** Best variant and load meeting the SLO (without one: the most tok/s/GPU); null when none. */
  choice: SloChoice | null;
  /** Why there is no choice, when there is none. */
  noChoice?: string;
}

export function analyseSweeps(
  sweeps: readonly VariantSweep[],
  gpus: number,
  slo: readonly SloRule[],
  maxFailedPct?: number,
): SweepAnalysis {
  const points = sweeps.flatMap((s) =>
    s.points
      .map((p) =>
        toFrontierPoint(
          { variantId: s.variantId, label: s.label, load: p.load, ...(p.metrics ? { metrics: p.metrics } : {}) },
          gpus,
          slo,
          maxFailedPct,
        ),
      )
      .filter((p): p is FrontierPoint => p !== null),
  );
  const frontier = paretoFrontier(points);
  const choice = chooseForSlo(points, slo);
  return { points, frontier, choice, ...(choice ? {} : { noChoice: noChoiceReason(points, slo) }) };
}

/** One series per variant (in load order) and the frontier as a line, for both charts. */
export function chartSeries(
  sweeps: readonly VariantSweep[],
  a: SweepAnalysis,
): { series: ChartSeries[]; titles: string[][]; labels: string[][] } {
  const series: ChartSeries[] = [];
  const titles: string[][] = [];
  const labels: string[][] = [];
  for (const s of sweeps) {
    const pts = a.points.filter((p) => p.variantId === s.variantId);
    if (!pts.length) continue;
    series.push({
      name: s.label,
      points: pts.map((p) => ({ x: p.tokPerUser, y: p.tokPerGpu, ...(p.violations.length ? { broken: true } : {}) })),
    });
    titles.push(
      pts.map((p) => `${s.label}, ${loadLabel(p.load)}: ${Math.round(p.tokPerGpu)} tok/s/GPU, ${p.tokPerUser.toFixed(1)} tok/s/user`),
    );
    labels.push(
      pts.map((p) =>
        p.load.value === Infinity
          ? 'inf'
          : `${p.load.kind === 'concurrency' ? 'c' : ''}${p.load.value}${p.load.kind === 'rate' ? '/s' : ''}`,
      ),
    );
  }
  if (a.frontier.points.length > 1) {
    series.push({ name: 'Pareto frontier', lineOnly: true, points: a.frontier.points.map((p) => ({ x: p.tokPerUser, y: p.tokPerGpu })) });
    titles.push([]);
    labels.push([]);
  }
  return { series, titles, labels };
}

const f0 = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');

/**
 * The table: every point of every variant, marked on the frontier or not. `compact` (a terminal,
 * one variant named elsewhere) drops the variant column and joins the TTFT columns to fit 80.
 */
export function sweepTable(sweeps: readonly VariantSweep[], a: SweepAnalysis, compact = false): { head: string[]; rows: string[][] } {
  const onFrontier = new Set(a.frontier.points);
  const kind = sweeps[0]?.points[0]?.load.kind ?? 'concurrency';
  const ttft = compact ? ['TTFT p50/p99 ms'] : ['TTFT p50 ms', 'TTFT p99 ms'];
  const head = [...(compact ? [] : ['variant']), compact ? kind : 'load', 'tok/s/GPU', 'tok/s/user', ...ttft, 'goodput/s', 'Pareto', 'SLO'];
  const rows: string[][] = [];
  for (const s of sweeps) {
    for (const p of s.points) {
      const fp = a.points.find((q) => q.variantId === s.variantId && q.load.value === p.load.value);
      const load = compact ? (p.load.value === Infinity ? 'inf' : String(p.load.value)) : loadLabel(p.load);
      const lead = compact ? [load] : [s.label, load];
      if (!fp) {
        rows.push([...lead, '–', '–', ...ttft.map(() => '–'), '–', '', p.status === 'not-run' ? 'not run' : 'failed']);
        continue;
      }
      const ttftCells = compact ? [`${f0(fp.ttftP50Ms)}/${f0(fp.ttftP99Ms)}`] : [f0(fp.ttftP50Ms), f0(fp.ttftP99Ms)];
      const slo = fp.violations.length ? 'broken' : 'met';
      rows.push([
        ...lead,
        f0(fp.tokPerGpu),
        fp.tokPerUser.toFixed(1),
        ...ttftCells,
        fp.goodput === null ? '–' : fp.goodput.toFixed(2),
        onFrontier.has(fp) ? 'yes' : '',
        slo,
      ]);
    }
  }
  return { head, rows };
}

/** Plain-text table with aligned columns: text left, numbers right. */
export function formatTable(head: string[], rows: string[][]): string {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const left = head.map((h) => h === 'variant' || h === 'load' || h === 'Pareto' || h === 'SLO');
  const line = (r: string[]) =>
    r
      .map((c, i) => (left[i] ? c.padEnd(w[i]!) : c.padStart(w[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), ...rows.map(line)].join('\n');
}

/** What the tie groups and the dominated count say, for the report and the command. */
export function frontierNotes(a: SweepAnalysis): string[] {
  const out = [
    `${a.frontier.points.length} of ${a.points.length} measured points are on the Pareto frontier; ${a.frontier.dominated.length} are dominated (another point has at least as many tok/s/GPU and tok/s/user, and more of one).`,
  ];
  for (const g of a.frontier.ties) {
    out.push(
      `tie: ${g.map((p) => `${p.label} at ${loadLabel(p.load)}`).join(' and ')} measured the same (${f0(g[0]!.tokPerGpu)} tok/s/GPU, ${g[0]!.tokPerUser.toFixed(1)} tok/s/user); all are kept on the frontier.`,
    );
  }
  return out;
}
