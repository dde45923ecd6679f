// The noise rule's events: the host's run-to-run noise each time the session measures it afresh,
// and a confirmation of a stage's best two in reverse order (src/tune/decide/repeats.ts).
import type { NoiseEstimate } from './noise-rule.js';

export type NoiseEvent =
  /** The host's noise, pooled from every repeated run so far (src/core/noise-rule.ts). */
  | { type: 'noise-measured'; noise: NoiseEstimate }
  /** The stage's best two run once more each, in this order (the reverse of their last runs). */
  | { type: 'confirm-started'; stage: string; variantIds: string[]; why: string };

export function isNoiseEvent(e: { type: string }): e is NoiseEvent {
  return e.type === 'noise-measured' || e.type === 'confirm-started';
}

/** The noise in one line, as every view says it: "noise on this host: ±6.1% (3 runs of the defaults)". */
export function noiseLine(n: NoiseEstimate): string {
  return `noise on this host: ±${n.pct.toFixed(1)}% (${n.source})`;
}
