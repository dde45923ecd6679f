// One variant, start to finish: pick a port, launch through its adapter (on the simulated host
// the sim adapter, through the same path), wait for ready, benchmark each scenario with
// src/bench (warm-up first), scrape /metrics and sample GPUs meanwhile, stop, wait for release.
// Every step is an event. The tuning session and `replay` both call this.
import { setMaxListeners } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Failure, GpuSample, TuneEvent, VariantResult } from '../core/events.js';
import { UserError } from '../core/errors.js';
import { log } from '../core/logger.js';
import type { Variant } from '../core/variant.js';
import { loadWorkload, resultJson, runBenchmarkIsolated, toSimulated, toSimulatedSnapshot, type BenchResult, type Workload } from '../bench/index.js';
import { adapterFor } from '../engines/index.js';
import type { EngineAdapter, LaunchContext, LaunchSpec } from '../engines/types.js';
import { queryGpus, type HostInfo } from '../host/gpus.js';
import { findFreePort } from '../host/ports.js';
import { launchServer, type ExitInfo, type ServerHandle } from '../host/process.js';
import type { SessionConfig } from './config.js';
import { commandWithEngineEnv, modelledStartupS } from './deps.js';
import { writeFileAtomic } from './journal.js';
import { benchPhase, serverDied } from './server-death.js';
import type { Predicted } from './plan.js';
import type { Scenario } from './scenarios.js';
import { goodputFromSlo, sloPercentiles } from './slo.js';
import { predictedPeakEvents, speedForEventRate } from './simspeed.js';

export interface RunVariantContext {
  config: Pick<
    SessionConfig,
    'model' | 'sim' | 'bindHost' | 'portStart' | 'readyTimeoutS' | 'warmupPrompts' | 'runtime' | 'slo' | 'sampleIntervalS'
  >;
  host: HostInfo;
  /** Folder for server logs and the engine's files. */
  logsDir: string;
  /** Folder for the bench JSON of each scenario (vLLM --save-result layout); none when absent. */
  benchDir?: string;
  emit: (e: TuneEvent) => void;
  /** Aborts everything (Ctrl-C): the server is stopped, no result is produced for unfinished work. */
  signal?: AbortSignal;
  /** Skips this variant only (the TUI's skip key): recorded as 'skipped'. */
  skipSignal?: AbortSignal;
  stage: string;
  predicted?: Predicted;
  /** Ports already handed out in this process, avoided so a just-closed port is not reused at once. */
  usedPorts?: Set<number>;
  /** Workloads already loaded, by scenario key (loading ShareGPT and tokenizing is not free). */
  workloads?: Map<string, Promise<Workload>>;
}

/** Thrown when the whole session is aborted while a variant runs; nothing is recorded for it. */
export class AbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortedError';
  }
}

const PERCENTILE_METRICS = ['ttft', 'tpot', 'itl', 'e2el'] as const;

export function scenarioKey(s: Scenario): string {
  return `${s.name}-n${s.numPrompts}`;
}

function loadScenario(s: Scenario, model: string, cache?: Map<string, Promise<Workload>>): Promise<Workload> {
  const key = scenarioKey(s);
  const hit = cache?.get(key);
  if (hit) return hit;
  const p = loadWorkload({
    dataset: s.dataset,
    path: s.datasetPath,
    numPrompts: s.numPrompts,
    randomInputLen: s.inputLen,
    randomOutputLen: s.outputLen,
    randomRangeRatio: s.rangeRatio,
    seed: s.seed,
    model,
  });
  cache?.set(key, p);
  // A failed load is not cached: the next caller gets the error again, not a stale promise.
  p.catch(() => cache?.delete(key));
  return p;
}

/** Why the server answering on the port is not this variant's, or null when it is (or cannot be told). */
export async function whoElseAnswers(spec: LaunchSpec, variant: Variant, simulated: boolean): Promise<string | null> {
  const base = `http://${spec.host === '0.0.0.0' ? '127.0.0.1' : spec.host}:${spec.port}`;
  try {
    if (simulated) {
      const res = await fetch(`${base}/sim/info`, { signal: AbortSignal.timeout(3000) });
      if (!res.ok) return `it has no /sim/info (HTTP ${res.status})`;
      const info = (await res.json()) as { engine?: string; model?: string };
      if (info.engine !== variant.engine || info.model !== variant.model) return `it serves ${info.model} as ${info.engine}`;
      return null;
    }
    const res = await fetch(`${base}/v1/models`, { signal: AbortSignal.timeout(3000) });
    if (!res.ok) return null;
    const ids = (((await res.json()) as { data?: { id?: string }[] }).data ?? []).map((m) => m.id).filter((id): id is string => !!id);
    const want = [variant.model, variant.model.replace(/\/+$/, '').split('/').pop()!];
    return ids.length && !ids.some((id) => want.includes(id)) ? `it serves ${ids.join(', ')}` : null;
  } catch {
    return null;
  }
}

/** Sample /metrics and the GPUs now, every interval, and once more when stopped. */
function startSampler(ctx: RunVariantContext, adapter: EngineAdapter, spec: LaunchSpec, variantId: string): () => Promise<void> {
  const everyMs = Math.max(250, ctx.config.sampleIntervalS * 1000);
  let stopped = false;
  let running: Promise<void> | null = null;
  const base = `http://${spec.host === '0.0.0.0' ? '127.0.0.1' : spec.host}:${spec.port}`;
  const metricsUrl = `${base}${adapter.metricsPath}`;
  const sample = async () => {
    const res = await fetch(metricsUrl, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
    if (res?.ok) {
      const m = adapter.parseMetrics(await res.text().catch(() => ''));
      if (Object.keys(m).length) {
        ctx.emit({
          type: 'server-metrics',
          variantId,
          metrics: { running: m.running ?? 0, waiting: m.waiting ?? 0, kvUsage: m.kvUsage ?? 0, preemptions: m.preemptions ?? 0 },
        });
      }
    } else if (res) await res.arrayBuffer().catch(() => undefined);
    // The simulated host reports its GPUs through the sim server; a real host through nvidia-smi.
    const gpus = ctx.host.simulated ? await simGpus(`${base}/sim/gpus`) : await queryGpus({ timeoutMs: 5000 }).catch(() => null);
    if (gpus) ctx.emit({ type: 'gpu-sample', gpus: gpus.map(toGpuSample) });
  };
  const tick = () => {
    if (running || stopped) return;
    running = sample().finally(() => (running = null));
  };
  tick();
  const timer = setInterval(tick, everyMs);
  return async () => {
    clearInterval(timer);
    stopped = true;
    await running;
    // One last sample, so even a benchmark shorter than the interval shows the server under load.
    await sample().catch(() => undefined);
  };
}

async function simGpus(url: string): Promise<GpuSample[] | null> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    if (!res.ok) return null;
    const list = (await res.json()) as GpuSample[];
    return Array.isArray(list) ? list : null;
  } catch {
    return null;
  }
}

function toGpuSample(g: { index: number; name: string; utilPct?: number; memUsedMiB?: number; memTotalMiB: number }): GpuSample {
  return { index: g.index, name: g.name, utilPct: g.utilPct ?? 0, memUsedMiB: g.memUsedMiB ?? 0, memTotalMiB: g.memTotalMiB };
}

function failedResult(variant: Variant, scenario: string, ctx: RunVariantContext, failure: Failure, started: Date, extra: Partial<VariantResult> = {}): VariantResult {
  return {
    variantId: variant.id,
    stage: ctx.stage,
    scenario,
    status: failure.kind === 'skipped' ? 'skipped' : 'failed',
    variant,
    argv: [],
    failure,
    ...(ctx.predicted ? { predicted: ctx.predicted } : {}),
    ...(ctx.config.sim ? { simulated: true } : {}),
    startedAt: started.toISOString(),
    finishedAt: new Date().toISOString(),
    ...extra,
  };
}

function gpuFailureContext(host: HostInfo) {
  const g = host.gpus[0];
  return g ? { gpu: { name: g.name, ...(g.computeCap ? { computeCap: g.computeCap } : {}) } } : undefined;
}

/**
 * Launch one variant and measure it on each scenario in turn (one launch, several benchmarks).
 * Returns one result per scenario: all failed alike when the server does not come up.
 * Throws AbortedError when ctx.signal aborts (after stopping the server).
 */
type Started =
  | { ok: true; handle: ServerHandle; spec: LaunchSpec; adapter: EngineAdapter; base: Pick<VariantResult, 'argv' | 'engineArgv' | 'env'>; startupS: number; speed: number }
  | { ok: false; failure: Failure; extra: Partial<VariantResult> };

/** Pick a port, launch, wait until ready, and check the server answering is ours. */
async function startServer(variant: Variant, ctx: RunVariantContext, stopSignal: AbortSignal, simSpeed?: number): Promise<Started> {
  const sim = ctx.config.sim;
  const used = ctx.usedPorts ?? new Set<number>();
  const port = await findFreePort({ host: ctx.config.bindHost, from: ctx.config.portStart, exclude: used });
  used.add(port);
  const launchCtx: LaunchContext = {
    host: ctx.config.bindHost,
    port,
    runDir: join(ctx.logsDir, variant.id),
    runtime: ctx.config.runtime.kind === 'docker' ? { kind: 'docker', image: ctx.config.runtime.image } : { kind: 'native' },
    ...(sim ? { sim: { gpu: sim.gpu, gpus: sim.gpus, speed: simSpeed ?? sim.speed, seed: sim.seed } } : {}),
  };
  const adapter = adapterFor(variant, launchCtx);
  let spec: LaunchSpec;
  let engineEnv: Record<string, string>;
  try {
    ({ engineEnv, ...spec } = commandWithEngineEnv(variant, launchCtx));
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return { ok: false, failure: { kind: 'bad-flag', reason: e.message }, extra: {} };
  }
  // env: the real engine's environment (what a GPU host runs); the launched env may differ on the simulated host.
  const base: Pick<VariantResult, 'argv' | 'engineArgv' | 'env'> = { argv: spec.argv, engineArgv: spec.engineArgv, env: engineEnv };
  const speed = spec.speed > 0 ? spec.speed : 1;
  ctx.emit({ type: 'variant-launching', variantId: variant.id, stage: ctx.stage, argv: spec.argv, port, ...(variant.label ? { label: variant.label } : {}) });

  let handle: ServerHandle;
  try {
    handle = await launchServer(spec, {
      runDir: launchCtx.runDir,
      logName: 'server.log',
      onLine: (line, stream) => ctx.emit({ type: 'server-log', variantId: variant.id, line, stream }),
      signal: stopSignal,
      gpuHost: !ctx.host.simulated,
      graceMs: sim ? 3000 : 15_000,
      classify: (lines, exit) => adapter.classifyFailure(lines, exit, gpuFailureContext(ctx.host)),
    });
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    const failure: Failure = /already in use/.test(e.message) ? { kind: 'port-in-use', reason: e.message } : { kind: 'crash', reason: e.message };
    return { ok: false, failure, extra: base };
  }

  const ready = await handle.waitReady(ctx.config.readyTimeoutS * 1000, stopSignal);
  // On the simulated host the load is played instantly (see commandWithEngineEnv): its start-up
  // is the simulator's modelled load time, in simulated seconds like every other figure there.
  const startupS = sim ? (modelledStartupS(variant, sim) ?? ready.startupS * speed) : ready.startupS;
  if (!ready.ready) {
    await handle.stop();
    return { ok: false, failure: { ...ready.failure, evidence: ready.failure.evidence ?? handle.tail(8) }, extra: { ...base, startupS } };
  }
  // Ready, but is it ours? A server that lost its port to another process dies while the other
  // one answers the health probe (vLLM can even share a port through SO_REUSEPORT).
  const impostor = handle.exit ? 'the server exited right after the port answered' : await whoElseAnswers(spec, variant, !!sim);
  if (impostor) {
    await handle.stop();
    const failure: Failure = {
      kind: 'port-in-use',
      reason: `another server answered on port ${port}: ${impostor}`,
      hint: 'stop the process that holds the port, or pick another range with --port',
      evidence: handle.tail(8),
    };
    return { ok: false, failure, extra: { ...base, startupS } };
  }
  return { ok: true, handle, spec, adapter, base, startupS, speed };
}

/** The simulated clock for this launch: the user's --speed, or the fastest the client can measure. */
function launchSpeed(variant: Variant, scenarios: readonly Scenario[], ctx: RunVariantContext): Promise<number | undefined> {
  const sim = ctx.config.sim;
  if (!sim?.autoSpeed) return Promise.resolve(sim?.speed);
  return autoSimSpeed(variant, scenarios, sim, ctx.config.model, ctx.workloads);
}

/** The clock an automatic launch of `variant` on `scenarios` runs at (simspeed.ts), at most sim.speed. */
export async function autoSimSpeed(
  variant: Variant,
  scenarios: readonly Scenario[],
  sim: { gpu: string; gpus: number; speed: number; seed: number },
  tokenizerModel: string,
  cache?: Map<string, Promise<Workload>>,
): Promise<number> {
  try {
    const workloads = await Promise.all(
      scenarios.map(async (s) => ({ workload: await loadScenario(s, tokenizerModel, cache), maxConcurrency: s.maxConcurrency ?? undefined })),
    );
    const peak = predictedPeakEvents(variant, sim, workloads);
    return peak === undefined ? sim.speed : speedForEventRate(sim.speed, peak);
  } catch {
    // A workload that cannot load fails in the benchmark with its own one-line error.
    return sim.speed;
  }
}

/** Launch attempts when the port is lost to another process between the check and the bind. */
const PORT_ATTEMPTS = 3;

/**
 * Launch one variant and measure it on each scenario in turn (one launch, several benchmarks).
 * Returns one result per scenario: all failed alike when the server does not come up.
 * Throws AbortedError when ctx.signal aborts (after stopping the server).
 */
export async function runVariantScenarios(variant: Variant, scenarios: readonly Scenario[], ctx: RunVariantContext): Promise<VariantResult[]> {
  const started = new Date();
  const sim = ctx.config.sim;
  if (ctx.signal?.aborted) throw new AbortedError();
  // One signal for "stop this variant now": the session's abort or the user's skip.
  const stopSignal = AbortSignal.any([ctx.signal, ctx.skipSignal].filter((s): s is AbortSignal => !!s));
  // The benchmark ties each in-flight request to this signal: hundreds of listeners are expected.
  setMaxListeners(0, stopSignal);
  const interrupted = (): Failure | null =>
    ctx.signal?.aborted ? { kind: 'aborted', reason: 'the session was interrupted' } : ctx.skipSignal?.aborted ? { kind: 'skipped', reason: 'skipped by the user' } : null;

  const simSpeed = await launchSpeed(variant, scenarios, ctx);
  let up: Started;
  for (let attempt = 1; ; attempt++) {
    up = await startServer(variant, ctx, stopSignal, simSpeed);
    if (ctx.signal?.aborted) throw new AbortedError();
    if (up.ok || up.failure.kind !== 'port-in-use' || attempt >= PORT_ATTEMPTS || interrupted()) break;
    ctx.emit({ type: 'warning', message: `${variant.id}: ${up.failure.reason}; trying another port` });
  }
  if (!up.ok) {
    const f = interrupted() ?? up.failure;
    return scenarios.map((s) => failedResult(variant, s.name, ctx, f, started, up.extra));
  }
  const { handle, spec, adapter, base, startupS, speed } = up;
  ctx.emit({ type: 'server-ready', variantId: variant.id, startupS });

  const stopSampler = startSampler(ctx, adapter, spec, variant.id);
  const results: VariantResult[] = [];
  // server-death.ts: a server that died is the failure's cause, in whatever phase (hooks marked "death").
  const classify = (lines: string[], exit: ExitInfo) => adapter.classifyFailure(lines, exit, gpuFailureContext(ctx.host));
  try {
    for (const [i, scenario] of scenarios.entries()) {
      const t0 = new Date();
      const deadBefore = i > 0 && handle.exit ? await serverDied(handle, 'between validation scenarios', classify) : null; // death
      if (deadBefore) {
        for (const s of scenarios.slice(i)) results.push(failedResult(variant, s.name, ctx, deadBefore, t0, { ...base, startupS })); // death
        break; // death
      }
      let bench: BenchResult;
      try {
        const workload = await loadScenario(scenario, ctx.config.model, ctx.workloads);
        const warmups = i === 0 ? ctx.config.warmupPrompts : 0;
        if (warmups > 0) ctx.emit({ type: 'warmup-started', variantId: variant.id });
        ctx.emit({ type: 'bench-started', variantId: variant.id, scenario: scenario.name, numPrompts: workload.requests.length });
        const goodput = goodputFromSlo(ctx.config.slo);
        // On its own thread: the TUI's rendering must not delay the stamping of tokens.
        bench = await runBenchmarkIsolated({
          baseUrl: `http://${spec.host === '0.0.0.0' ? '127.0.0.1' : spec.host}:${spec.port}`,
          model: variant.model,
          tokenizerId: ctx.config.model,
          requests: workload.requests,
          tokenCounts: workload.tokenCounts,
          maxConcurrency: scenario.maxConcurrency,
          numWarmups: warmups,
          seed: scenario.seed,
          percentileMetrics: [...PERCENTILE_METRICS],
          metricPercentiles: [...new Set([50, 90, 99, ...sloPercentiles(ctx.config.slo)])].sort((a, b) => a - b),
          ...(goodput ? { goodput } : {}),
          label: variant.id,
          signal: stopSignal,
          onEvent: (e) => {
            if (e.type === 'snapshot') {
              ctx.emit({ type: 'bench-progress', variantId: variant.id, snapshot: sim ? toSimulatedSnapshot(e.snapshot, speed) : e.snapshot });
            }
          },
        });
      } catch (e) {
        if (ctx.signal?.aborted) throw new AbortedError();
        const died = interrupted() ? null : await serverDied(handle, benchPhase((e as Error).message, i === 0 && ctx.config.warmupPrompts > 0), classify); // death
        const f = interrupted() ?? died ?? { kind: 'bench-failed' as const, reason: (e as Error).message };
        results.push(failedResult(variant, scenario.name, ctx, f, t0, { ...base, startupS }));
        if (interrupted()) break;
        continue;
      }
      if (ctx.signal?.aborted) throw new AbortedError();
      if (bench.aborted) {
        results.push(failedResult(variant, scenario.name, ctx, interrupted() ?? { kind: 'aborted', reason: 'benchmark stopped' }, t0, { ...base, startupS }));
        break;
      }
      const measured = sim ? toSimulated(bench, speed) : bench;
      if (ctx.benchDir) {
        try {
          mkdirSync(ctx.benchDir, { recursive: true });
          writeFileAtomic(join(ctx.benchDir, `${variant.id}-${scenarioKey(scenario)}.json`), JSON.stringify(resultJson(measured)) + '\n');
        } catch (e) {
          log.warn(`could not save the bench JSON of ${variant.id}: ${(e as Error).message}`);
        }
      }
      const ok = measured.metrics.completed > 0;
      const diedDuring = !interrupted() && ((handle.exit && measured.metrics.failed > 0) || !ok) ? await serverDied(handle, 'benchmark', classify) : null; // death
      if (diedDuring) {
        results.push(failedResult(variant, scenario.name, ctx, diedDuring, t0, { ...base, startupS })); // death
        continue; // death
      }
      results.push({
        variantId: variant.id,
        stage: ctx.stage,
        scenario: scenario.name,
        status: ok ? 'ok' : 'failed',
        variant,
        ...base,
        metrics: measured.metrics,
        ...(ok ? {} : { failure: { kind: 'bench-failed', reason: `all ${measured.metrics.failed} requests failed`, evidence: measured.outputs.slice(0, 3).map((o) => o.error) } }),
        startupS,
        ...(ctx.predicted && i === 0 ? { predicted: ctx.predicted } : {}),
        ...(sim ? { simulated: true } : {}),
        ...(measured.clientBound ? { clientBound: true } : {}),
        startedAt: t0.toISOString(),
        finishedAt: new Date().toISOString(),
      });
    }
  } finally {
    await stopSampler();
    ctx.emit({ type: 'server-stopping', variantId: variant.id });
    await handle.stop();
  }
  // Scenarios not reached after a skip are skipped too.
  for (const s of scenarios.slice(results.length)) {
    results.push(failedResult(variant, s.name, ctx, interrupted() ?? { kind: 'skipped', reason: 'not reached' }, started, base));
  }
  return results;
}

/** Launch one variant and benchmark it on one scenario. */
export async function runVariant(variant: Variant, scenario: Scenario, ctx: RunVariantContext): Promise<VariantResult> {
  const [r] = await runVariantScenarios(variant, [scenario], ctx);
  return r!;
}
