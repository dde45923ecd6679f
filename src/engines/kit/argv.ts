// Small helpers shared by the adapters: build argv flag by flag, and turn an engine's native
// argv into the final LaunchSpec (native, or wrapped in `docker run`).
import os from 'node:os';
import path from 'node:path';
import type { EngineName, Knobs } from '../../core/variant.js';
import { withEnvKnob } from '../../core/env-knob.js';
import { assertFlagsListed } from './help-check.js';
import type { LaunchContext } from './types.js';
import { BIND_ALL } from '../../core/dial.js';
import type { LaunchSpec } from '../../host/launch-spec.js';
import { deviceEnv, dockerGpuArgs } from '../../host/device-env.js';

/** Append `flag value` when value is set; booleans append the bare flag when true. */
export function flag(argv: string[], name: string, value: string | number | boolean | undefined): void {
  if (value === undefined || value === false) return;
  if (value === true) argv.push(name);
  else argv.push(name, String(value));
}

/** The bind address an engine gets: inside a container it must listen on all interfaces. */
export function engineHost(ctx: LaunchContext): string {
  return ctx.runtime.kind === 'docker' ? BIND_ALL : ctx.host;
}

/**
 * Environment shared by the real engines: the variant's own variables (its `env` knob), then GPUs
 * pinned with the vendor's variables (host/device-env.ts), which a knob does not override.
 */
export function baseEnv(ctx: LaunchContext, knobs: Pick<Knobs, 'env'> = {}): Record<string, string> {
  return withEnvKnob(knobs.env, deviceEnv(ctx.vendor, ctx.devices ?? []));
}

/** The Hugging Face cache the container mounts (HF_HOME, else ~/.cache/huggingface). */
export function hfCacheDir(ctx: LaunchContext): string {
  if (ctx.runtime.kind === 'docker' && ctx.runtime.hfCache) return ctx.runtime.hfCache;
  return process.env.HF_HOME ?? path.join(os.homedir(), '.cache', 'huggingface');
}

/** A container name unique to this launch, so cleanup can remove exactly this container. */
export function containerName(engine: string, port: number): string {
  return `servelab-${engine}-${port}-${process.pid}`;
}

/**
 * `docker run` around the engine argv. The entrypoint is overridden with argv[0] so the same
 * argv works whatever the image's own ENTRYPOINT is (vllm-openai sets one, sglang's does not).
 */
export function dockerWrap(
  engine: string,
  engineArgv: string[],
  env: Record<string, string>,
  ctx: LaunchContext & { runtime: { kind: 'docker'; image: string; hfCache?: string } },
): { argv: string[]; cleanupArgv: string[] } {
  const name = containerName(engine, ctx.port);
  const gpus = dockerGpuArgs(ctx.vendor, ctx.devices);
  const argv = [
    'docker',
    'run',
    '--rm',
    '--name',
    name,
    ...gpus.args,
    '--ipc=host',
    '-p',
    `${ctx.host}:${ctx.port}:${ctx.port}`,
    '-v',
    `${hfCacheDir(ctx)}:/root/.cache/huggingface`,
    '-v',
    `${ctx.runDir}:${ctx.runDir}`,
  ];
  for (const [k, v] of Object.entries(env)) {
    // NVIDIA: the pinning is expressed by --gpus inside the container.
    if (gpus.dropEnv.includes(k)) continue;
    if (k === 'HF_TOKEN' || k === 'HUGGING_FACE_HUB_TOKEN')
      argv.push('-e', k); // value from the environment, not argv
    else argv.push('-e', `${k}=${v}`);
  }
  if (process.env.HF_TOKEN) argv.push('-e', 'HF_TOKEN');
  argv.push('--entrypoint', engineArgv[0]!, ctx.runtime.image, ...engineArgv.slice(1));
  return { argv, cleanupArgv: ['docker', 'rm', '-f', name] };
}

/**
 * Assemble the LaunchSpec for a real engine, native or in a container. A flag the installed
 * engine's own help does not list (help-check.ts, for releases servelab has not read) is refused.
 */
export function finishSpec(
  engine: EngineName,
  engineArgv: string[],
  env: Record<string, string>,
  files: LaunchSpec['files'],
  ctx: LaunchContext,
  readyLogLine: RegExp,
): LaunchSpec {
  assertFlagsListed(engine, engineArgv);
  const common = { files, host: ctx.host, port: ctx.port, healthPath: '/health', readyLogLine, speed: 1, engine } as const;
  if (ctx.runtime.kind === 'docker') {
    const { argv, cleanupArgv } = dockerWrap(engine, engineArgv, env, ctx as Parameters<typeof dockerWrap>[3]);
    return { ...common, argv, env: {}, engineArgv, cleanupArgv, image: ctx.runtime.image };
  }
  const argv = [...engineArgv];
  if (ctx.runtime.executable) argv[0] = ctx.runtime.executable;
  return { ...common, argv, env, engineArgv };
}
