// A simulated host with seeded run-to-run noise, for the noise rule's benchmarks (tie-honesty.ts,
// noise-cost.ts): a whole tuning session (runSession: the stage loop, confirmations, decisions)
// whose runner measures nothing and returns each variant's true throughput times a seeded random
// factor. Nothing else about a run is random, so what the session decides is the rule's doing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent, VariantResult } from '../src/core/events.js';
import type { BenchMetrics } from '../src/core/metrics.js';
import { parseAutoArgs } from '../src/cli/auto-args.js';
import { runSession } from '../src/tune/session/session.js';
import type { ScenarioRunner } from '../src/tune/context/session-context.js';

/** mulberry32: a small seeded generator. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type NoiseShape = 'normal' | 'uniform';

/** One run's factor: normal with sd = band / 2 (95% of runs within ±band), or uniform in ±band. */
export function noiseFactor(r: () => number, bandPct: number, shape: NoiseShape): number {
  if (shape === 'uniform') return 1 + ((r() * 2 - 1) * bandPct) / 100;
  const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  return 1 + (z * bandPct) / 2 / 100;
}

function metrics(total: number): BenchMetrics {
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
    // Noisy, as the real figure is: a tie-break on it would follow the noise.
    p99_tpot_ms: 20,
    mean_itl_ms: 15,
    median_itl_ms: 15,
    p99_itl_ms: 20,
    mean_e2el_ms: 3000,
    median_e2el_ms: 3000,
    p99_e2el_ms: 4000,
  } as unknown as BenchMetrics;
}

/** A one-stage session of two engines on the simulated host: vLLM (the plan's first) against SGLang. */
export const TWO_ENGINE_ARGS: readonly string[] = [
  '--sim',
  '--model',
  'Qwen/Qwen3-14B',
  '--engines',
  'vllm,sglang',
  '--stages',
  'engine',
  '--scale',
  '0.02',
  '--validation',
  'sharegpt-like',
];

export interface NoisySession {
  events: TuneEvent[];
  /** Launches of the tuning stages (validation's left out: the same either way). */
  launches: number;
}

/** Run one session on the simulated plan `args`, each variant's truth from `truth`, its runs noisy. */
export async function noisySession(
  args: readonly string[],
  truth: (variantId: string) => number,
  o: { seed: number; bandPct: number; shape: NoiseShape },
): Promise<NoisySession> {
  const dir = mkdtempSync(join(tmpdir(), 'servelab-noise-'));
  const r = rng(o.seed);
  let clock = Date.parse('2026-01-01T00:00:00Z');
  let launches = 0;
  const run: ScenarioRunner = async (variant, scenarios, req) => {
    if (!req.stage.startsWith('validation')) launches++;
    await Promise.resolve();
    return scenarios.map((s): VariantResult => {
      clock += 60_000;
      const p99 = 20 * noiseFactor(r, 30, 'normal');
      const total = truth(variant.id) * noiseFactor(r, o.bandPct, o.shape);
      return {
        variantId: variant.id,
        stage: req.stage,
        scenario: s.name,
        variant,
        argv: ['sim-serve', variant.id],
        startedAt: new Date(clock).toISOString(),
        finishedAt: new Date(clock + 30_000).toISOString(),
        simulated: true,
        status: 'ok',
        metrics: { ...metrics(total), p99_tpot_ms: p99 },
        startupS: 30,
      };
    });
  };
  const { config } = parseAutoArgs([...args, '--out', dir, '--run-dir', join(dir, 'run')]);
  const events: TuneEvent[] = [];
  try {
    await runSession(config!, { runner: run, onEvent: (e) => events.push(e) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { events, launches };
}

export type StageFinished = Extract<TuneEvent, { type: 'stage-finished' }>;

export function stageVerdicts(events: readonly TuneEvent[]): StageFinished[] {
  return events.filter((e): e is StageFinished => e.type === 'stage-finished');
}
