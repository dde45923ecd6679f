// Sweep one variant: launch it once through a scenario runner (runVariantScenarios: one server,
// several benchmarks), one point per load level, each journaled as soon as the runner reports it
// (its onResult hook) so `--resume` keeps it. A point that breaks the SLO (or fails) ends the
// sweep at once through the skip signal: higher loads will not meet it, unless sweepAll.
import type { VariantResult } from '../../core/events.js';
import type { Variant } from '../../core/variant.js';
import type { Journal } from '../context/journal.js';
import { scenarioKey } from '../launch/workloads.js';
import type { Scenario } from '../../core/scenario.js';
import type { ScenarioRunner } from '../context/session-context.js';
import { sloViolations } from '../../core/slo.js';
import type { SloRule } from '../../core/slo-rule.js';
import type { BenchMetrics } from '../../core/metrics.js';
import { loadLabel, sweepScenarios, type SweepScenario, type SweepSpec } from '../../sweep/spec.js';
import type { SweepPoint, VariantSweep } from '../../sweep/types.js';

export interface SweepContext {
  /** Launches the variant once and benchmarks each point (the session's runner, or runVariantScenarios). */
  run: ScenarioRunner;
  /** Stage name the results carry ('sweep'). */
  stage: string;
  slo: readonly SloRule[];
  journal?: Journal;
  sweepAll: boolean;
  /** Prompts per point instead of pointPrompts' choice. */
  prompts?: number;
  /** The user's skip for this variant (its server is stopped, the rest not run). */
  skipSignal?: AbortSignal;
  /** Each point as it is measured (live chart, progress lines, events). */
  onPoint?: (variantId: string, point: SweepPoint) => void;
}

function pointOf(s: SweepScenario, r: Pick<VariantResult, 'status' | 'metrics' | 'failure'>, ctx: SweepContext): SweepPoint {
  const base = { load: s.load, scenario: scenarioKey(s), numPrompts: s.numPrompts };
  if (r.status !== 'ok' || !r.metrics) {
    return { ...base, status: r.status === 'failed' ? 'failed' : 'not-run', reason: r.failure?.reason ?? r.status, violations: [] };
  }
  const metrics = r.metrics as unknown as Record<string, unknown>;
  return { ...base, status: 'ok', metrics, violations: sloViolations(r.metrics as BenchMetrics, ctx.slo) };
}

/** Why this point ends the sweep, or null when the next level should run. */
function breaks(p: SweepPoint, ctx: SweepContext): string | null {
  if (ctx.sweepAll) return null;
  if (p.status === 'failed') return `${loadLabel(p.load)} failed (${p.reason}); higher loads were not run`;
  if (p.violations.length) return `${loadLabel(p.load)} broke the SLO (${p.violations.join('; ')}); higher loads were not run`;
  return null;
}

/** Sweep `variant` over `spec`'s levels on the workload `base`. Throws the runner's AbortedError on abort. */
export async function sweepVariant(
  variant: Variant,
  label: string,
  base: Scenario,
  spec: SweepSpec,
  ctx: SweepContext,
): Promise<VariantSweep> {
  const all = sweepScenarios(base, spec, ctx.prompts);
  const sweep: VariantSweep = { variantId: variant.id, label, points: [] };
  const todo: SweepScenario[] = [];
  for (const s of all) {
    const hit = todo.length || sweep.stopped ? undefined : ctx.journal?.find(variant.id, scenarioKey(s), 0);
    if (hit) {
      const p = { ...pointOf(s, hit.result, ctx), resumed: true };
      sweep.points.push(p);
      ctx.onPoint?.(variant.id, p);
      sweep.stopped = breaks(p, ctx) ?? undefined;
    } else if (!sweep.stopped) todo.push(s);
  }
  if (todo.length) await runPoints(variant, todo, sweep, ctx);
  // Levels after an early stop are listed as not run, so tables and the profile show them.
  for (const s of all.slice(sweep.points.length)) {
    sweep.points.push({
      load: s.load,
      scenario: scenarioKey(s),
      numPrompts: s.numPrompts,
      status: 'not-run',
      reason: sweep.stopped ?? 'not reached',
      violations: [],
    });
  }
  // A break at the last level stopped nothing: there was no higher load to skip.
  if (sweep.stopped && !sweep.points.some((p) => p.status === 'not-run')) delete sweep.stopped;
  return sweep;
}

/**
 * Run `todo` on one launch. The runner reports each point as it finishes (onResult): it is
 * journaled there, and a point that breaks the SLO stops the rest through the skip signal.
 */
async function runPoints(variant: Variant, todo: SweepScenario[], sweep: VariantSweep, ctx: SweepContext): Promise<void> {
  const skip = new AbortController();
  const seen = new Map<number, SweepPoint>();
  const take = (k: number, r: VariantResult) => {
    const s = todo[k];
    if (!s || seen.has(k) || r.status === 'skipped') return;
    // An aborted benchmark measured nothing worth keeping; a failure is kept (resume skips it).
    if (r.status === 'ok' || r.failure?.kind !== 'aborted') ctx.journal?.record('tune', 0, { ...r, stage: ctx.stage }, scenarioKey(s));
    const p = pointOf(s, r, ctx);
    seen.set(k, p);
    ctx.onPoint?.(variant.id, p);
    const why = breaks(p, ctx);
    if (why && !sweep.stopped) {
      sweep.stopped = why;
      skip.abort();
    }
  };
  const skipSignal = ctx.skipSignal ? AbortSignal.any([ctx.skipSignal, skip.signal]) : skip.signal;
  const results = await ctx.run(variant, todo, { stage: ctx.stage, skipSignal, onResult: take });
  for (const [k, r] of results.entries()) {
    // A runner without onResult, or a launch that failed (every point failed alike).
    if (!sweep.stopped) take(k, r);
    const p = seen.get(k);
    if (!p) break;
    sweep.points.push(p);
  }
}
