// The sweep part of the session projection: finalists, every point on the frontier's axes as a
// series per variant (what a live chart draws), the frontier and the core's choice. Pure: it
// files what the sweep-* events carry and decides nothing.
import type { TuneEvent } from './events.js';
import type { SweepChoiceInfo, SweepLoadInfo, SweepPointInfo } from './sweep-info.js';

/** One variant's points in load order: one line of the chart. */
export interface SweepSeriesView {
  variantId: string;
  label: string;
  /** Why it was swept (baseline, winner, near-miss of a stage). */
  why: string;
  points: SweepPointInfo[];
}

export interface SweepView {
  spec: string;
  slo: string;
  rule: string;
  series: SweepSeriesView[];
  /** Frontier points left to right (tok/s/user ascending), once the sweep finished. */
  frontier: { variantId: string; load: SweepLoadInfo; tokPerGpu: number; tokPerUser: number }[];
  choice: SweepChoiceInfo | null;
  noChoice?: string;
  /** The choice decides the session (--objective frontier). */
  decides: boolean;
  done: boolean;
}

type SweepEvent = Extract<TuneEvent, { type: 'sweep-started' | 'sweep-point' | 'sweep-finished' }>;

export function isSweepEvent(e: TuneEvent): e is SweepEvent {
  return e.type === 'sweep-started' || e.type === 'sweep-point' || e.type === 'sweep-finished';
}

const sameLoad = (a: SweepLoadInfo, b: SweepLoadInfo) => a.kind === b.kind && a.value === b.value;

function withPoint(sweep: SweepView, e: Extract<SweepEvent, { type: 'sweep-point' }>): SweepView {
  const point: SweepPointInfo = {
    load: e.load,
    status: e.status,
    ...(e.summary ? { summary: e.summary } : {}),
    violations: e.violations,
    ...(e.reason ? { reason: e.reason } : {}),
    ...(e.resumed ? { resumed: true } : {}),
  };
  const has = sweep.series.some((s) => s.variantId === e.variantId);
  const series = has ? sweep.series : [...sweep.series, { variantId: e.variantId, label: e.label, why: '', points: [] }];
  return {
    ...sweep,
    series: series.map((s) =>
      s.variantId !== e.variantId
        ? s
        : {
            ...s,
            points: [...s.points.filter((p) => !sameLoad(p.load, e.load)), point].sort(
              (a, b) => (a.load.value ?? Infinity) - (b.load.value ?? Infinity),
            ),
          },
    ),
  };
}

/** One sweep event applied to the sweep part (undefined before sweep-started). */
export function applySweepEvent(sweep: SweepView | undefined, e: SweepEvent): SweepView | undefined {
  switch (e.type) {
    case 'sweep-started':
      return {
        spec: e.spec,
        slo: e.slo,
        rule: e.rule,
        frontier: [],
        choice: null,
        decides: false,
        done: false,
        series: e.variants.map((v) => ({ variantId: v.variantId, label: v.label, why: v.why, points: [] })),
      };
    case 'sweep-point':
      return sweep ? withPoint(sweep, e) : sweep;
    case 'sweep-finished':
      return sweep
        ? {
            ...sweep,
            frontier: e.frontier,
            choice: e.choice,
            ...(e.noChoice ? { noChoice: e.noChoice } : {}),
            decides: e.decides,
            done: true,
          }
        : sweep;
  }
}
