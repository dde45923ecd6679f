// The one launch path. Tuning, replay, serve on the simulated host and the dry-run plan all build
// the launch context and the command here, so the command shown (for consent, in the plan) is
// byte for byte the one the runner launches.
import { urlHost } from '../../core/dial.js';
import { join } from 'node:path';
import type { Variant } from '../../core/variant.js';
import { buildLaunchSpec, getAdapter } from '../../engines/index.js';
import type { LaunchContext } from '../../engines/kit/types.js';
import type { GpuVendor } from '../../core/gpu-vendor.js';
import { formatCommand } from '../../core/shell-quote.js';
import type { SessionConfig } from '../config/config.js';
import { dummyFlags, offersDummyWeights } from './dummy-weights.js';
import { cacheEnv } from '../../engines/startup-cache.js';
import type { LaunchSpec } from '../../host/launch-spec.js';

export type LaunchConfig = Pick<SessionConfig, 'sim' | 'bindHost' | 'runtime' | 'llamacpp'>;

/** The context a variant launches in: bind host, port, its folder, runtime and simulated host. */
export function launchContext(
  config: LaunchConfig,
  at: { port: number; runDir: string; speed?: number; devices?: readonly number[]; vendor?: GpuVendor },
): LaunchContext {
  const sim = config.sim;
  return {
    host: config.bindHost,
    port: at.port,
    runDir: at.runDir,
    // Parallel variants: pinned to their GPUs (the adapters turn this into the vendor's variables, docker --gpus).
    ...(at.devices?.length ? { devices: [...at.devices] } : {}),
    ...(at.vendor ? { vendor: at.vendor } : {}),
    runtime: config.runtime.kind === 'docker' ? { kind: 'docker', image: config.runtime.image } : { kind: 'native' },
    ...(sim ? { sim: { gpu: sim.gpu, gpus: sim.gpus, speed: at.speed ?? sim.speed, seed: sim.seed } } : {}),
    ...(config.llamacpp?.server ? { llamaServer: config.llamacpp.server } : {}),
  };
}

/** llama-server is launched by its path (the user's, PATH's or servelab's build), so the command runs as shown. */
function withExecutable(variant: Variant, ctx: LaunchContext): LaunchContext {
  const find = getAdapter(variant.engine).findExecutable;
  if (!find || ctx.sim || ctx.runtime.kind !== 'native' || ctx.runtime.executable) return ctx;
  const executable = find(ctx.llamaServer);
  return executable ? { ...ctx, runtime: { kind: 'native', executable } } : ctx;
}

export interface PreparedLaunch {
  /** What is launched, exactly. */
  spec: LaunchSpec;
  /** The real engine's own environment (what a GPU host runs), for profiles and plans. */
  engineEnv: Record<string, string>;
  /** The launched command as one shell line, for consent prompts and logs. */
  display: string;
}

/**
 * The launch spec of a variant. On the simulated host the sim-serve argv plays its modelled load
 * time instantly (`--load-time 0`): at a clock speed the benchmark can measure without timer
 * error (5x), a 30-60 s load would dominate the run; start-up is reported from the same model
 * (modelledStartupS). In a container or on the simulated host the launched env is not the
 * engine's, yet profiles and plans must show what a GPU host would run.
 */
export function prepareLaunch(
  variant: Variant,
  ctxIn: LaunchContext,
  opts: { modelledLoad?: boolean; cacheDir?: string; dummyWeights?: boolean; simTruth?: string } = {},
): PreparedLaunch {
  const ctx = withExecutable(variant, ctxIn);
  if (opts.dummyWeights && !offersDummyWeights(variant.engine)) throw new Error(`${variant.engine} has no dummy-weight load format`);
  // Dummy weights (dummy-weights.ts decides): an engine that takes them in its own file (TensorRT-LLM's
  // YAML) writes them there from the context; flag spellings are the engine's own flags, last on both
  // the engine's argv and the launched one (a docker or sim-serve argv ends with the engine's
  // arguments too; sim-serve reads --load-format like vLLM, and TensorRT-LLM's YAML like it).
  const launchCtx: LaunchContext = opts.dummyWeights ? { ...ctx, dummyWeights: true } : ctx;
  const built = buildLaunchSpec(variant, launchCtx);
  const native =
    ctx.sim || ctx.runtime.kind !== 'native'
      ? getAdapter(variant.engine).command(variant, { ...launchCtx, sim: undefined, runtime: { kind: 'native' } })
      : built;
  const dummy = opts.dummyWeights ? dummyFlags(variant.engine) : [];
  // `servelab serve --sim` keeps the modelled load: a served model comes up as it would.
  // --auto --sim --truth FILE: the simulated host runs on host corrections the planner does not know.
  const argv = [
    ...built.argv,
    ...dummy,
    ...(ctx.sim && !opts.modelledLoad ? ['--load-time', '0'] : []),
    ...(ctx.sim && opts.simTruth ? ['--truth', opts.simTruth] : []),
  ];
  // The session's compile caches (startup-cache.ts): variants of one engine after the first reuse
  // them. Native launches only: a container would need the folder mounted (not done yet). Not in
  // engineEnv: profiles and plans keep the engine's own command, free of this run's folders.
  // sim-serve reads the same variables (src/sim/imitation/startup.ts), plus the simulated host's page cache.
  const simHost: Record<string, string> =
    ctx.sim && opts.cacheDir ? { SERVELAB_SIM_PAGE_CACHE: join(opts.cacheDir, 'sim-page-cache') } : {};
  const cache = opts.cacheDir && ctx.runtime.kind === 'native' ? { ...cacheEnv(variant.engine, opts.cacheDir), ...simHost } : {};
  const spec: LaunchSpec = { ...built, argv, engineArgv: [...built.engineArgv, ...dummy], env: { ...built.env, ...cache } };
  return { spec, engineEnv: native.env, display: formatCommand(spec.argv, spec.env) };
}

/** The address a client reaches a server on: a wildcard bind is reached on loopback. */
export function baseUrl(spec: Pick<LaunchSpec, 'host' | 'port'>): string {
  return `http://${urlHost(spec.host)}:${spec.port}`;
}
