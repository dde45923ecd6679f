// The capacity part of the session projection (`--capacity RULES`): the search on the winner's
// server, each probe with its verdict in the order it ran, the probe running now, and the answer
// with the failing probe, the rule that broke first and goodput. Pure: it files what the
// capacity-* events carry and decides nothing.
import type { CapacityAnswerInfo, CapacityEvent, CapacityProbeInfo } from './capacity-events.js';

/** What the search was asked, as capacity-started carries it. */
type CapacityStart = Omit<Extract<CapacityEvent, { type: 'capacity-started' }>, 'type'>;

export interface CapacityView extends CapacityStart {
  /** Judged probes, in the order they ran. */
  probes: CapacityProbeInfo[];
  /** The probe being measured now. */
  running?: { index: number; load: number; numPrompts: number; done?: number; line?: string };
  /** Once the search ended. */
  result?: CapacityAnswerInfo & { error?: string };
}

export function applyCapacityEvent(view: CapacityView | undefined, e: CapacityEvent): CapacityView | undefined {
  if (e.type === 'capacity-started') {
    const { type: _t, ...start } = e;
    return { ...start, probes: [] };
  }
  if (!view) return view;
  switch (e.type) {
    case 'capacity-probe-started':
      return { ...view, running: { index: e.index, load: e.load, numPrompts: e.numPrompts } };
    case 'capacity-probe-progress':
      return view.running?.index === e.index ? { ...view, running: { ...view.running, done: e.done, line: e.line } } : view;
    case 'capacity-probe': {
      const { type: _t, variantId: _v, ...probe } = e;
      const { running: _r, ...rest } = view;
      return { ...rest, probes: [...view.probes, probe] };
    }
    case 'capacity-finished': {
      const { type: _t, variantId: _v, ...result } = e;
      const { running: _r, ...rest } = view;
      return { ...rest, result };
    }
  }
}

/** The load in the view's words: "16 concurrent", "12.5 req/s". */
export function capacityLoadText(by: CapacityView['by'], load: number): string {
  return by === 'concurrency' ? `${load} concurrent` : `${load} req/s`;
}
