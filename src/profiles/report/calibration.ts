// The report's calibration figures: each variant's calibrated prediction against its measurement,
// and the session's calibration in one line (src/model/calibration fits them).
import { describeSet } from '../../model/calibration/corrections.js';
import { fmt, fmtPct, metric } from './format.js';
import type { Profile, RecordedResult } from '../schema/profile.js';

/** The calibrated prediction made before the variant ran, its band, and its error against the measurement. */
export function calibratedCell(r: RecordedResult): string {
  const c = r.calibrated;
  if (!c) return '–';
  const measured = metric(r, 'total_token_throughput');
  const err = measured ? ((c.totalTokPerS - measured) / measured) * 100 : null;
  return `${fmt(c.totalTokPerS)} +-${Math.round(c.bandPct)}% (${fmtPct(err)}; on ${c.observations} variant(s))`;
}

/** The session's calibration in one line: what it learnt and its own leave-one-out error. */
export function calibrationLine(p: Pick<Profile, 'calibration'>): string | undefined {
  const c = p.calibration;
  if (!c) return undefined;
  const pct = (x: number | null) => (x === null ? '–' : `${x.toFixed(1)}%`);
  return `Calibration on this host: ${c.observations} measured variant(s)${c.startedFrom ? ` on top of ${c.startedFrom}` : ''}; median |throughput error| leave-one-out ${pct(c.looMedianAbsPct)} against ${pct(c.priorMedianAbsPct)} for the prior model; band +-${Math.round(c.bandPct)}%; corrections: ${describeSet(c.corrections)}.`;
}
