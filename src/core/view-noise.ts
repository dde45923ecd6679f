// The noise part of the projection: the host's noise as the core last measured it, and each
// stage's confirmation in reverse order while it runs (cleared by the stage's verdict).
import type { NoiseEvent } from './noise-events.js';
import type { SessionView, StageView } from './session-view.js';

export function applyNoiseEvent(view: SessionView, e: NoiseEvent): SessionView {
  if (e.type === 'noise-measured') return { ...view, noise: e.noise };
  const confirming = { variantIds: e.variantIds, why: e.why };
  const i = view.stages.findIndex((s) => s.name === e.stage);
  if (i < 0) return view;
  const stages = view.stages.map((s, j): StageView => (j === i ? { ...s, confirming } : s));
  return { ...view, stages };
}
