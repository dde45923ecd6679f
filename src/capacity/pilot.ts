// Where the bracket starts: short pilot probes, doubling from the start load, place it near the
// answer before any full-size probe runs. A p99 rule needs 1,000 requests per probe (judge.ts),
// and 1,000 requests one at a time take minutes on a real server; a pilot of max(32, 4 x load)
// requests takes seconds. A pilot judges no load: the search then starts at the highest load
// whose pilot held (its p99 over 32 requests is near their maximum, so it errs low, and the
// search doubles up from there). Searches by rate, and searches whose start probe is already
// small, take no pilots.
import type { SearchSpec } from './search.js';

export const PILOT_REQUESTS = 32;

/** Requests one pilot sends at `value`: 32, or 4 per concurrent request. */
export function pilotSize(spec: Pick<SearchSpec, 'by'>, value: number): number {
  return Math.max(PILOT_REQUESTS, spec.by === 'concurrency' ? 4 * value : 0);
}

/** The load the full search starts from: pilots double until one fails or the max is reached. */
export async function pilotStart(
  spec: Pick<SearchSpec, 'by' | 'start' | 'max'>,
  pilot: (value: number) => Promise<{ holds: boolean }>,
  fullSize?: number,
): Promise<number> {
  if (spec.by !== 'concurrency' || (fullSize !== undefined && fullSize <= pilotSize(spec, spec.start))) return spec.start;
  let held = spec.start;
  for (let c = spec.start; c <= spec.max; c *= 2) {
    if (!(await pilot(c)).holds) break;
    held = c;
  }
  return held;
}
