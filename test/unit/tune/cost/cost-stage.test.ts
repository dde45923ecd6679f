// Cheaper tuning in the stage loop, with no process: parallel waves (GPU sets and ports never overlap,
// one failure does not stop the others, an abort stops all), early stop against the stage leader
// on scripted snapshots, adaptive repeats and the tie rule, and GPU-hours in the view.
import { afterAll, describe, expect, it } from 'vitest';
import type { SampledRequest } from '../../../../src/bench/types.js';
import type { TuneEvent, VariantResult } from '../../../../src/core/events.js';
import { projectSession } from '../../../../src/core/view.js';
import { sessionCostText } from '../../../../src/core/view-cost.js';
import { AbortedError } from '../../../../src/core/aborted.js';
import { earlyStopWatch } from '../../../../src/tune/run/early-stop-run.js';
import type { PlannedVariant } from '../../../../src/tune/plan/types.js';
import type { RunRequest, ScenarioRunner } from '../../../../src/tune/context/session-context.js';
import { measureStage, settleTies } from '../../../../src/tune/stage/measure-stage.js';
import { decideStageVerdict } from '../../../../src/tune/decide/stage-verdict.js';
import { runSession } from '../../../../src/tune/session/session.js';
import { statusText } from '../../../../src/core/result-status.js';
import { okStageResult, plannedTp, removeStageDirs, stageConfig, stageContext } from '../../../helpers/tune/stage-context.js';

afterAll(removeStageDirs);
const ctxFor = stageContext;
const tp = plannedTp;
const okResult = okStageResult;
const config = stageConfig;

describe('parallel variants in a stage', () => {
  it('runs TP1/TP2 variants at once on disjoint GPUs and distinct ports; a failure does not stop the others', async () => {
    const running = new Map<string, { gpus: readonly number[]; port: number }>();
    const overlaps: string[] = [];
    let peak = 0;
    const run: ScenarioRunner = async (v, _s, req) => {
      for (const [id, o] of running) {
        if (o.gpus.some((g) => req.gpuIds?.includes(g))) overlaps.push(`${id} and ${v.id} share a GPU`);
        if (o.port === req.portFrom) overlaps.push(`${id} and ${v.id} share port ${o.port}`);
      }
      running.set(v.id, { gpus: req.gpuIds ?? [], port: req.portFrom ?? -1 });
      peak = Math.max(peak, running.size);
      await new Promise((r) => setTimeout(r, 5));
      running.delete(v.id);
      if (v.id === 'sglang') throw new Error('the runner crashed');
      return [okResult(v, req, v.engine === 'vllm' ? 1000 : 900)];
    };
    const variants = [
      tp('vllm', 1),
      tp('sglang', 1),
      tp('vllm', 2, { maxNumSeqs: 512 }),
      tp('sglang', 4, { maxNumSeqs: 512 }),
      tp('vllm', 4, { maxNumSeqs: 1024 }),
    ];
    const { ctx, events } = ctxFor(run, ['--parallel', '8', '--no-early-stop', '--repeats-max', '1']);
    const out = await measureStage(ctx, variants, null);
    expect(overlaps).toEqual([]);
    expect(peak).toBeGreaterThan(1);
    // Greedy order kept: results come back in the stage's order; the crash is one failed row.
    expect(out.results.map((r) => [r.variantId, r.status])).toEqual(
      variants.map((p) => [p.variant.id, p.variant.id === 'sglang' ? 'failed' : 'ok']),
    );
    expect(out.results[1]!.failure?.reason).toMatch(/the runner crashed/);
    // GPU time in simulated seconds: waves overlap, so the host's wall is less than the sum.
    const cost = ctx.cost.summary();
    expect(cost.variantGpuHours).toBeCloseTo(((1 + 2 + 4 + 4) * 160) / 3600, 5);
    expect(cost.wallS).toBeLessThan(4 * 160);
    expect(cost.summary).toMatch(/simulated time/);
    expect(events.filter((e) => e.type === 'variant-finished')).toHaveLength(5);
  });

  it('an abort stops every running variant and starts no more', async () => {
    const ac = new AbortController();
    const started: string[] = [];
    const run: ScenarioRunner = async (v) => {
      started.push(v.id);
      if (started.length === 2) ac.abort('SIGINT');
      await new Promise<void>((resolve) => (ac.signal.aborted ? resolve() : ac.signal.addEventListener('abort', () => resolve())));
      throw new AbortedError();
    };
    const { ctx } = ctxFor(run, ['--parallel', '2'], ac.signal);
    await expect(measureStage(ctx, [tp('vllm', 1), tp('sglang', 1), tp('vllm', 2)], null)).rejects.toBeInstanceOf(AbortedError);
    expect(started).toEqual(['vllm', 'sglang']);
  });

  it('a skip that names a running variant stops that one, not the one launched last', async () => {
    const started: string[] = [];
    let allUp!: () => void;
    const up = new Promise<void>((r) => (allUp = r));
    const run: ScenarioRunner = async (v, _s, req) => {
      started.push(v.id);
      if (started.length === 3) allUp();
      // Each variant runs until the wave is up, then until skipped or a short while.
      await up;
      const skipped = await new Promise<boolean>((resolve) => {
        // A skip that came before this listener (the test's continuation may run first) still counts.
        if (req.skipSignal.aborted) return resolve(true);
        const t = setTimeout(() => resolve(false), 30);
        req.skipSignal.addEventListener('abort', () => (clearTimeout(t), resolve(true)));
      });
      return [skipped ? { ...okResult(v, req, 0), status: 'skipped' as const, metrics: undefined } : okResult(v, req, 1000)];
    };
    const { ctx } = ctxFor(run, ['--parallel', '3', '--no-early-stop', '--repeats-max', '1']);
    const measuring = measureStage(ctx, [tp('vllm', 1), tp('sglang', 1), tp('vllm', 2)], null);
    await up;
    ctx.control.skipVariant('sglang');
    // Not running (never launched): nothing happens.
    ctx.control.skipVariant('trtllm');
    const out = await measuring;
    expect(started).toEqual(['vllm', 'sglang', 'vllm-tp2']);
    expect(Object.fromEntries(out.results.map((r) => [r.variantId, r.status]))).toEqual({
      vllm: 'ok',
      sglang: 'skipped',
      'vllm-tp2': 'ok',
    });
  });

  it('--parallel off runs one at a time, unpinned', async () => {
    const seen: (readonly number[] | undefined)[] = [];
    const run: ScenarioRunner = async (v, _s, req) => (seen.push(req.gpuIds), [okResult(v, req, 1000)]);
    const { ctx } = ctxFor(run, ['--parallel', 'off']);
    await measureStage(ctx, [tp('vllm', 1), tp('sglang', 1)], null);
    expect(seen).toEqual([undefined, undefined]);
  });
});

/** Snapshots of a run of 20 requests of 100 + 100 tokens at `total` tok/s; aborts when the watch says so. */
async function scriptedBench(req: RunRequest, total: number): Promise<{ stoppedAt: string | null }> {
  const requests = Array.from({ length: 20 }, () => ({ promptLen: 100, expectedOutputLen: 100 }) as SampledRequest);
  const watch = earlyStopWatch(req.earlyStop, requests, req.skipSignal);
  for (let k = 1; k <= 20 && !watch.signal.aborted; k++) {
    watch.push({ elapsedS: (k * 200) / total, total: 20, completed: k, failed: 0 } as never);
    for (let i = 0; i < 5; i++) await Promise.resolve();
  }
  return { stoppedAt: (await watch.settle())?.status ?? null };
}

describe('run order within a stage', () => {
  // Four variants; two tie exactly (same throughput, p99 TPOT and startup), so even the tie rule's
  // last step ("the one listed first") is exercised. Fixed measurements per variant, run in two orders.
  const values: Record<string, number> = { 'vllm-tp8': 1000, 'sglang-tp8': 1200, 'vllm-tp8-mbt-4096': 1200, 'sglang-tp8-mbt-4096': 900 };
  const stage = () => [
    tp('vllm', 8),
    tp('sglang', 8),
    tp('vllm', 8, { maxBatchedTokens: 4096 }),
    tp('sglang', 8, { maxBatchedTokens: 4096 }),
  ];
  async function decided(predicted: (i: number) => number) {
    const calls: string[] = [];
    const run: ScenarioRunner = async (v, _s, req) => (calls.push(v.id), [okResult(v, req, values[v.id]!)]);
    const { ctx } = ctxFor(run, ['--parallel', 'off']);
    const variants = stage().map((p, i) => ({ ...p, predicted: { totalTokPerS: predicted(i) } as PlannedVariant['predicted'] }));
    const measured = await measureStage(ctx, variants, null);
    const settled = await settleTies(ctx, 'engine', null, measured);
    const opts = {
      objective: ctx.config.objective,
      slo: [],
      marginPct: ctx.config.marginPct,
      ...(settled.step ? { repeats: settled.step } : {}),
    };
    const out = decideStageVerdict('engine', null, null, settled.results, opts);
    return {
      calls,
      rows: settled.results.map((r) => [r.variantId, r.metrics?.total_token_throughput]),
      winner: out.verdict.winnerId,
      why: out.verdict.why,
    };
  }

  it('runs the predicted fastest first, and the same measurements give the same winner in any order', async () => {
    const fastFirst = await decided((i) => 1000 * (i + 1));
    const slowFirst = await decided((i) => 1000 * (4 - i));
    expect(fastFirst.calls.slice(0, 4)).toEqual(['sglang-tp8-mbt-4096', 'vllm-tp8-mbt-4096', 'sglang-tp8', 'vllm-tp8']);
    expect(slowFirst.calls.slice(0, 4)).toEqual(['vllm-tp8', 'sglang-tp8', 'vllm-tp8-mbt-4096', 'sglang-tp8-mbt-4096']);
    // Results come back in the listed order; the decision reads only them.
    expect(fastFirst.rows).toEqual(slowFirst.rows);
    expect(fastFirst.rows.map((r) => r[0])).toEqual(stage().map((p) => p.variant.id));
    // The exact tie goes to the one listed first (sglang-tp8), not the one run first.
    expect(fastFirst.winner).toBe('sglang-tp8');
    expect(slowFirst.winner).toBe('sglang-tp8');
    expect(fastFirst.why).toMatch(/tied within noise.*changes the fewest defaults/);
  });
});

describe('early stop on a scripted stage', () => {
  it('stops a loser once it cannot beat the leader, records why, and never lets it win', async () => {
    const seenLeader: (string | undefined)[] = [];
    const run: ScenarioRunner = async (v, _s, req) => {
      seenLeader.push(req.earlyStop?.leaderId);
      const total = v.engine === 'vllm' ? 1000 : 500;
      const { stoppedAt } = await scriptedBench(req, total);
      const r = okResult(v, req, total);
      const m = { ...r.metrics!, total_input_tokens: 2000 };
      // As the runner does: a stopped run keeps the figures it measured, marked partial.
      return [
        stoppedAt
          ? { ...r, status: 'pruned', metrics: m, partial: true, failure: { kind: 'pruned', reason: stoppedAt } }
          : { ...r, metrics: m },
      ];
    };
    const { ctx } = ctxFor(run, ['--parallel', 'off']);
    const out = await measureStage(ctx, [tp('vllm', 8), tp('sglang', 8)], null);
    expect(seenLeader).toEqual([undefined, 'vllm-tp8']);
    // At 6 of 20 (30%, t = 2.4 s) its fastest window (2 requests in 0.8 s) is 2.5 req/s and the rate is level:
    // bound = 4000 tokens / (2.4 + 14 / (2.5 x 1.02)) = 507 tok/s, 49% below the leader's 1000.
    expect(out.results[1]).toMatchObject({
      status: 'pruned',
      partial: true,
      failure: { reason: 'stopped early: at least 49% below the leader at 6/20 requests' },
    });
    expect(statusText(out.results[1]!)).toBe(
      'stopped early: at least 49% below the leader at 6/20 requests (figures partial: the requests finished before the stop)',
    );
    // Its partial figures never make it eligible: only the leader is ranked.
    const settled = await settleTies(ctx, 'engine', null, out);
    expect(settled.step?.ranked.map((r) => r.variantId)).toEqual(['vllm-tp8']);
  });

  it('--no-early-stop gives the runner no leader', async () => {
    const leaders: unknown[] = [];
    const run: ScenarioRunner = async (v, _s, req) => (leaders.push(req.earlyStop), [okResult(v, req, 1000)]);
    const { ctx } = ctxFor(run, ['--parallel', 'off', '--no-early-stop']);
    await measureStage(ctx, [tp('vllm', 8), tp('sglang', 8)], null);
    expect(leaders).toEqual([undefined, undefined]);
  });
});

describe('adaptive repeats in a session', () => {
  function session(throughputs: Record<string, number[]>, tpot: Record<string, number>, extra: string[] = []) {
    const calls: string[] = [];
    const runs: string[] = [];
    const run: ScenarioRunner = async (v, scenarios, req) => {
      const i = calls.filter((c) => c === `${req.stage}:${v.id}`).length;
      calls.push(`${req.stage}:${v.id}`);
      if (req.stage === 'engine') runs.push(req.run ? `${v.id} run ${req.run.n} of ${req.run.of}` : `${v.id} first`);
      const list = throughputs[v.id] ?? [800];
      return scenarios.map(() => okResult(v, req, list[Math.min(i, list.length - 1)]!, tpot[v.id] ?? 20));
    };
    const events: TuneEvent[] = [];
    return {
      calls,
      runs,
      events,
      go: () =>
        runSession(config(['--stages', 'engine', '--parallel', 'off', '--replica', 'off', ...extra]), {
          runner: run,
          onEvent: (e) => events.push(e),
        }),
    };
  }
  const verdict = (events: TuneEvent[]) =>
    events.find((e): e is Extract<TuneEvent, { type: 'stage-finished' }> => e.type === 'stage-finished' && e.stage === 'engine')!;

  it('confirms the best two in reverse order; still tied: the declared order decides, never p99 TPOT', async () => {
    // 0.5% apart, the runs spread about 3%: the first pair again in reverse order measures the noise,
    // once more while it rests on 2 degrees of freedom (too few: it ties them), and then no number
    // of runs could separate them.
    const s = session({ 'vllm-tp8': [1005, 985, 1015], 'sglang-tp8': [1000, 1012, 990] }, { 'vllm-tp8': 30, 'sglang-tp8': 20 });
    const o = await s.go();
    // (This runner's results carry one start time, so the pair runs again in the ranking's order;
    // test/unit/tune/decide/repeats.test.ts checks the reverse order on real start times.)
    expect(s.calls.filter((c) => c.startsWith('engine:'))).toEqual([
      'engine:sglang-tp8',
      'engine:vllm-tp8',
      'engine:sglang-tp8',
      'engine:vllm-tp8',
      'engine:vllm-tp8',
      'engine:sglang-tp8',
    ]);
    // A repeat launch says which run it is (the runner passes it on to its variant-launching event).
    expect(s.runs).toEqual([
      'sglang-tp8 first',
      'vllm-tp8 first',
      'sglang-tp8 run 2 of 3',
      'vllm-tp8 run 2 of 3',
      'vllm-tp8 run 3 of 3',
      'sglang-tp8 run 3 of 3',
    ]);
    const v = verdict(s.events);
    expect(v).toMatchObject({ tied: true, tiedIds: ['vllm-tp8', 'sglang-tp8'], tieBreak: 'is listed first in the plan' });
    // SGLang's lower p99 TPOT does not decide: the plan lists vLLM first.
    expect(v.winnerId).toBe('vllm-tp8');
    expect(v.why).toMatch(/tied within noise: .*after 3, 3 runs.*: vllm tp8 is listed first in the plan$/);
    expect(o.winner?.variantId).toBe('vllm-tp8');
  });

  it('decides on the runs when reruns separate them', async () => {
    const s = session({ 'vllm-tp8': [1205, 1200, 1210], 'sglang-tp8': [1000, 1003, 998] }, {});
    await s.go();
    expect(verdict(s.events).winnerId).toBe('vllm-tp8');
    expect(verdict(s.events).why).toMatch(/leads .* beyond the ±\d+\.\d% effective margin/);
    expect(verdict(s.events).tied).toBeUndefined();
  });

  it('--repeats-max 1 reruns nothing; within the margin the declared order decides', async () => {
    const s = session({ 'vllm-tp8': [1005], 'sglang-tp8': [1000] }, { 'vllm-tp8': 30, 'sglang-tp8': 20 }, ['--repeats-max', '1']);
    await s.go();
    expect(verdict(s.events).winnerId).toBe('vllm-tp8');
    expect(verdict(s.events).why).toMatch(/tied within noise: ±2\.0% .*after 1, 1 runs, noise not measured.*listed first in the plan/);
    expect(s.calls.filter((c) => c.startsWith('engine:'))).toHaveLength(2);
  });

  it('GPU-hours land in the view per variant and per session', async () => {
    const s = session({ 'vllm-tp8': [2000], 'sglang-tp8': [1000] }, {});
    await s.go();
    const view = projectSession(s.events);
    const rows = view.stages.find((x) => x.name === 'engine')!.rows;
    // Two runs each: the engine stage's confirmation in reverse order (the host's noise).
    expect(rows.map((r) => r.result.gpuTime?.gpuS)).toEqual([2 * 8 * 160, 2 * 8 * 160]);
    expect(view.cost?.hostGpus).toBe(8);
    // Two stage launches and two validation launches (the journal serves neither scenario here).
    expect(view.cost?.variantGpuHours).toBeGreaterThan((2 * 8 * 160) / 3600 - 1e-9);
    expect(sessionCostText(view)).toMatch(/host GPU-hours .*simulated time/);
    expect(view.running).toEqual({});
  });
});

describe('tune a replica, then the host', () => {
  it('plans one replica per tuning stage, whole-host layouts last, and says which GPUs each stage uses', async () => {
    const { planSession } = await import('../../../../src/tune/session/session.js');
    const { planText } = await import('../../../../src/cli/text-plan.js');
    const c = config(['--stages', 'engine,parallelism,batching']);
    const { plan } = await planSession(c);
    expect(plan.replica?.tp).toBe(1);
    expect(plan.stages.map((s) => s.name)).toEqual(['engine', 'batching', 'parallelism']);
    expect(plan.stages[0]!.variants.map((v) => v.variant.knobs.tp ?? 1)).toEqual([1, 1]);
    const layouts = plan.stages[2]!.variants.map((v) => v.change);
    expect(layouts).toEqual([
      '8 replicas x TP1 (whole host)',
      '4 replicas x TP2 (whole host)',
      '2 replicas x TP4 (whole host)',
      'TP8 (whole host)',
    ]);
    // The commands carry the engines' data-parallel flags.
    expect(plan.stages[2]!.variants[0]!.engineArgv?.join(' ')).toMatch(/--dp-size 8|--data-parallel-size 8/);
    const text = planText(plan, c);
    expect(text).toContain('GPUs: one replica per variant on 1 GPU(s): up to 8 variants at once on GPUs 0, 1, 2, 3, 4, 5, 6, 7');
    expect(text).toContain('GPUs: GPUs 0-7 (whole host) per variant');
    // --replica off keeps the whole host in every stage.
    const off = (await planSession(config(['--stages', 'engine,parallelism', '--replica', 'off']))).plan;
    expect(off.replica).toBeUndefined();
    expect(off.stages[0]!.variants.map((v) => v.variant.knobs.tp)).toEqual([8, 8]);
  });

  it('--sweep turns the replica plan off (the sweep compares whole-host finalists) and says so', async () => {
    const { planSession } = await import('../../../../src/tune/session/session.js');
    const { plan } = await planSession(config(['--stages', 'engine,parallelism', '--sweep', 'concurrency:1,8']));
    expect(plan.replica).toBeUndefined();
    expect(plan.notes.join('\n')).toContain('--sweep: the replica plan is off');
    expect(plan.stages[0]!.variants.map((v) => v.variant.knobs.tp)).toEqual([8, 8]);
  });

  it('runs the replica stages in parallel, picks a layout outright, validates it against the baseline on the whole host', async () => {
    const calls: string[] = [];
    const run: ScenarioRunner = async (v, scenarios, req) => {
      calls.push(`${req.stage}:${v.id}:${(req.gpuIds ?? []).join(',')}`);
      const layout = (v.knobs.tp ?? 1) * (v.knobs.dp ?? 1);
      const perGpu = v.engine === 'sglang' ? 1200 : 1000;
      return scenarios.map(() => okResult(v, req, perGpu * layout * (v.knobs.tp === 2 ? 1.1 : 1)));
    };
    const events: TuneEvent[] = [];
    const o = await runSession(config(['--stages', 'engine,parallelism', '--parallel', '2', '--no-early-stop']), {
      runner: run,
      onEvent: (e) => events.push(e),
    });
    expect(o.exitCode).toBe(0);
    // Engine stage: both engines at TP1, at once, on GPUs 0 and 1 (the predicted faster, SGLang, first).
    expect(calls.slice(0, 2).sort()).toEqual(['engine:sglang:0', 'engine:vllm:1']);
    const par = events.find(
      (e): e is Extract<TuneEvent, { type: 'stage-finished' }> => e.type === 'stage-finished' && e.stage === 'parallelism',
    )!;
    expect(par.winnerId).toBe('sglang-tp2-dp4');
    expect(par.why).toMatch(/^whole-host layouts of the tuned replica/);
    expect(calls.filter((c) => c.startsWith('validation:')).map((c) => c.split(':')[1])).toEqual(['vllm-tp8']);
    expect(events).toContainEqual(
      expect.objectContaining({ type: 'validation-started', baselineId: 'vllm-tp8', winnerId: 'sglang-tp2-dp4' }),
    );
  });
});
