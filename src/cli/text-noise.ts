// The noise rule in headless text: the host's noise, a stage's confirmation in reverse order, and
// under each stage the tied set with each member's interval (the same words the TUI shows).
import type { NoiseEvent } from '../core/noise-events.js';
import { noiseLine } from '../core/noise-events.js';
import type { StageVerdict } from '../core/stage-verdict.js';
import type { SessionView } from '../core/session-view.js';
import { num } from '../core/format.js';

export function noiseProgressLine(e: NoiseEvent): string {
  if (e.type === 'noise-measured') return noiseLine(e.noise);
  return `  confirming (${e.stage}): ${e.why}`;
}

/** One candidate's interval: "1,234 ±3.1% (3 runs)". */
function intervalText(v: StageVerdict, id: string): string {
  const iv = v.intervals?.[id];
  if (!iv) return id;
  return `${id} ${num(iv.mean)}${iv.halfPct !== undefined ? ` ±${iv.halfPct.toFixed(1)}%` : ''} (${iv.runs} run${iv.runs === 1 ? '' : 's'})`;
}

/** The line under a stage's table: its tied set with intervals and the margin it was judged with. */
export function tiedSetLine(v: StageVerdict | undefined): string | null {
  if (!v?.tiedIds?.length || v.marginPct === undefined) return null;
  const members = v.tiedIds.map((id) => intervalText(v, id)).join(', ');
  const by = v.tieBreak && v.winnerId ? `; ${v.winnerId} ${v.tieBreak}` : '';
  return `  tied set (within ±${v.marginPct.toFixed(1)}%): ${members}${by}`;
}

/** The summary's noise line, when the session measured it. */
export function summaryNoiseLines(view: SessionView): string[] {
  return view.noise ? [noiseLine(view.noise), ''] : [];
}
