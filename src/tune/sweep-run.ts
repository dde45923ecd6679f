// Sweep one variant: launch it once through the tuning runner (runVariantScenarios: one server,
// several benchmarks), one point per load level, each journaled as soon as it is measured so
// `--resume` keeps it. A point that breaks the SLO (or fails) ends the sweep: higher loads will
// not meet it, unless sweepAll.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { TuneEvent, VariantResult } from '../core/events.js';
import { UserError } from '../core/errors.js';
import type { Variant } from '../core/variant.js';
import type { Journal } from './journal.js';
import { runVariantScenarios, scenarioKey, type RunVariantContext } from './runner.js';
import type { Scenario } from './scenarios.js';
import { sloViolations } from '../core/slo.js';
import type { BenchMetrics } from '../bench/types.js';
import { loadLabel, sweepScenarios, type SweepLoad, type SweepScenario, type SweepSpec } from '../sweep/spec.js';
import type { SweepPoint, VariantSweep } from '../sweep/types.js';
export type { SweepPoint, VariantSweep } from '../sweep/types.js';

export interface SweepContext extends RunVariantContext {
  /** Required: the runner writes each point's vLLM JSON here, which is how a point is seen finished. */
  benchDir: string;
  journal?: Journal;
  sweepAll: boolean;
  /** Prompts per point instead of pointPrompts' choice. */
  prompts?: number;
  /** Each point as it is measured (live chart, progress lines). */
  onPoint?: (variantId: string, point: SweepPoint) => void;
}

/** Rate sweeps need the runner to pass a scenario's request rate to the benchmark; it does not yet. */
export const RATE_SWEEP_PENDING =
  'rate sweeps are not available yet (the tuning runner sends every request at once or at a max concurrency); use --sweep concurrency:LEVELS';

const METRIC_KEY = /^(duration|completed|failed|total_input_tokens|total_output_tokens|request_throughput|request_goodput|output_throughput|total_token_throughput|max_output_tokens_per_s|max_concurrent_requests)$|_(ttft|tpot|itl|e2el)_ms$/;

/** The metrics of a vLLM --save-result JSON (the keys BenchMetrics has), or null when absent or aborted. */
export function metricsFromBenchJson(file: string): Record<string, unknown> | null {
  if (!existsSync(file)) return null;
  try {
    const j = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    if (j.aborted) return null;
    return Object.fromEntries(Object.entries(j).filter(([k]) => METRIC_KEY.test(k)));
  } catch {
    return null;
  }
}

function pointOf(s: SweepScenario, r: Pick<VariantResult, 'status' | 'metrics' | 'failure'>, ctx: SweepContext): SweepPoint {
  const base = { load: s.load, scenario: scenarioKey(s), numPrompts: s.numPrompts };
  if (r.status !== 'ok' || !r.metrics) {
    return { ...base, status: r.status === 'failed' ? 'failed' : 'not-run', reason: r.failure?.reason ?? r.status, violations: [] };
  }
  const metrics = r.metrics as unknown as Record<string, unknown>;
  return { ...base, status: 'ok', metrics, violations: sloViolations(r.metrics as BenchMetrics, ctx.config.slo) };
}

/** Why this point ends the sweep, or null when the next level should run. */
function breaks(p: SweepPoint, ctx: SweepContext): string | null {
  if (ctx.sweepAll) return null;
  if (p.status === 'failed') return `${loadLabel(p.load)} failed (${p.reason}); higher loads were not run`;
  if (p.violations.length) return `${loadLabel(p.load)} broke the SLO (${p.violations.join('; ')}); higher loads were not run`;
  return null;
}

/** Sweep `variant` over `spec`'s levels on the workload `base`. Throws the runner's AbortedError on abort. */
export async function sweepVariant(variant: Variant, label: string, base: Scenario, spec: SweepSpec, ctx: SweepContext): Promise<VariantSweep> {
  if (spec.kind === 'rate') throw new UserError(RATE_SWEEP_PENDING);
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
    sweep.points.push({ load: s.load, scenario: scenarioKey(s), numPrompts: s.numPrompts, status: 'not-run', reason: sweep.stopped ?? 'not reached', violations: [] });
  }
  // A break at the last level stopped nothing: there was no higher load to skip.
  if (sweep.stopped && !sweep.points.some((p) => p.status === 'not-run')) delete sweep.stopped;
  return sweep;
}

/**
 * Run `todo` on one launch. The runner reports a scenario's result only when all are done, so a
 * point is seen finished when the next one starts (its vLLM JSON is then on disk): it is
 * journaled there, and a point that breaks the SLO stops the variant through the skip signal.
 */
async function runPoints(variant: Variant, todo: SweepScenario[], sweep: VariantSweep, ctx: SweepContext): Promise<void> {
  // A JSON left by an interrupted earlier run must not pass for this run's measurement.
  const jsonOf = (s: Scenario) => join(ctx.benchDir, `${variant.id}-${scenarioKey(s)}.json`);
  for (const s of todo) rmSync(jsonOf(s), { force: true });
  const skip = new AbortController();
  const seen = new Map<number, SweepPoint>();
  let argv: string[] = [];
  let startupS: number | undefined;
  const harvest = (k: number) => {
    const s = todo[k]!;
    const metrics = metricsFromBenchJson(jsonOf(s));
    if (!metrics || seen.has(k)) return;
    const ok = (metrics.completed as number) > 0;
    const result: VariantResult = {
      variantId: variant.id, stage: ctx.stage, scenario: s.name, status: ok ? 'ok' : 'failed', variant, argv,
      metrics: metrics as unknown as BenchMetrics,
      ...(ok ? {} : { failure: { kind: 'bench-failed', reason: 'all requests failed' } }),
      ...(startupS !== undefined ? { startupS } : {}),
      ...(ctx.config.sim ? { simulated: true } : {}),
      startedAt: new Date().toISOString(), finishedAt: new Date().toISOString(),
    };
    ctx.journal?.record('tune', 0, result, scenarioKey(s));
    const p = pointOf(s, result, ctx);
    seen.set(k, p);
    ctx.onPoint?.(variant.id, p);
    const why = breaks(p, ctx);
    if (why && !sweep.stopped) {
      sweep.stopped = why;
      skip.abort();
    }
  };
  const emit = (e: TuneEvent) => {
    if (e.type === 'variant-launching') argv = e.argv;
    if (e.type === 'server-ready') startupS = e.startupS;
    if (e.type === 'bench-started' && e.variantId === variant.id) {
      const k = todo.findIndex((s) => s.name === e.scenario);
      if (k > 0) harvest(k - 1);
    }
    ctx.emit(e);
  };
  const signal = ctx.skipSignal ? AbortSignal.any([ctx.skipSignal, skip.signal]) : skip.signal;
  const results = await runVariantScenarios(variant, todo, { ...ctx, emit, skipSignal: signal });
  for (const [k, r] of results.entries()) {
    if (sweep.stopped && !seen.has(k)) break;
    if (!seen.has(k) && r.status !== 'skipped') {
      // The last point (no next start to see it by), or a failure that wrote no JSON.
      if (r.status === 'ok' || r.failure?.kind !== 'aborted') ctx.journal?.record('tune', 0, r, scenarioKey(todo[k]!));
      const p = pointOf(todo[k]!, r, ctx);
      ctx.onPoint?.(variant.id, p);
      seen.set(k, p);
      const why = breaks(p, ctx);
      if (why && !sweep.stopped) sweep.stopped = why;
    }
    const p = seen.get(k);
    if (!p) break;
    sweep.points.push(p);
  }
}
