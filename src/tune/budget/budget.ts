// A session's budget: the limit in host GPU-hours, validation's share kept back first,
// what is spent (the session's cost ledger, src/tune/cost/ledger.ts) and what a launch is
// estimated to cost (src/tune/plan/estimate-time.ts, on the session's clock: simulated time on
// the simulated host, like the ledger). A launch is paid for the whole host: the host's GPUs
// x its estimated time, since the ledger counts an idle GPU too.
import type { BudgetPlan, BudgetSkip, BudgetState } from '../../core/budget-events.js';
import type { VariantGpuTime } from '../../core/events.js';
import type { Predicted } from '../../core/predicted.js';
import type { Scenario } from '../../core/scenario.js';
import type { SessionConfig } from '../config/config.js';
import { launchSeconds, validationSeconds, workloadSeconds, type EstimateHost } from '../plan/estimate-time.js';
import { stageScenario } from '../plan/replica.js';
import type { Plan, PlannedVariant } from '../plan/types.js';
import { ETA, MIN_SCREEN_PROMPTS } from './rule.js';
import { UserError } from '../../core/errors.js';

export const BUDGET_RULE = `each engine's predicted path launched in the engine stage; not launched when the calibrated upper bound stays below the leader by more than the margin; screening by successive halving (eta ${ETA}, short runs of ceil(n/${ETA}) prompts, at least ${MIN_SCREEN_PROMPTS}) where it costs less than full runs; validation's share kept back`;

/** The budget in host GPU-hours: --budget, or --budget-wall x the host's GPUs, the smaller when both are given. */
export function budgetLimitGpuHours(b: NonNullable<SessionConfig['budget']>, hostGpus: number): number {
  const wall = b.wallS !== undefined ? (b.wallS * Math.max(hostGpus, 1)) / 3600 : Infinity;
  return Math.min(b.gpuHours ?? Infinity, wall);
}

/** The session's clock for costs: the plan's GPUs without the simulated clock's speed-up (simulated seconds there). */
export function costHost(plan: Pick<Plan, 'host'>): EstimateHost {
  return { gpu: plan.host.gpuName, gpus: plan.host.gpuCount };
}

const gpuHours = (s: number, hostGpus: number) => (s * Math.max(hostGpus, 1)) / 3600;

/** One launch's estimated cost: start-up plus `fraction` of the workload, x the host's GPUs. */
export function launchGpuHours(
  p: Pick<PlannedVariant, 'variant' | 'predicted' | 'weights'>,
  scenario: Scenario,
  host: EstimateHost,
  fraction = 1,
): { startup: number; bench: number; total: number } {
  const startup = gpuHours(launchSeconds(p.variant, host, p.weights?.kind === 'dummy'), host.gpus);
  const bench = gpuHours(workloadSeconds(scenario, p.predicted, host), host.gpus) * fraction;
  return { startup, bench, total: startup + bench };
}

/** The plan's projection: every planned variant in full plus validation, against the budget. */
export function planBudget(
  plan: Plan,
  config: SessionConfig,
  predict: (v: PlannedVariant['variant'], s: Scenario) => Predicted | undefined,
): BudgetPlan | undefined {
  if (!config.budget) return undefined;
  const host = costHost(plan);
  const validationGpuHours = gpuHours(validationSeconds(plan, host, predict), host.gpus);
  let stagesGpuHours = 0;
  for (const s of plan.stages)
    for (const v of s.variants)
      // A predicted path (predicted-path.ts) is the budget's own launch, not the full protocol's.
      if (v.status === 'planned' && !v.predictedPath)
        stagesGpuHours += launchGpuHours(v, stageScenario(plan.scenario, plan.replica, v.stage), host).total;
  const limitGpuHours = budgetLimitGpuHours(config.budget, host.gpus);
  if (limitGpuHours <= validationGpuHours) {
    throw new UserError(
      `the budget (${fmt(limitGpuHours)} host GPU-h) does not cover validation's estimated ${fmt(validationGpuHours)} GPU-h: give more than that (the full protocol is about ${fmt(stagesGpuHours + validationGpuHours)}), or --validation none`,
    );
  }
  return {
    limitGpuHours,
    ...(config.budget.wallS !== undefined ? { wallS: config.budget.wallS } : {}),
    validationGpuHours,
    fullProtocolGpuHours: stagesGpuHours + validationGpuHours,
    rule: BUDGET_RULE,
    simulated: plan.host.simulated,
  };
}

/** What the session spends against its budget; `spent` reads the cost ledger's host GPU-hours. */
export class BudgetTracker {
  readonly skipped: BudgetSkip[] = [];
  /** Measured over estimated cost of this session's complete launches. */
  private readonly ratios: number[] = [];

  constructor(
    readonly plan: BudgetPlan,
    private readonly spent: () => number,
    private readonly hostGpus = 1,
  ) {}

  /**
   * What this session's launches cost against the plan's estimate: the median of measured /
   * estimated over its complete launches, 1 before the first. The plan's estimates are the prior
   * model's (start-up, warm-up, the workload at the predicted rate); on a real host they can be
   * several times off (llama.cpp: a 20 s estimate for a launch that took 5 s), and a budget spent
   * on them would stop with much of it unused. Every cost the rule reads, validation's kept-back
   * share included, is scaled by it.
   */
  ratio(): number {
    if (!this.ratios.length) return 1;
    const r = [...this.ratios].sort((a, b) => a - b);
    const m = Math.floor(r.length / 2);
    return r.length % 2 ? r[m]! : (r[m - 1]! + r[m]!) / 2;
  }

  /** A launch's estimate (host GPU-hours) as this session's launches have turned out. */
  estimate(gpuHours: number): number {
    return gpuHours * this.ratio();
  }

  /** Learn from one complete launch: its estimate and its measured start-up and benchmark time. */
  learn(estimatedGpuHours: number, measured: Pick<VariantGpuTime, 'startupS' | 'benchmarkS'> | undefined): void {
    if (!measured || !(estimatedGpuHours > 0)) return;
    const got = gpuHours(measured.startupS + measured.benchmarkS, this.hostGpus);
    if (got > 0) this.ratios.push(got / estimatedGpuHours);
  }

  /** Validation's kept-back share, as this session's launches have turned out. */
  validation(): number {
    return this.estimate(this.plan.validationGpuHours);
  }

  /** Host GPU-hours later stage launches may still spend (validation's share already kept back). */
  left(): number {
    return this.plan.limitGpuHours - this.validation() - this.spent();
  }

  canPay(gpuHoursNeeded: number): boolean {
    return gpuHoursNeeded <= this.left() + 1e-9;
  }

  state(): BudgetState {
    const spent = this.spent();
    return {
      limitGpuHours: this.plan.limitGpuHours,
      validationGpuHours: this.validation(),
      spentGpuHours: spent,
      leftGpuHours: this.left(),
      simulated: this.plan.simulated,
    };
  }

  /** "the budget left (0.12 GPU-h, validation's 0.40 kept back) cannot pay for its run (est. 0.31 GPU-h)". */
  cannotPay(what: string, needed: number): string {
    return `the budget left (${fmt(Math.max(0, this.left()))} GPU-h, validation's ${fmt(this.validation())} kept back) cannot pay for ${what} (est. ${fmt(needed)} GPU-h)`;
  }
}

const fmt = (h: number) => (h >= 10 ? h.toFixed(1) : h >= 0.1 ? h.toFixed(2) : h.toFixed(3));
