// Parallel variants: variants of one stage that need fewer GPUs than the host has run at the same
// time on disjoint GPU subsets, each pinned with CUDA_VISIBLE_DEVICES (docker: --gpus
// '"device=..."'), on its own port, with its own benchmark client. Pure scheduling (waves, GPU
// sets, ports, the --parallel limit) plus a small concurrent executor (runParallel).
// Only variants of one stage run together, in the order given (the stage loop gives the predicted
// fastest first, run-order.ts): a wave takes the next variants in order while GPUs and the limit
// allow; the next variant that does not fit starts the next wave (no packing out of order).
import { UserError } from '../../core/errors.js';

export type ParallelSpec = 'auto' | 'off' | number;

export function parseParallel(text: string): ParallelSpec {
  const t = text.trim().toLowerCase();
  if (t === 'auto' || t === 'off') return t;
  const n = Number(t);
  if (Number.isInteger(n) && n >= 1) return n;
  throw new UserError(`--parallel must be auto, off or a positive integer, got '${text}'`);
}

export interface ParallelVariant {
  id: string;
  /** GPUs the variant holds (TP x PP x DP of its server). */
  gpus: number;
}

/**
 * The client side of the limit: each running variant has its own benchmark client, and a client
 * that lacks CPU reports its own delays as the server's (the client-bound check). coresPerClient
 * comes from that check: the variant's expected SSE event rate over what one client core handles.
 */
export interface ClientBudget {
  /** Cores the benchmark clients may use on this host. */
  cores: number;
  coresPerClient: number;
}

export interface ParallelLimit {
  /** Variants at most running at once. */
  limit: number;
  /** One line: why this limit. */
  why: string;
  /** Set when the client CPU, not the GPUs, set the limit (auto only). */
  heldBack?: string;
}

export function parallelLimit(
  spec: ParallelSpec,
  variants: readonly ParallelVariant[],
  hostGpus: number,
  budget: ClientBudget,
): ParallelLimit {
  if (spec === 'off') return { limit: 1, why: '--parallel off: one variant at a time' };
  const smallest = Math.min(...variants.map((v) => Math.max(1, v.gpus)), hostGpus);
  const gpuLimit = Math.max(1, Math.floor(hostGpus / Math.max(1, smallest)));
  if (typeof spec === 'number') return { limit: spec, why: `--parallel ${spec} (the GPUs allow ${gpuLimit} at once)` };
  const cpuLimit = Math.max(1, Math.floor(budget.cores / Math.max(1, budget.coresPerClient)));
  if (cpuLimit < gpuLimit) {
    const heldBack = `parallel: held back to ${cpuLimit} at a time by the client CPU (${budget.cores} cores, ${budget.coresPerClient} per client); the GPUs allow ${gpuLimit}`;
    return { limit: cpuLimit, why: heldBack, heldBack };
  }
  return { limit: gpuLimit, why: `parallel: up to ${gpuLimit} at a time (${hostGpus} GPUs, smallest variant ${smallest})` };
}

export interface Slot {
  id: string;
  gpuIds: number[];
  port: number;
  /** Env for a host launch. */
  env: { CUDA_VISIBLE_DEVICES: string };
  /** Args for a docker launch: ['--gpus', '"device=0,1"'] (docker's own quoting of a list). */
  dockerGpus: [string, string];
}

export interface PortPlan {
  /** First port of a wave. */
  base: number;
  /** Ports between two servers of a wave (engines open a few more next to theirs). Default 10. */
  step?: number;
  /** Ports in use by something else. */
  avoid?: ReadonlySet<number>;
}

export function gpuEnv(ids: readonly number[]): Pick<Slot, 'env' | 'dockerGpus'> {
  const list = ids.join(',');
  return { env: { CUDA_VISIBLE_DEVICES: list }, dockerGpus: ['--gpus', `"device=${list}"`] };
}

/** Waves of slots, in the variants' order; within a wave GPU sets are disjoint and ports distinct. */
export function planWaves(variants: readonly ParallelVariant[], hostGpuIds: readonly number[], limit: number, ports: PortPlan): Slot[][] {
  const step = ports.step ?? 10;
  const waves: Slot[][] = [];
  let wave: Slot[] = [];
  let free = [...hostGpuIds];
  let nextPort = ports.base;
  const close = () => {
    if (wave.length) waves.push(wave);
    wave = [];
    free = [...hostGpuIds];
    nextPort = ports.base;
  };
  for (const v of variants) {
    const need = Math.max(1, v.gpus);
    if (need > hostGpuIds.length) throw new RangeError(`variant ${v.id} needs ${need} GPUs; the host has ${hostGpuIds.length}`);
    if (need > free.length || wave.length >= Math.max(1, limit)) close();
    const gpuIds = free.slice(0, need);
    free = free.slice(need);
    while (ports.avoid?.has(nextPort)) nextPort += step;
    wave.push({ id: v.id, gpuIds, port: nextPort, ...gpuEnv(gpuIds) });
    nextPort += step;
  }
  close();
  return waves;
}

export type TaskOutcome<T> = { status: 'fulfilled'; value: T } | { status: 'rejected'; reason: unknown } | { status: 'not-started' };

/**
 * Runs tasks at most `limit` at a time, in order. A failing task does not stop the others; an
 * abort of `signal` starts no new task and aborts the signal every running task was given
 * (each must stop its server and client on it); the promise settles once every started task has.
 */
export async function runParallel<T>(
  tasks: readonly ((signal: AbortSignal) => Promise<T>)[],
  limit: number,
  signal?: AbortSignal,
): Promise<TaskOutcome<T>[]> {
  const out: TaskOutcome<T>[] = tasks.map(() => ({ status: 'not-started' }));
  const inner = new AbortController();
  const onAbort = () => inner.abort(signal?.reason);
  if (signal?.aborted) onAbort();
  signal?.addEventListener('abort', onAbort, { once: true });
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < tasks.length && !inner.signal.aborted) {
      const i = next++;
      try {
        out[i] = { status: 'fulfilled', value: await tasks[i]!(inner.signal) };
      } catch (reason) {
        out[i] = { status: 'rejected', reason };
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, tasks.length)) }, lane));
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return out;
}
