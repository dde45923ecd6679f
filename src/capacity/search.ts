// The capacity search, pure: given the probes run so far (load and whether every SLO held), the
// next load to probe, or none when the answer is known. It brackets by doubling from the start
// load (halving when the start already fails), then bisects between the highest load that held
// and the lowest that failed until they are within the resolution. It assumes that more load
// never makes a latency better; a noisy probe that contradicts that is kept, not trusted: the
// answer is the highest holding load below the lowest failing one.
import { UserError } from '../core/errors.js';

export type CapacityBy = 'concurrency' | 'rate';

/** How close the answer and the failing probe must be: in load units, or a percentage of the answer. */
export interface Resolution {
  value: number;
  relative: boolean;
}

export interface SearchSpec {
  by: CapacityBy;
  /** First load probed (concurrency 1, or a request rate in req/s). */
  start: number;
  /** Highest load probed: a server that holds there is answered "at least this". */
  max: number;
  resolution: Resolution;
}

export interface ProbeVerdict {
  value: number;
  holds: boolean;
}

/** The lowest load a search goes down to when even the start fails. */
export function floorLoad(spec: Pick<SearchSpec, 'by' | 'start'>): number {
  return spec.by === 'concurrency' ? 1 : spec.start / 64;
}

/** `--resolution 4` (load units) or `--resolution 10%` (of the answer). */
export function parseResolution(text: string): Resolution {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  const value = m ? Number(m[1]) : NaN;
  if (!m || !(value > 0) || (m[2] === '%' && value >= 100)) {
    throw new UserError(
      `bad --resolution '${text}': expected a load step such as 4 (concurrent requests, or req/s with --by rate) or a share of the answer such as 10%`,
    );
  }
  return { value, relative: m[2] === '%' };
}

export function formatResolution(r: Resolution, by: CapacityBy): string {
  return r.relative ? `${r.value}% of the answer` : `${r.value} ${by === 'concurrency' ? 'concurrent' : 'req/s'}`;
}

/** The highest holding load below the lowest failing one (null: none held), and that failing load (null: none failed). */
export function bracket(probes: readonly ProbeVerdict[]): { lo: number | null; hi: number | null } {
  const failing = probes.filter((p) => !p.holds).map((p) => p.value);
  const hi = failing.length ? Math.min(...failing) : null;
  const holding = probes.filter((p) => p.holds && (hi === null || p.value < hi)).map((p) => p.value);
  return { lo: holding.length ? Math.max(...holding) : null, hi };
}

/** True when the answer `lo` and the failing load `hi` are as close as the resolution asks (or as loads can be). */
export function closeEnough(spec: SearchSpec, lo: number, hi: number): boolean {
  const gap = hi - lo;
  if (spec.by === 'concurrency' && gap <= 1) return true;
  const step = spec.resolution.relative ? (lo * spec.resolution.value) / 100 : spec.resolution.value;
  return gap <= step;
}

/** Four significant figures: rates stay readable in tables and JSON. */
const round4 = (x: number) => Number(x.toPrecision(4));

function midpoint(by: CapacityBy, lo: number, hi: number): number {
  return by === 'concurrency' ? Math.floor((lo + hi) / 2) : round4((lo + hi) / 2);
}

/** The next load to probe after `probes`, or null when the search is over. */
export function nextLoad(spec: SearchSpec, probes: readonly ProbeVerdict[]): number | null {
  if (probes.length === 0) return spec.start;
  const { lo, hi } = bracket(probes);
  if (lo === null) {
    // Even the lowest load tried fails: halve, down to the floor.
    const down = spec.by === 'concurrency' ? Math.floor(hi! / 2) : round4(hi! / 2);
    return down >= floorLoad(spec) && down < hi! ? down : null;
  }
  if (hi === null) return lo >= spec.max ? null : Math.min(spec.max, lo * 2);
  if (closeEnough(spec, lo, hi)) return null;
  const mid = midpoint(spec.by, lo, hi);
  return mid > lo && mid < hi ? mid : null;
}

export interface SearchAnswer {
  /** Highest load at which every SLO held; null when none did. */
  answer: number | null;
  /** The lowest load that failed (just above the answer once bisected); null when none failed up to `max`. */
  failing: number | null;
}

export function searchAnswer(probes: readonly ProbeVerdict[]): SearchAnswer {
  const { lo, hi } = bracket(probes);
  return { answer: lo, failing: hi };
}

/** Drive the search: `probe` measures one load; returns once nextLoad says the answer is known. */
export async function searchCapacity<P extends ProbeVerdict>(spec: SearchSpec, probe: (value: number) => Promise<P>): Promise<P[]> {
  const probes: P[] = [];
  for (let value = nextLoad(spec, probes); value !== null; value = nextLoad(spec, probes)) probes.push(await probe(value));
  return probes;
}
