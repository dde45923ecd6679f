// A runner for runSession that launches nothing and whose figures depend on the load: each
// scenario's concurrency (from its name, `@c32`; none = every request at once) goes through the
// test's own model, so the staged search and the sweep can rank variants differently. It reports
// each scenario through onResult and honours the skip signal between scenarios, as the real one.
import type { BenchMetrics } from '../../../src/core/metrics.js';
import type { VariantResult } from '../../../src/core/events.js';
import { AbortedError } from '../../../src/core/aborted.js';
import type { ScenarioRunner } from '../../../src/tune/context/session-context.js';

/** Output tok/s (all GPUs) and mean TPOT of a variant at a concurrency (null: all at once). */
export type LoadModel = (variantId: string, concurrency: number | null) => { output: number; tpotMs: number };

export function loadMetrics(output: number, tpotMs: number): BenchMetrics {
  return {
    duration: 10,
    completed: 32,
    failed: 0,
    total_input_tokens: output * 10,
    total_output_tokens: output * 10,
    request_throughput: output / 200,
    request_goodput: null,
    output_throughput: output,
    total_token_throughput: output * 2,
    max_output_tokens_per_s: output,
    max_concurrent_requests: 32,
    mean_ttft_ms: 100,
    median_ttft_ms: 90,
    p99_ttft_ms: 300,
    mean_tpot_ms: tpotMs,
    median_tpot_ms: tpotMs,
    p99_tpot_ms: tpotMs * 1.2,
    mean_itl_ms: tpotMs,
    median_itl_ms: tpotMs,
    p99_itl_ms: tpotMs * 1.2,
    mean_e2el_ms: 2000,
    median_e2el_ms: 2000,
    p99_e2el_ms: 3000,
  } as unknown as BenchMetrics;
}

export interface LoadRunner {
  run: ScenarioRunner;
  /** Every scenario benchmarked: "stage:variant:scenario". */
  benched: string[];
}

/** `abort` is the session's abort: checked before each scenario, as the real runner does. */
export function loadRunner(model: LoadModel, abort?: AbortSignal): LoadRunner {
  const benched: string[] = [];
  const run: ScenarioRunner = async (variant, scenarios, req) => {
    const out: VariantResult[] = [];
    for (const [i, s] of scenarios.entries()) {
      await Promise.resolve();
      if (abort?.aborted) throw new AbortedError();
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
      if (req.skipSignal.aborted) {
        out.push({ ...base, status: 'skipped', failure: { kind: 'skipped', reason: 'not reached' } });
        continue;
      }
      benched.push(`${req.stage}:${variant.id}:${s.name}`);
      const c = /@c(\d+)$/.exec(s.name);
      const m = model(variant.id, c ? Number(c[1]) : (s.maxConcurrency ?? null));
      const r: VariantResult = { ...base, status: 'ok', metrics: loadMetrics(m.output, m.tpotMs), startupS: 30 };
      out.push(r);
      req.onResult?.(i, r);
    }
    return out;
  };
  return { run, benched };
}
