// Bringing one variant's server up: pick a port, launch through its adapter (the one launch path,
// launch.ts), wait until ready, and check that the server answering is ours.
import { dirname, join } from 'node:path';
import type { Failure, VariantResult } from '../../core/events.js';
import { UserError } from '../../core/errors.js';
import type { Variant } from '../../core/variant.js';
import { adapterFor, planningOf } from '../../engines/index.js';
import { engineLaunchHooks } from '../../engines/launch-hooks.js';
import type { EngineAdapter, FailureContext } from '../../engines/kit/types.js';
import type { PlanSession } from '../../engines/kit/plan-types.js';
import { hostVendor, type HostInfo } from '../../host/gpus.js';
import { findFreePort } from '../../host/ports.js';
import { launchServer } from '../../host/process.js';
import type { ServerHandle } from '../../host/server-handle.js';
import { modelledStartupS } from '../plan/deps.js';
import { launchWeights } from '../launch/dummy-weights.js';
import { baseUrl, launchContext, prepareLaunch } from '../launch/launch.js';
import type { LaunchRecord, RunVariantContext, ServerStart } from './contract/types.js';
import type { Scenario } from '../../core/scenario.js';
import { startSlurmServer } from './slurm/start.js';
import { autoSimSpeed } from '../launch/workloads.js';
import type { LaunchSpec } from '../../host/launch-spec.js';

/** Why the server answering on the port is not this variant's, or null when it is (or cannot be told). */
export async function whoElseAnswers(spec: LaunchSpec, variant: Variant, simulated: boolean): Promise<string | null> {
  const base = baseUrl(spec);
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

/**
 * What the failure rules may know about a launch: the GPU (to name it), the speculative knobs (to
 * name the combination), and for llama.cpp the weight type it repacks for AMX (llama.cpp#20824).
 */
export function failureContext(host: HostInfo, variant: Variant, session?: Pick<PlanSession, 'llamacpp'>): FailureContext {
  const g = host.gpus[0];
  const amx = planningOf(variant.engine)?.repackedType?.(variant, host, session);
  return {
    ...(g ? { gpu: { name: g.name, ...(g.computeCap ? { computeCap: g.computeCap } : {}) } } : {}),
    ...(variant.knobs.speculative ? { speculative: variant.knobs.speculative } : {}),
    ...(amx ? { amxRepacked: amx } : {}),
  };
}

/**
 * Bring the variant up on its runtime: native or docker as a local process (launchServer), slurm
 * as a Slurm job (tune/run/slurm/start.ts). Both build the command through prepareLaunch.
 */
export async function startServer(
  variant: Variant,
  ctx: RunVariantContext,
  stopSignal: AbortSignal,
  simSpeed?: number,
): Promise<ServerStart> {
  // A model file the plan has the engine make is made first (llama.cpp: a GGUF llama-quantize
  // writes); its time is not start-up.
  const made = (await planningOf(variant.engine)?.prepareModel?.(variant, ctx.config, dirname(ctx.logsDir), stopSignal)) ?? { seconds: 0 };
  if (made.failure) return { ok: false, failure: made.failure, extra: {} };
  if (made.message) ctx.emit({ type: 'warning', message: `${variant.id}: ${made.message}` });
  if (ctx.config.runtime.kind === 'slurm') return startSlurmServer(variant, ctx, stopSignal, simSpeed);
  return startLocalServer(variant, ctx, stopSignal, simSpeed);
}

/** Pick a port, launch, wait until ready, and check the server answering is ours. */
async function startLocalServer(
  variant: Variant,
  ctx: RunVariantContext,
  stopSignal: AbortSignal,
  simSpeed?: number,
): Promise<ServerStart> {
  const sim = ctx.config.sim;
  const used = ctx.usedPorts ?? new Set<number>();
  const port = await findFreePort({ host: ctx.config.bindHost, from: ctx.config.portStart, exclude: used });
  used.add(port);
  const launchCtx = launchContext(ctx.config, {
    port,
    runDir: join(ctx.logsDir, variant.id),
    ...(simSpeed !== undefined ? { speed: simSpeed } : {}),
    ...(ctx.gpuIds ? { devices: ctx.gpuIds } : {}),
    ...(hostVendor(ctx.host) ? { vendor: hostVendor(ctx.host) } : {}),
  });
  const adapter = adapterFor(variant, launchCtx);
  let spec: LaunchSpec;
  let engineEnv: Record<string, string>;
  const weights = launchWeights(ctx.config, variant, ctx.stage);
  try {
    ({ spec, engineEnv } = prepareLaunch(variant, launchCtx, {
      cacheDir: join(dirname(ctx.logsDir), 'cache'),
      dummyWeights: weights?.kind === 'dummy',
      ...(ctx.config.sim?.truth ? { simTruth: ctx.config.sim.truth } : {}),
    }));
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return { ok: false, failure: { kind: 'bad-flag', reason: e.message }, extra: {} };
  }
  // env: the real engine's environment (what a GPU host runs); the launched env may differ on the simulated host.
  const base: LaunchRecord = { argv: spec.argv, engineArgv: spec.engineArgv, env: engineEnv, ...(weights ? { weights } : {}) };
  const speed = spec.speed > 0 ? spec.speed : 1;
  ctx.emit({
    type: 'variant-launching',
    variantId: variant.id,
    stage: ctx.stage,
    argv: spec.argv,
    port,
    ...(variant.label ? { label: variant.label } : {}),
    ...(ctx.gpuIds ? { gpuIds: [...ctx.gpuIds] } : {}),
    ...(ctx.run ? { run: ctx.run } : {}),
  });

  let handle: ServerHandle;
  try {
    handle = await launchServer(spec, {
      runDir: launchCtx.runDir,
      logName: 'server.log',
      onLine: (line, stream) => ctx.emit({ type: 'server-log', variantId: variant.id, line, stream }),
      signal: stopSignal,
      gpuHost: !ctx.host.simulated,
      graceMs: sim ? 3000 : 15_000,
      ...engineLaunchHooks((lines, exit) => adapter.classifyFailure(lines, exit, failureContext(ctx.host, variant, ctx.config))),
    });
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    const failure: Failure = /already in use/.test(e.message)
      ? { kind: 'port-in-use', reason: e.message }
      : { kind: 'crash', reason: e.message };
    return { ok: false, failure, extra: base };
  }

  return readyAndOurs(handle, { variant, ctx, stopSignal, spec, adapter, base, weights, port, speed });
}

interface Launched {
  variant: Variant;
  ctx: RunVariantContext;
  stopSignal: AbortSignal;
  spec: LaunchSpec;
  adapter: ReturnType<typeof adapterFor>;
  base: LaunchRecord;
  weights: ReturnType<typeof launchWeights>;
  port: number;
  speed: number;
}

/** A launched server, once ready and proven to be the one that answers its port; stopped otherwise. */
async function readyAndOurs(handle: ServerHandle, l: Launched): Promise<ServerStart> {
  const { variant, ctx, stopSignal, spec, adapter, base, weights, port, speed } = l;
  const sim = ctx.config.sim;
  const ready = await handle.waitReady(ctx.config.readyTimeoutS * 1000, stopSignal);
  // On the simulated host the load is played instantly (see commandWithEngineEnv): its start-up
  // is the simulator's modelled load time, in simulated seconds like every other figure there.
  const startupS = sim
    ? (modelledStartupS(variant, sim, { dummyWeights: weights?.kind === 'dummy' }) ?? ready.startupS * speed)
    : ready.startupS;
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
  // The simulator reports the start-up it modelled with this session's caches (src/sim/imitation/startup.ts).
  const reported = sim ? await simReportedStartupS(spec) : undefined;
  return { ok: true, handle, spec, adapter, base, startupS: reported ?? startupS, speed };
}

/** sim-serve's modelled start-up (simulated s, caches included) from /sim/info; undefined when it does not say. */
async function simReportedStartupS(spec: LaunchSpec): Promise<number | undefined> {
  try {
    const res = await fetch(`${baseUrl(spec)}/sim/info`, { signal: AbortSignal.timeout(3000) });
    const v = res.ok ? ((await res.json()) as { startup?: { totalS?: unknown } }).startup?.totalS : undefined;
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** The simulated clock for this launch: the user's --speed, or the fastest the client can measure. */
export function launchSpeed(variant: Variant, scenarios: readonly Scenario[], ctx: RunVariantContext): Promise<number | undefined> {
  const sim = ctx.config.sim;
  if (!sim?.autoSpeed) return Promise.resolve(sim?.speed);
  return autoSimSpeed(variant, scenarios, sim, ctx.config.model, ctx.workloads);
}
