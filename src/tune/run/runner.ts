// One variant, start to finish: launch (server-start.ts, through the one launch path), benchmark
// each scenario with src/bench (warm-up first), scrape /metrics and sample GPUs meanwhile
// (sampler.ts), stop, wait for release. Every step is an event. The tuning session and `replay`
// both call this.
import { warmupsFor } from './warmup-count.js';
import { setMaxListeners } from 'node:events';
import type { Failure, VariantResult } from '../../core/events.js';
import type { Variant } from '../../core/variant.js';
import type { ExitInfo } from '../../host/launch-spec.js';
import { AbortedError, USER_SKIP } from '../../core/aborted.js';
import { baseUrl } from '../launch/launch.js';
import { benchPhase, serverDied } from './server-death.js';
import { startSampler } from './sampler.js';
import { pinServerAndClient } from './core-pinning.js';
import type { HostLoad } from '../../core/host-load.js';
import type { Scenario } from '../../core/scenario.js';
import { launchGpuTime, servedWallS } from '../cost/variant-cost.js';
import { earlyStopWatch, type StopVerdict } from './early-stop-run.js';
import { failureContext, launchSpeed, startServer } from './server-start.js';
import type { RunVariantContext, ServerStart } from './contract/types.js';
import { goodputFromSlo, sloPercentiles } from '../../core/slo.js';
import { loadScenarioBench } from './scenario-bench.js';
import { clientIgnoresEos } from '../launch/dummy-weights.js';
import { greedyForLaunch } from './quality-run.js';
import { processCpuSeconds } from '../../host/proc-cpu.js';
import { failedResult, measuredResult, pinned, type Up } from './result-record.js';
import { toSimulated, toSimulatedSnapshot } from '../../bench/metrics/simulated.js';
import type { BenchResult } from '../../bench/types.js';

const PERCENTILE_METRICS = ['ttft', 'tpot', 'itl', 'e2el'] as const;

/** Launch attempts when the port is lost to another process between the check and the bind. */
const PORT_ATTEMPTS = 3;

/** Why this variant stops early: the session's abort or the user's skip; null while neither. */
function interruption(ctx: RunVariantContext): Failure | null {
  if (ctx.signal?.aborted) return { kind: 'aborted', reason: 'the session was interrupted' };
  if (ctx.skipSignal?.aborted) return { kind: 'skipped', reason: USER_SKIP };
  return null;
}

/** Start the server, trying another port when the one picked was lost to another process. */
export async function startWithRetries(
  variant: Variant,
  scenarios: readonly Scenario[],
  ctx: RunVariantContext,
  stopSignal: AbortSignal,
): Promise<ServerStart> {
  const simSpeed = await launchSpeed(variant, scenarios, ctx);
  for (let attempt = 1; ; attempt++) {
    const up = await startServer(variant, ctx, stopSignal, simSpeed);
    if (ctx.signal?.aborted) throw new AbortedError();
    if (up.ok || up.failure.kind !== 'port-in-use' || attempt >= PORT_ATTEMPTS || interruption(ctx)) return up;
    ctx.emit({ type: 'warning', message: `${variant.id}: ${up.failure.reason}; trying another port` });
  }
}

/** Wall seconds the server spent serving the client, summed over a launch's benchmarks (variant-cost.ts). */
type Served = { wallS: number };

/**
 * Benchmark the running server on one scenario (on its own thread: rendering must not delay token
 * stamps). Adds to `served` the part of the call the server worked for the client; all of it when
 * the call throws (no reading to tell the client's setup apart).
 */
async function benchOnce(
  variant: Variant,
  scenario: Scenario,
  warmups: number,
  up: Up,
  ctx: RunVariantContext,
  stopSignal: AbortSignal,
  served: Served,
): Promise<{ bench: BenchResult; stopped: StopVerdict | null }> {
  const workload = await loadScenarioBench(scenario, ctx.config.model, ctx.workloads);
  // Early stop applies to the tuning measurement only (the first scenario), never to validation.
  const early = !ctx.stage.startsWith('validation') && workload.list ? ctx.earlyStop : undefined;
  const watch = earlyStopWatch(early, workload.list ?? [], stopSignal);
  if (warmups > 0) ctx.emit({ type: 'warmup-started', variantId: variant.id });
  ctx.emit({ type: 'bench-started', variantId: variant.id, scenario: scenario.name, numPrompts: workload.requests });
  const goodput = goodputFromSlo(ctx.config.slo);
  const sim = ctx.config.sim;
  const callMs = performance.now();
  const callS = () => (performance.now() - callMs) / 1000;
  const { run } = workload;
  const bench = await run({
    baseUrl: baseUrl(up.spec),
    model: variant.model,
    tokenizerId: ctx.config.model,
    // The simulated server runs `speed` times faster than the wall clock: so do its arrivals.
    ...(scenario.requestRate ? { requestRate: scenario.requestRate * (sim ? up.speed : 1) } : {}),
    numWarmups: warmups,
    // --dummy-weights in use: outputs of the asked length (dummy-weights.ts), as vLLM's --ignore-eos sends them.
    ...(clientIgnoresEos(!!ctx.tuningDummyWeights, ctx.stage) ? { ignoreEos: true } : {}),
    seed: scenario.seed,
    percentileMetrics: [...PERCENTILE_METRICS],
    metricPercentiles: [...new Set([50, 90, 99, ...sloPercentiles(ctx.config.slo)])].sort((a, b) => a - b),
    ...(goodput ? { goodput } : {}),
    label: variant.id,
    signal: watch.signal,
    onEvent: (e) => {
      if (e.type !== 'snapshot') return;
      const snapshot = sim ? toSimulatedSnapshot(e.snapshot, up.speed) : e.snapshot;
      ctx.emit({ type: 'bench-progress', variantId: variant.id, snapshot });
      watch.push(snapshot);
    },
  }).catch((e: unknown) => {
    served.wallS += callS();
    throw e;
  });
  served.wallS += servedWallS(bench, callS());
  return { bench, stopped: await watch.settle() };
}

/**
 * Each scenario in turn on the running server; stops early on a skip or an aborted benchmark.
 * A server that died is the failure's cause, in whatever phase (server-death.ts).
 */
async function benchScenarios(
  variant: Variant,
  scenarios: readonly Scenario[],
  up: Up,
  ctx: RunVariantContext,
  stopSignal: AbortSignal,
  served: Served,
): Promise<VariantResult[]> {
  const results: VariantResult[] = [];
  const early = { ...up.base, startupS: up.startupS };
  const classify = (lines: string[], exit: ExitInfo) =>
    up.adapter.classifyFailure(lines, exit, failureContext(ctx.host, variant, ctx.config));
  // The largest warm-up batch this server has served: a later scenario at a higher concurrency warms again.
  let warmed = 0;
  for (const [i, scenario] of scenarios.entries()) {
    // A skip pressed (or asked for by onResult) between two scenarios stops before the next.
    if (ctx.signal?.aborted) throw new AbortedError();
    if (i > 0 && interruption(ctx)) break;
    const t0 = new Date();
    const deadBefore = i > 0 && up.handle.exit ? await serverDied(up.handle, 'between validation scenarios', classify) : null;
    if (deadBefore) {
      for (const s of scenarios.slice(i)) results.push(failedResult(variant, s.name, ctx, deadBefore, t0, early));
      break;
    }
    const warmups = ctx.config.warmupScaled
      ? warmupsFor(scenario, warmed, ctx.config.warmupPrompts)
      : i === 0
        ? ctx.config.warmupPrompts
        : 0;
    if (warmups > 0) warmed = Math.max(warmed, warmups);
    let bench: BenchResult;
    let stopped: StopVerdict | null;
    try {
      ({ bench, stopped } = await benchOnce(variant, scenario, warmups, up, ctx, stopSignal, served));
    } catch (e) {
      if (ctx.signal?.aborted) throw new AbortedError();
      const died = interruption(ctx) ? null : await serverDied(up.handle, benchPhase((e as Error).message, warmups > 0), classify);
      const f = interruption(ctx) ?? died ?? { kind: 'bench-failed' as const, reason: (e as Error).message };
      results.push(failedResult(variant, scenario.name, ctx, f, t0, early));
      if (interruption(ctx)) break;
      ctx.onResult?.(i, results.at(-1)!);
      continue;
    }
    if (ctx.signal?.aborted) throw new AbortedError();
    if (bench.aborted && stopped && !interruption(ctx)) {
      // A loser stopped early: never eligible to win (status 'pruned'); its figures so far are kept, marked partial.
      const part = ctx.config.sim ? toSimulated(bench, up.speed) : bench;
      const figures = part.metrics.completed > 0 ? { metrics: part.metrics, partial: true } : {};
      results.push(
        failedResult(variant, scenario.name, ctx, { kind: 'pruned', reason: stopped.status }, t0, {
          ...early,
          status: 'pruned',
          stopBound: stopped.boundValue,
          ...figures,
        }),
      );
      break;
    }
    if (bench.aborted) {
      results.push(
        failedResult(variant, scenario.name, ctx, interruption(ctx) ?? { kind: 'aborted', reason: 'benchmark stopped' }, t0, early),
      );
      break;
    }
    const result = { ...measuredResult(variant, scenario, i === 0, bench, up, ctx, t0), ...(warmups > 0 ? { warmups } : {}) };
    const suspect = (up.handle.exit && (result.metrics?.failed ?? 0) > 0) || result.status !== 'ok';
    const diedDuring = !interruption(ctx) && suspect ? await serverDied(up.handle, 'benchmark', classify) : null;
    const r = diedDuring ? failedResult(variant, scenario.name, ctx, diedDuring, t0, early) : result;
    results.push(r);
    ctx.onResult?.(i, r);
  }
  return results;
}

/**
 * Launch one variant and measure it on each scenario in turn (one launch, several benchmarks).
 * Returns one result per scenario: all failed alike when the server does not come up.
 * Throws AbortedError when ctx.signal aborts (after stopping the server).
 */
export async function runVariantScenarios(
  variant: Variant,
  scenarios: readonly Scenario[],
  ctx: RunVariantContext,
): Promise<VariantResult[]> {
  const started = new Date();
  if (ctx.signal?.aborted) throw new AbortedError();
  // One signal for "stop this variant now": the session's abort or the user's skip.
  const stopSignal = AbortSignal.any([ctx.signal, ctx.skipSignal].filter((s): s is AbortSignal => !!s));
  // The benchmark ties each in-flight request to this signal: hundreds of listeners are expected.
  setMaxListeners(0, stopSignal);
  const launchMs = performance.now();
  const simSpeed = ctx.config.sim ? ctx.config.sim.speed : undefined;
  const up = await startWithRetries(variant, scenarios, ctx, stopSignal);
  if (!up.ok) {
    const f = interruption(ctx) ?? up.failure;
    const gpuTime = launchGpuTime(variant, {
      cpuHost: !ctx.host.simulated && ctx.host.gpus.length === 0,
      launchMs,
      stopMs: performance.now(),
      ...(up.extra.startupS !== undefined ? { startupS: up.extra.startupS } : {}),
      ...(simSpeed !== undefined ? { simSpeed } : {}),
    });
    return scenarios.map((s, i) =>
      failedResult(variant, s.name, ctx, f, started, { ...up.extra, ...(i === 0 ? { gpuTime } : {}), ...pinned(ctx) }),
    );
  }
  const readyMs = performance.now();
  ctx.emit({ type: 'server-ready', variantId: variant.id, startupS: up.startupS });
  const pinning = pinServerAndClient(variant, up.handle.pid, ctx);
  const stopSampler = startSampler(ctx, up.adapter, up.spec, variant.id, up.handle.pid, pinning.text);
  let hostLoad: HostLoad | undefined;
  let results: VariantResult[] = [];
  const served: Served = { wallS: 0 };
  // The server's own CPU time, start-up included (llama.cpp's cost on a CPU host); real hosts only.
  let cpuS: number | undefined;
  try {
    results = await benchScenarios(variant, scenarios, up, ctx, stopSignal, served);
    // The quality check: after the first scenario's benchmark, on the same server (quality-run.ts).
    const first = results[0];
    if (ctx.quality && first?.status === 'ok' && !interruption(ctx)) {
      const server = { baseUrl: baseUrl(up.spec), speed: up.speed, dummy: first.weights?.kind === 'dummy' };
      const quality = await greedyForLaunch(variant, scenarios[0]!, ctx.quality, server, ctx, served);
      if (quality) results[0] = { ...first, quality };
    }
  } finally {
    hostLoad = await stopSampler();
    pinning.release();
    ctx.emit({ type: 'server-stopping', variantId: variant.id });
    cpuS = processCpuSeconds(up.handle.pid);
    await up.handle.stop();
  }
  // Scenarios not reached after a skip are skipped too.
  for (const s of scenarios.slice(results.length)) {
    results.push(failedResult(variant, s.name, ctx, interruption(ctx) ?? { kind: 'skipped', reason: 'not reached' }, started, up.base));
  }
  // The launch's GPU time rides on its first result (a validation launch measures several scenarios).
  const gpuTime = launchGpuTime(variant, {
    cpuHost: !ctx.host.simulated && ctx.host.gpus.length === 0,
    launchMs,
    readyMs,
    stopMs: performance.now(),
    startupS: up.startupS,
    servedWallS: served.wallS,
    ...(ctx.config.sim ? { simSpeed: up.speed } : {}),
  });
  const cpu = cpuS !== undefined && !ctx.config.sim ? { cpuS } : {};
  return results.map((r, i) => ({ ...r, ...(i === 0 ? { gpuTime, ...cpu } : {}), ...pinned(ctx), ...(hostLoad ? { hostLoad } : {}) }));
}

/** Launch one variant and benchmark it on one scenario. */
export async function runVariant(variant: Variant, scenario: Scenario, ctx: RunVariantContext): Promise<VariantResult> {
  const [r] = await runVariantScenarios(variant, [scenario], ctx);
  return r!;
}
