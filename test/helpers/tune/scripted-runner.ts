// A runner for runSession that launches nothing: each variant "measures" the throughput a test
// gives it (or fails with a reason), so stage logic, resume, skip and stop run without processes.
import type { BenchMetrics } from '../../../src/core/metrics.js';
import type { Failure, VariantResult } from '../../../src/core/events.js';
import type { Variant } from '../../../src/core/variant.js';
import type { Scenario } from '../../../src/core/scenario.js';
import type { RunRequest, ScenarioRunner } from '../../../src/tune/context/session-context.js';

export function metricsFor(total: number): BenchMetrics {
  return {
    duration: 10,
    completed: 20,
    failed: 0,
    total_input_tokens: total * 5,
    total_output_tokens: total * 5,
    request_throughput: total / 400,
    request_goodput: null,
    output_throughput: total / 2,
    total_token_throughput: total,
    max_output_tokens_per_s: total,
    max_concurrent_requests: 20,
    mean_ttft_ms: 200,
    median_ttft_ms: 190,
    p99_ttft_ms: 400,
    mean_tpot_ms: 15,
    median_tpot_ms: 15,
    p99_tpot_ms: 20,
    mean_itl_ms: 15,
    median_itl_ms: 15,
    p99_itl_ms: 20,
    mean_e2el_ms: 3000,
    median_e2el_ms: 3000,
    p99_e2el_ms: 4000,
  } as unknown as BenchMetrics;
}

export type Outcome = number | Failure;

export interface ScriptedRunner {
  run: ScenarioRunner;
  /** One entry per call: "stage:variant:scenario+scenario". */
  calls: string[];
}

/**
 * `outcomes` by variant id (a throughput, or a failure); `fallback` for ids not listed.
 * `during` runs inside each call, before the result (to press skip or stop like a user).
 */
export function scriptedRunner(
  outcomes: Record<string, Outcome>,
  fallback: Outcome = 1000,
  during?: (v: Variant, req: RunRequest) => void,
): ScriptedRunner {
  const calls: string[] = [];
  const run: ScenarioRunner = async (variant, scenarios, req) => {
    calls.push(`${req.stage}:${variant.id}:${scenarios.map((s) => s.name).join('+')}`);
    during?.(variant, req);
    await Promise.resolve();
    return scenarios.map((s) =>
      resultOf(
        variant,
        s,
        req,
        req.skipSignal.aborted ? { kind: 'skipped', reason: 'skipped by the user' } : (outcomes[variant.id] ?? fallback),
      ),
    );
  };
  return { run, calls };
}

function resultOf(variant: Variant, s: Scenario, req: RunRequest, outcome: Outcome): VariantResult {
  const base = {
    variantId: variant.id,
    stage: req.stage,
    scenario: s.name,
    variant,
    argv: ['sim-serve', variant.id],
    startedAt: 'a',
    finishedAt: 'b',
    simulated: true,
  };
  if (typeof outcome !== 'number') return { ...base, status: outcome.kind === 'skipped' ? 'skipped' : 'failed', failure: outcome };
  return { ...base, status: 'ok', metrics: metricsFor(outcome), startupS: 30, ...(req.predicted ? { predicted: req.predicted } : {}) };
}
