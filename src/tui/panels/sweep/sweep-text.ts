// The sweep's words on screen, from the projection (src/core/view-sweep.ts): the header, the
// latest point as one line, the frontier table's rows and columns. Presentation only: the
// frontier and the choice are the core's.
import type { SweepLoadInfo } from '../../../core/sweep-info.js';
import type { SweepPointInfo } from '../../../core/sweep-info.js';
import type { SweepView } from '../../../core/view-sweep.js';
import { loadLabel } from '../../../sweep/spec.js';
import { fmtMs, fmtNum } from '../../base/format.js';
import type { Column } from '../../components/Table.js';

export const sweepLoad = (l: SweepLoadInfo) => loadLabel({ kind: l.kind, value: l.value ?? Infinity });

/** "sweep concurrency:1,8 for tpot:p99<60 · 3 of 4 points measured". */
export function sweepHeader(s: SweepView): string {
  const points = s.series.reduce((n, v) => n + v.points.filter((p) => p.status !== 'not-run').length, 0);
  return `sweep ${s.spec}${s.slo ? ` for ${s.slo}` : ''} · ${s.series.length} finalist(s) · ${points} point(s) measured`;
}

function pointText(p: SweepPointInfo): string {
  const m = p.summary;
  if (p.status !== 'ok' || !m) return `${p.status}${p.reason ? `: ${p.reason}` : ''}`;
  const slo = p.violations.length ? `, SLO broken: ${p.violations.join('; ')}` : '';
  return `${fmtNum(m.tokPerGpu)} tok/s/GPU, ${m.tokPerUser.toFixed(1)} tok/s/user, TPOT p99 ${fmtMs(m.tpotP99Ms)}, TTFT p99 ${fmtMs(m.ttftP99Ms)}${slo}`;
}

/**
 * The latest point: the sweep runs the finalists one after another, each in load order, so it is
 * the last measured point of the last series that has one.
 */
export function latestPointLine(s: SweepView): string | null {
  for (let i = s.series.length - 1; i >= 0; i--) {
    const v = s.series[i]!;
    const p = [...v.points].reverse().find((q) => q.status !== 'not-run');
    if (p) return `latest: ${v.label} at ${sweepLoad(p.load)}: ${pointText(p)}`;
  }
  return null;
}

export interface FrontierRow {
  label: string;
  load: SweepLoadInfo;
  tokPerGpu: number;
  tokPerUser: number;
  point?: SweepPointInfo;
  chosen: boolean;
}

/** The frontier's points left to right, each with its measured point (for the latencies) and whether it is the choice. */
export function frontierRows(s: SweepView): FrontierRow[] {
  const same = (a: SweepLoadInfo, b: SweepLoadInfo) => a.kind === b.kind && a.value === b.value;
  return s.frontier.map((f) => {
    const v = s.series.find((x) => x.variantId === f.variantId);
    const point = v?.points.find((p) => same(p.load, f.load));
    return {
      label: v?.label ?? f.variantId,
      load: f.load,
      tokPerGpu: f.tokPerGpu,
      tokPerUser: f.tokPerUser,
      ...(point ? { point } : {}),
      chosen: Boolean(s.choice && s.choice.variantId === f.variantId && same(s.choice.load, f.load)),
    };
  });
}

/** The frontier table's columns: the figures fit 80 columns, the variant takes what is left. */
export function frontierColumns(width: number): Column<FrontierRow>[] {
  const nums: Column<FrontierRow>[] = [
    { key: 'load', header: 'load', width: 10, render: (r) => sweepLoad(r.load).replace(' concurrent', ' conc') },
    { key: 'gpu', header: 'tok/s/GPU', width: 9, align: 'right', render: (r) => fmtNum(r.tokPerGpu) },
    { key: 'user', header: 'tok/s/usr', width: 9, align: 'right', render: (r) => r.tokPerUser.toFixed(1) },
    { key: 'tpot', header: 'TPOT p99', width: 8, align: 'right', render: (r) => fmtMs(r.point?.summary?.tpotP99Ms) },
    { key: 'ttft', header: 'TTFT p99', width: 8, align: 'right', render: (r) => fmtMs(r.point?.summary?.ttftP99Ms) },
    {
      key: 'slo',
      header: 'SLO',
      width: 6,
      render: (r) => (!r.point ? '-' : r.point.violations.length ? 'broken' : 'met'),
      tone: (r) => (r.point?.violations.length ? 'bad' : r.point ? 'good' : undefined),
    },
  ];
  const numsW = nums.reduce((w, c) => w + c.width + 1, 0);
  const labelW = Math.max(12, Math.min(40, width - 1 - numsW));
  return [
    {
      key: 'variant',
      header: 'variant',
      width: labelW,
      render: (r) => `${r.chosen ? '▶ ' : '  '}${r.label}`,
      tone: (r) => (r.chosen ? 'accent' : undefined),
    },
    ...nums,
  ];
}
