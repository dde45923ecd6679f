// The shapes of a measured sweep: one variant's points. Pure data, shared by the frontier, the
// record in a profile, the charts and the runner that measures them (src/tune/sweep/sweep-run.ts).
import type { SweepLoad } from './spec.js';

export interface SweepPoint {
  load: SweepLoad;
  /** The point's scenario key (journal key part), e.g. "sharegpt-like@c64-n512". */
  scenario: string;
  numPrompts: number;
  status: 'ok' | 'failed' | 'not-run';
  metrics?: Record<string, unknown>;
  /** Why it failed or was not run. */
  reason?: string;
  /** Broken SLO rules (empty when all hold). */
  violations: string[];
  /** Taken from the journal of an earlier, interrupted run. */
  resumed?: boolean;
}

export interface VariantSweep {
  variantId: string;
  label: string;
  points: SweepPoint[];
  /** Why the sweep ended before its last level, when it did. */
  stopped?: string;
}
