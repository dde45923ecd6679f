// One variant's server for work the runner's scenarios cannot describe ahead of time: the
// capacity search picks each probe's load from the last one's verdict. The server comes up on
// the runner's launch path (startWithRetries: the one launch path, port retries), with the
// sampler, `use` gets its URL, and it is stopped on every path; its GPU time counts the whole
// of `use` as served (the probes follow each other on the running server).
import { setMaxListeners } from 'node:events';
import type { Failure, VariantGpuTime } from '../../core/events.js';
import { AbortedError, USER_SKIP } from '../../core/aborted.js';
import type { Scenario } from '../../core/scenario.js';
import type { Variant } from '../../core/variant.js';
import { launchGpuTime } from '../cost/variant-cost.js';
import { baseUrl } from '../launch/launch.js';
import { startWithRetries } from './runner.js';
import { startSampler } from './sampler.js';
import type { RunVariantContext } from './contract/types.js';

/** The running server as `use` sees it: its URL and the simulated clock it runs on (1 on a real host). */
export interface ServedServer {
  baseUrl: string;
  speed: number;
  /** Aborted by the session's Ctrl-C or the user's skip of this launch. */
  signal: AbortSignal;
}

export type Served<T> = { ok: true; value: T; gpuTime: VariantGpuTime } | { ok: false; failure: Failure; gpuTime?: VariantGpuTime };

/**
 * Bring `variant` up, run `use` against it, stop it. `scenarios` set the simulated clock as they
 * do for a benchmark launch (the fastest the client can follow at their load). Throws
 * AbortedError when ctx.signal aborts (after stopping the server).
 */
export async function serveVariant<T>(
  variant: Variant,
  scenarios: readonly Scenario[],
  ctx: RunVariantContext,
  use: (server: ServedServer) => Promise<T>,
): Promise<Served<T>> {
  if (ctx.signal?.aborted) throw new AbortedError();
  const stopSignal = AbortSignal.any([ctx.signal, ctx.skipSignal].filter((s): s is AbortSignal => !!s));
  setMaxListeners(0, stopSignal);
  const launchMs = performance.now();
  const up = await startWithRetries(variant, scenarios, ctx, stopSignal);
  const simSpeed = (speed: number) => (ctx.config.sim ? { simSpeed: speed } : {});
  if (!up.ok) {
    const skipped = ctx.skipSignal?.aborted ? { kind: 'skipped' as const, reason: USER_SKIP } : null;
    return { ok: false, failure: skipped ?? up.failure };
  }
  const readyMs = performance.now();
  ctx.emit({ type: 'server-ready', variantId: variant.id, startupS: up.startupS });
  const stopSampler = startSampler(ctx, up.adapter, up.spec, variant.id);
  let value: T;
  try {
    value = await use({ baseUrl: baseUrl(up.spec), speed: up.speed, signal: stopSignal });
  } catch (e) {
    if (ctx.signal?.aborted) throw new AbortedError();
    const failure: Failure = ctx.skipSignal?.aborted
      ? { kind: 'skipped', reason: USER_SKIP }
      : { kind: 'bench-failed', reason: (e as Error).message };
    return {
      ok: false,
      failure,
      gpuTime: launchGpuTime(variant, { launchMs, readyMs, stopMs: performance.now(), startupS: up.startupS, ...simSpeed(up.speed) }),
    };
  } finally {
    await stopSampler();
    ctx.emit({ type: 'server-stopping', variantId: variant.id });
    await up.handle.stop();
  }
  if (ctx.signal?.aborted) throw new AbortedError();
  return {
    ok: true,
    value,
    gpuTime: launchGpuTime(variant, { launchMs, readyMs, stopMs: performance.now(), startupS: up.startupS, ...simSpeed(up.speed) }),
  };
}
