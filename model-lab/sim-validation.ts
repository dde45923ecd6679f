// Out-of-sample validation, computed here and printed by validate.ts: simulate every published
// result the model was not fitted on (src/model/data/published.ts) and report the throughput
// error, per GPU and engine, and whether the engine ranking of each group comes out right.
// Virtual clock, deterministic.
import type { PublishedResult } from '../src/model/data/published-result.js';
import { simulateWorkload } from '../src/sim/scheduler/virtual.js';
import { sharegptLike, type LengthPair } from '../src/sim/predict/workload.js';

export interface ValidationRow {
  r: PublishedResult;
  simulated: number | null;
  /** simulated / published - 1; null when the model says it does not fit. */
  error: number | null;
  reason?: string;
}

function lengths(r: PublishedResult, seed: number): LengthPair[] {
  if (r.workload.kind === 'sharegpt') return sharegptLike(r.numPrompts, seed);
  const { input, output } = r.workload;
  return Array.from({ length: r.numPrompts }, () => ({ promptLen: input, outputLen: output }));
}

export function validateOne(r: PublishedResult, seed = 42): ValidationRow {
  const sim = simulateWorkload({
    engine: r.engine,
    engineVersion: r.engineVersion,
    gpu: r.gpu,
    gpus: r.gpus,
    model: r.model,
    knobs: r.knobs,
    requests: lengths(r, seed),
    seed,
  });
  if (!sim.metrics) return { r, simulated: null, error: null, ...(sim.fit.reason ? { reason: sim.fit.reason } : {}) };
  const simulated = sim.metrics.total_token_throughput;
  return { r, simulated, error: simulated / r.totalTokPerS - 1 };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n === 0 ? NaN : n % 2 ? s[(n - 1) / 2]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
};

export interface ValidationSummary {
  rows: ValidationRow[];
  /** Median and worst |error| over the rows that simulate (a row that does not fit counts as worst = Infinity). */
  medianAbs: number;
  worstAbs: number;
  bySlice: { slice: string; n: number; medianAbs: number; worstAbs: number }[];
  groups: { group: string; published: string[]; simulated: string[]; right: boolean }[];
}

export function summarize(rows: ValidationRow[]): ValidationSummary {
  const abs = (rs: ValidationRow[]) => rs.map((x) => (x.error === null ? Infinity : Math.abs(x.error)));
  const slices = new Map<string, ValidationRow[]>();
  for (const x of rows) {
    const k = `${x.r.gpu} ${x.r.engine}`;
    slices.set(k, [...(slices.get(k) ?? []), x]);
  }
  const groups = new Map<string, ValidationRow[]>();
  for (const x of rows) if (x.r.group) groups.set(x.r.group, [...(groups.get(x.r.group) ?? []), x]);
  const order = (rs: ValidationRow[], v: (x: ValidationRow) => number) =>
    [...rs].sort((a, b) => v(b) - v(a)).map((x) => x.r.engine as string);
  return {
    rows,
    medianAbs: median(abs(rows)),
    worstAbs: Math.max(...abs(rows)),
    bySlice: [...slices].map(([slice, rs]) => ({ slice, n: rs.length, medianAbs: median(abs(rs)), worstAbs: Math.max(...abs(rs)) })),
    groups: [...groups].map(([group, rs]) => {
      const published = order(rs, (x) => x.r.totalTokPerS);
      const simulated = order(rs, (x) => x.simulated ?? -1);
      // A refused row makes the group wrong (ties must not pass by keeping the input order).
      const refused = rs.some((x) => x.simulated === null);
      return { group, published, simulated, right: !refused && published.join() === simulated.join() };
    }),
  };
}
