// The budget's part of the session projection: the plan's projection, the budget left
// after the last launch, the order note, every variant the budget kept from its run and each
// stage's screening. Pure: it files what the core decided (src/tune/stage/budget-stage.ts).
import type { BudgetEvent, BudgetPlan, BudgetSkip, BudgetState } from './budget-events.js';
import type { TuneEvent } from './events.js';

export interface BudgetView {
  plan?: BudgetPlan;
  state?: BudgetState;
  /** The core's last word on the order ("next stage: batching (expected +2.1% for 0.31 GPU-h)"). */
  note?: string;
  skipped: BudgetSkip[];
  screens: Extract<BudgetEvent, { type: 'budget-screened' }>[];
}

export function isBudgetEvent(e: TuneEvent): e is BudgetEvent {
  return e.type === 'budget-state' || e.type === 'budget-skip' || e.type === 'budget-screened';
}

/** The plan's projection, when the plan carries one (plan-ready). */
export function budgetFromPlan(view: BudgetView | undefined, plan: BudgetPlan | undefined): BudgetView | undefined {
  return plan ? { skipped: [], screens: [], ...view, plan } : view;
}

export function applyBudgetEvent(view: BudgetView | undefined, e: BudgetEvent): BudgetView {
  const v: BudgetView = view ?? { skipped: [], screens: [] };
  switch (e.type) {
    case 'budget-state':
      return { ...v, state: e.state, ...(e.note ? { note: e.note } : {}) };
    case 'budget-skip':
      return { ...v, skipped: [...v.skipped.filter((s) => s.variantId !== e.skip.variantId || s.stage !== e.skip.stage), e.skip] };
    case 'budget-screened':
      return { ...v, screens: [...v.screens, e] };
  }
}

const gpuH = (h: number) => (h >= 100 ? h.toFixed(0) : h >= 10 ? h.toFixed(1) : h.toFixed(2));
const clock = (simulated: boolean) => (simulated ? 'simulated time' : 'wall clock');

/** "budget: 3.00 host GPU-h; full protocol projected 7.10 GPU-h (2.4x the budget), validation's 0.90 kept back first". */
export function budgetPlanText(p: BudgetPlan): string {
  const wall = p.wallS !== undefined ? ` (--budget-wall ${Math.round(p.wallS / 60)} min)` : '';
  const ratio = p.limitGpuHours > 0 ? p.fullProtocolGpuHours / p.limitGpuHours : Infinity;
  const fits = ratio <= 1 ? 'fits' : `${ratio.toFixed(1)}x the budget`;
  return `budget: ${gpuH(p.limitGpuHours)} host GPU-h${wall}; the full protocol is projected at ${gpuH(p.fullProtocolGpuHours)} GPU-h (${fits}); validation's ${gpuH(p.validationGpuHours)} GPU-h is kept back first [${clock(p.simulated)}]`;
}

/** "budget left 1.20 of 3.00 GPU-h (spent 1.40, validation's 0.40 kept back)". */
export function budgetLeftText(s: BudgetState): string {
  return `budget left ${gpuH(Math.max(0, s.leftGpuHours))} of ${gpuH(s.limitGpuHours)} GPU-h (spent ${gpuH(s.spentGpuHours)}, validation's ${gpuH(s.validationGpuHours)} kept back; ${clock(s.simulated)})`;
}
