// The Run screen's noise lines: the host's noise as the core last measured it, and a stage's
// confirmation of its best two in reverse order while it runs (what the live variants are).
import type { SessionView } from '../../../core/session-view.js';
import { noiseLine } from '../../../core/noise-events.js';

export function noiseLines(view: SessionView): string[] {
  const out: string[] = [];
  if (view.noise) out.push(noiseLine(view.noise));
  const confirming = view.stages.find((s) => s.confirming && !s.verdict);
  if (confirming?.confirming) out.push(`confirming (${confirming.name}): ${confirming.confirming.why}`);
  return out;
}
