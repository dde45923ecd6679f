// `--runtime slurm`: one variant's server as one Slurm job (src/host/slurm/job.ts). The command is
// the one prepareLaunch builds (the one launch path); a variant wider than one node becomes the
// engine's own multi-node launch (engine-ranks.ts). The job ID is journalled at once (a job-state
// event), the job is registered so Ctrl-C, SIGTERM and SIGHUP scancel it (signals.ts) and the exit
// hook cancels it synchronously; pending states reach the live panel; the ready timeout starts
// when the job runs; a failed start is classified by the adapter from the job's output file.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Failure, VariantResult } from '../../../core/events.js';
import { UserError } from '../../../core/errors.js';
import type { Variant } from '../../../core/variant.js';
import { adapterFor, getAdapter } from '../../../engines/index.js';
import { engineRanks } from '../../../engines/ranks.js';
import { findFreePort } from '../../../host/ports.js';
import {
  describeJob,
  launchSlurmJob,
  type SlurmCli,
  type SlurmJobHandle,
  type SlurmJobInfo,
  type SlurmRequest,
  sglangRanks,
} from '../../../host/slurm/index.js';
import { gpusHeld } from '../../../model/layout.js';
import type { SlurmRuntimeConfig } from '../../config/config.js';
import { modelledStartupS } from '../../plan/deps.js';
import { launchWeights } from '../../launch/dummy-weights.js';
import { launchContext, prepareLaunch } from '../../launch/launch.js';
import type { LaunchRecord, RunVariantContext, ServerStart } from '../contract/types.js';
import { describeJobGpus, jobGpus, singleNodeGpuIds } from './gpus.js';
import { cpusPerTask } from './cpu.js';
import { jobServer, type JobServer } from './handle.js';

/** The Slurm client environment: the ambient one (SLURM_CONF and PATH of the login node). */
export const SLURM_CLI: SlurmCli = {};

/** GPUs per node of the cluster this session tunes on: the simulated one, or what Slurm reported. */
export function gpusPerNode(ctx: Pick<RunVariantContext, 'config' | 'host'>): number {
  const sim = ctx.config.sim;
  if (sim) return sim.gpus / (sim.nodes ?? 1);
  const r = ctx.config.runtime as SlurmRuntimeConfig;
  // A CPU-only partition (llama.cpp): 0 GPUs per node, jobs ask for none.
  return r.gpusPerNode ?? (ctx.host.cpu && !ctx.host.gpus.length ? 0 : Math.max(1, ctx.host.gpus.length));
}

/** Nodes a variant spans: its GPUs (tp x pp x dp, dp-attention inside tp) over GPUs per node; one node and no GPU on a CPU cluster. */
export function variantNodes(variant: Variant, perNode: number): { nodes: number; gpusPerNode: number } {
  if (perNode === 0) return { nodes: 1, gpusPerNode: 0 };
  const used = gpusHeld(variant.engine, variant.knobs);
  const nodes = Math.max(1, Math.ceil(used / perNode));
  return { nodes, gpusPerNode: nodes > 1 ? perNode : used };
}

function failureFromJob(
  job: SlurmJobHandle,
  info: SlurmJobInfo | null,
  classify: (lines: string[], exit: { code: number | null; signal: string | null; timedOut?: boolean }) => Failure,
): Failure {
  const lines = job.tail(50);
  const exit = { code: info?.exitCode ?? null, signal: info?.signal ? `signal ${info.signal}` : null };
  const f = classify(lines, exit);
  const state = info ? describeJob(info) : 'gone from the queue';
  return { ...f, reason: `${f.reason} (Slurm job ${job.jobId}: ${state})`, evidence: f.evidence ?? lines.slice(-8) };
}

/**
 * The head's rendezvous port. SGLang under `--dist-init-addr HEAD:P` binds P ... P+6 and P+13 on
 * the head (the adapter's distInitPorts), so for it the whole set is kept clear of the ports
 * this session already uses, and reserved.
 */
export async function headDistPort(variant: Variant, host: string | undefined, port: number, used: Set<number>): Promise<number> {
  for (let from = port + 1; ;) {
    const p = await findFreePort({ ...(host ? { host } : {}), from, exclude: used });
    const set = getAdapter(variant.engine).distInitPorts?.(p) ?? [p];
    if (!set.some((x) => used.has(x) || x === port)) {
      for (const x of set) used.add(x);
      return p;
    }
    from = p + 1;
  }
}

/** Submit, wait for RUNNING and for the head's health endpoint, or return the classified failure. */
export async function startSlurmServer(
  variant: Variant,
  ctx: RunVariantContext,
  stopSignal: AbortSignal,
  simSpeed?: number,
): Promise<ServerStart> {
  const sim = ctx.config.sim;
  const runtime = ctx.config.runtime as SlurmRuntimeConfig;
  const perNode = gpusPerNode(ctx);
  const { nodes, gpusPerNode: gpn } = variantNodes(variant, perNode);
  const used = ctx.usedPorts ?? new Set<number>();
  const port = await findFreePort({ host: ctx.config.bindHost, from: ctx.config.portStart, exclude: used });
  used.add(port);
  const distPort = nodes > 1 ? await headDistPort(variant, ctx.config.bindHost, port, used) : 0;
  const runDir = join(ctx.logsDir, variant.id);
  // Each node's sim-serve is one node of the cluster (its --gpus); the head sizes the group.
  const launchConfig = sim ? { ...ctx.config, sim: { ...sim, gpus: perNode } } : ctx.config;
  const launchCtx = launchContext(launchConfig, { port, runDir, ...(simSpeed !== undefined ? { speed: simSpeed } : {}) });
  const adapter = adapterFor(variant, launchCtx);
  const weights = launchWeights(ctx.config, variant, ctx.stage);
  const layout = { nodes, gpusPerNode: perNode, distPort, bindHost: ctx.config.bindHost };
  const made = launchRanks(variant, ctx, launchCtx, layout, weights?.kind === 'dummy');
  if ('failure' in made) return { ok: false, failure: made.failure, extra: {} };
  const { prepared, ranks } = made;
  const { spec, engineEnv } = prepared;
  const base: LaunchRecord = { argv: spec.argv, engineArgv: spec.engineArgv, env: engineEnv, ...(weights ? { weights } : {}) };
  for (const f of spec.files) {
    mkdirSync(dirname(f.path), { recursive: true });
    writeFileSync(f.path, f.content);
  }
  emitLaunching(ctx, variant, spec.argv, port);
  const log = (line: string) => ctx.emit({ type: 'server-log', variantId: variant.id, line, stream: 'stdout' });
  const cpus = cpusPerTask(variant, ctx.host);
  let job: SlurmJobHandle;
  try {
    job = await launchSlurmJob({
      cli: SLURM_CLI,
      runDir,
      request: jobRequest(variant, runtime, { nodes, gpusPerNode: gpn, tasksPerNode: ranks.tasksPerNode, cpusPerTask: cpus }),
      env: spec.env,
      ranks: ranks.ranks,
      port,
      healthPath: spec.healthPath,
      onLine: log,
      onState: (s) => {
        ctx.emit({ type: 'job-state', variantId: variant.id, jobId: s.jobId, state: s.state, reason: s.reason, text: describeJob(s) });
        log(`servelab: Slurm job ${s.jobId} ${describeJob(s)}`);
      },
    });
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return {
      ok: false,
      failure: { kind: 'unsupported', reason: e.message, hint: 'check --partition, --account, --time and --slurm-arg' },
      extra: base,
    };
  }
  // Journalled at once: job-state events go to the run's events.jsonl as they are emitted.
  const size = cpus !== undefined && !gpn ? `${cpus} CPU(s), no GPU` : `${gpn} GPU(s)`;
  ctx.emit({
    type: 'job-state',
    variantId: variant.id,
    jobId: job.jobId,
    state: 'SUBMITTED',
    text: `submitted (${nodes} node(s) x ${size})`,
  });
  const server = jobServer(job, SLURM_CLI, { argv: spec.argv, runDir, port });
  return await waitUp(variant, ctx, stopSignal, job, server, {
    spec,
    base,
    adapter,
    simSpeed,
    classify: (l, x) => adapter.classifyFailure(l, x),
  });
}

type Layout = Parameters<typeof engineRanks>[3];

function emitLaunching(ctx: RunVariantContext, variant: Variant, argv: string[], port: number): void {
  const extra = { ...(variant.label ? { label: variant.label } : {}), ...(ctx.run ? { run: ctx.run } : {}) };
  ctx.emit({ type: 'variant-launching', variantId: variant.id, stage: ctx.stage, argv, port, ...extra });
}

/** The launch and the per-rank commands of a job; an engine's refusal (bad flag, impossible layout) as a failure. */
function launchRanks(
  variant: Variant,
  ctx: RunVariantContext,
  launchCtx: ReturnType<typeof launchContext>,
  layout: Layout,
  dummyWeights: boolean,
): { prepared: ReturnType<typeof prepareLaunch>; ranks: ReturnType<typeof engineRanks> } | { failure: Failure } {
  const sim = ctx.config.sim;
  try {
    const prepared = prepareLaunch(variant, launchCtx, { dummyWeights, ...(sim?.truth ? { simTruth: sim.truth } : {}) });
    // The real engine's multi-node launch decides what is possible (vLLM 0.11 refuses a replica
    // over nodes); the simulated engine then starts with SGLang's flags (engine-ranks.ts sglangRanks).
    const real = engineRanks(variant.engine, sim ? prepared.spec.engineArgv : prepared.spec.argv, variant.knobs, layout);
    if (!sim) return { prepared, ranks: real };
    return {
      prepared,
      ranks: layout.nodes > 1 ? sglangRanks(prepared.spec.argv, layout) : engineRanks('sglang', prepared.spec.argv, variant.knobs, layout),
    };
  } catch (e) {
    if (!(e instanceof UserError)) throw e;
    return { failure: { kind: 'bad-flag', reason: e.message } };
  }
}

/** What the job asks of Slurm: its size (GPUs per node, or CPUs per task on a CPU cluster) and the session's sbatch options. */
function jobRequest(
  variant: Variant,
  runtime: SlurmRuntimeConfig,
  size: Pick<SlurmRequest, 'nodes' | 'gpusPerNode' | 'tasksPerNode' | 'cpusPerTask'>,
): SlurmRequest {
  const { cpusPerTask, ...rest } = size;
  return {
    ...rest,
    jobName: `servelab-${variant.id}`.slice(0, 60),
    ...(cpusPerTask !== undefined ? { cpusPerTask } : {}),
    ...(runtime.exclusive || size.nodes > 1 ? { exclusive: true } : {}),
    ...(runtime.partition ? { partition: runtime.partition } : {}),
    ...(runtime.account ? { account: runtime.account } : {}),
    ...(runtime.time ? { time: runtime.time } : {}),
    ...(runtime.extra.length ? { extra: runtime.extra } : {}),
  };
}

/**
 * The GPUs Slurm gave the running job (tune/run/slurm/gpus.ts), said in a job-state event (journalled) and
 * kept as the result's gpuIds for a one-node job. The plan's GPU slot of a parallel variant
 * (ctx.gpuIds) is not used on Slurm: Slurm places each job and pins it itself.
 */
async function recordGpus(variant: Variant, ctx: RunVariantContext, job: SlurmJobHandle, base: LaunchRecord): Promise<LaunchRecord> {
  const groups = await jobGpus(SLURM_CLI, job.jobId);
  if (!groups.length) return base;
  const text = `RUNNING on ${describeJobGpus(groups)} (Slurm's GRES allocation, its CUDA_VISIBLE_DEVICES)`;
  ctx.emit({ type: 'job-state', variantId: variant.id, jobId: job.jobId, state: 'RUNNING', text });
  ctx.emit({ type: 'server-log', variantId: variant.id, line: `servelab: Slurm job ${job.jobId} ${text}`, stream: 'stdout' });
  const ids = singleNodeGpuIds(groups);
  return ids ? { ...base, gpuIds: ids } : base;
}

interface UpParts {
  spec: ReturnType<typeof prepareLaunch>['spec'];
  base: LaunchRecord;
  adapter: ReturnType<typeof adapterFor>;
  simSpeed?: number;
  classify: (lines: string[], exit: { code: number | null; signal: string | null }) => Failure;
}

async function waitUp(
  variant: Variant,
  ctx: RunVariantContext,
  stopSignal: AbortSignal,
  job: SlurmJobHandle,
  server: JobServer,
  p: UpParts,
): Promise<ServerStart> {
  const sim = ctx.config.sim;
  const stop = () => server.stop();
  const speed = p.spec.speed > 0 ? p.spec.speed : 1;
  try {
    const run = await job.waitRunning(stopSignal);
    if ('aborted' in run) {
      await stop();
      return {
        ok: false,
        failure: {
          kind: 'aborted',
          reason: `stopped while Slurm job ${job.jobId} was ${job.state() ? describeJob(job.state()!) : 'queued'}`,
        },
        extra: p.base,
      };
    }
    if ('finished' in run) {
      await stop();
      return { ok: false, failure: failureFromJob(job, run.finished, p.classify), extra: p.base };
    }
    p.base = await recordGpus(variant, ctx, job, p.base);
    const ready = await job.waitReady(ctx.config.readyTimeoutS * 1000, stopSignal);
    const startupS = sim
      ? (modelledStartupS(variant, sim, { dummyWeights: p.base.weights?.kind === 'dummy' }) ?? ready.startupS * speed)
      : ready.startupS;
    if (!ready.ready) {
      await stop();
      const failure: Failure =
        ready.why === 'exited'
          ? failureFromJob(job, ready.job, p.classify)
          : ready.why === 'aborted'
            ? { kind: 'aborted', reason: 'stopped while the server was starting' }
            : {
                kind: 'startup-timeout',
                reason: `the head at ${run.endpoint} did not answer ${p.spec.healthPath} within ${ctx.config.readyTimeoutS} s of the job running`,
                evidence: job.tail(8),
              };
      return { ok: false, failure, extra: { ...p.base, startupS } };
    }
    const url = new URL(run.endpoint);
    // The benchmark and the sampler reach the head over the network.
    const spec = { ...p.spec, host: url.hostname, port: Number(url.port) };
    server.watch();
    return { ok: true, handle: server, spec, adapter: p.adapter, base: p.base, startupS, speed };
  } catch (e) {
    await stop().catch(() => undefined);
    throw e;
  }
}
