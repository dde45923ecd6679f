// Numbers as the Markdown report and the replay text print them.
import type { RecordedResult } from '../schema/profile.js';
import { num, signedPct } from '../../core/format.js';

/** The report's numbers: two decimals, an en dash when there is none. */
export function fmt(n: number | null | undefined, digits = 2): string {
  return num(n, digits, '–');
}

/** The report's gains: signed, one decimal, an en dash when there is none. */
export function fmtPct(p: number | null | undefined): string {
  return signedPct(p, 1, '–');
}

export function metric(r: RecordedResult, key: string): number | undefined {
  const v = (r.metrics as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'number' ? v : undefined;
}
