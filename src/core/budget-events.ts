// The budget's part of the event stream (`--budget GPU-HOURS`, `--budget-wall D`):
// what the plan projects against the budget, the budget left after each launch, and every
// variant the budget rule did not launch or screened out, with why. The tuning core decides all
// of it (src/tune/budget, src/tune/stage/budget-stage.ts); views only file it (view-budget.ts).

/** The plan's projection: the full protocol's estimated cost against the budget. */
export interface BudgetPlan {
  /** The budget in host GPU-hours (--budget, or --budget-wall x the host's GPUs, the smaller). */
  limitGpuHours: number;
  /** --budget-wall, seconds, when given. */
  wallS?: number;
  /** Validation's estimated cost, kept back before any stage runs. */
  validationGpuHours: number;
  /** Every planned variant in full, plus validation, as estimated today (estimate-time.ts). */
  fullProtocolGpuHours: number;
  /** The successive-halving and skip rule in one line (budget/rule.ts). */
  rule: string;
  /** Estimates are in simulated time on the simulated host. */
  simulated: boolean;
}

/** Where the budget stands after a launch (or when the session opens). */
export interface BudgetState {
  limitGpuHours: number;
  validationGpuHours: number;
  /** Host GPU-hours spent so far (the session's cost ledger). */
  spentGpuHours: number;
  /** limit - validation - spent: what later stage launches may spend. */
  leftGpuHours: number;
  simulated: boolean;
}

/** Why the budget rule kept a variant from its (full) run. */
export type BudgetSkipKind = 'not-launched' | 'screened-out' | 'no-budget';

export interface BudgetSkip {
  variantId: string;
  stage: string;
  kind: BudgetSkipKind;
  /** The row's words, e.g. "not launched: predicted -18% +-6%, calibrated on 5 variants of this host". */
  why: string;
}

export type BudgetEvent =
  | {
      type: 'budget-state';
      state: BudgetState;
      /** The decision that came with it ("next stage: batching, expected +2.1% for 0.31 GPU-h"). */ note?: string;
    }
  | { type: 'budget-skip'; skip: BudgetSkip }
  | {
      type: 'budget-screened';
      stage: string;
      /** Short runs: prompts of the full workload's. */ prompts: number;
      of: number;
      rows: { variantId: string; totalTokPerS: number | null; kept: boolean }[];
      rule: string;
    };
