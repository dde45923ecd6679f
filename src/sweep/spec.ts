// Sweep specs: `--sweep concurrency:1,4,16,64,256` or `--sweep rate:1,2,4,8,inf`. Each level is
// one benchmark point on the same launched server; the points become tuning scenarios with a
// load (max concurrency or request rate) so the runner measures them like any other scenario.
import { UserError } from '../core/errors.js';
import type { Scenario } from '../core/scenario.js';

export type SweepKind = 'concurrency' | 'rate';

export interface SweepSpec {
  kind: SweepKind;
  /** Ascending levels; rate levels may end with Infinity (`inf`: all requests at once). */
  levels: number[];
}

/** One load level: `{kind:'concurrency', value:64}` or `{kind:'rate', value:Infinity}`. */
export interface SweepLoad {
  kind: SweepKind;
  value: number;
}

const USAGE = 'expected e.g. --sweep concurrency:1,4,16,64,256 or --sweep rate:1,2,4,8,inf';

/** Parse `--sweep`; throws UserError (one line, exit 2) on anything else. */
export function parseSweep(text: string): SweepSpec {
  const m = /^\s*(concurrency|rate)\s*:\s*(.+)$/i.exec(text);
  if (!m) throw new UserError(`bad --sweep '${text}': ${USAGE}`);
  const kind = m[1]!.toLowerCase() as SweepKind;
  const parts = m[2]!
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new UserError(`bad --sweep '${text}': no levels; ${USAGE}`);
  const levels = parts.map((p) => {
    if (kind === 'rate' && /^inf$/i.test(p)) return Infinity;
    const n = Number(p);
    if (kind === 'concurrency' && !(Number.isInteger(n) && n >= 1)) {
      throw new UserError(`bad --sweep level '${p}': a concurrency is a whole number >= 1; ${USAGE}`);
    }
    if (kind === 'rate' && !(Number.isFinite(n) && n > 0)) {
      throw new UserError(`bad --sweep level '${p}': a rate is requests/s > 0 or inf; ${USAGE}`);
    }
    return n;
  });
  // The early stop assumes each point loads the server more than the one before.
  const sorted = [...levels].sort((a, b) => a - b);
  if (new Set(sorted).size !== sorted.length) throw new UserError(`bad --sweep '${text}': a level is repeated`);
  return { kind, levels: sorted };
}

export function formatSweep(spec: SweepSpec): string {
  return `${spec.kind}:${spec.levels.map((l) => (l === Infinity ? 'inf' : String(l))).join(',')}`;
}

/** "64 concurrent", "8 req/s", "all at once" (rate inf). */
export function loadLabel(load: SweepLoad): string {
  if (load.kind === 'concurrency') return `${load.value} concurrent`;
  return load.value === Infinity ? 'all at once' : `${load.value} req/s`;
}

/** Short tag for names and keys: c64, r8, rinf. */
export function loadTag(load: SweepLoad): string {
  return `${load.kind === 'concurrency' ? 'c' : 'r'}${load.value === Infinity ? 'inf' : load.value}`;
}

/** Fewest prompts a point gets, so even concurrency 1 averages over more than a handful. */
export const MIN_POINT_PROMPTS = 32;
/** Prompts per concurrent slot: enough waves that the queue reaches a steady state. */
export const PROMPTS_PER_SLOT = 8;
/** Seconds of arrivals a rate point covers. */
export const RATE_POINT_S = 60;

/**
 * Prompts for one point: the tuning workload's size at most (its prompts, same seed), fewer at
 * light loads where a full workload would take long and add nothing to the mean.
 */
export function pointPrompts(load: SweepLoad, workloadPrompts: number, override?: number): number {
  if (override) return override;
  if (load.value === Infinity) return workloadPrompts;
  const want = load.kind === 'concurrency' ? load.value * PROMPTS_PER_SLOT : Math.ceil(load.value * RATE_POINT_S);
  return Math.min(workloadPrompts, Math.max(MIN_POINT_PROMPTS, want));
}

/** A scenario that runs at a rate; the runner passes `requestRate` to the benchmark (null = inf). */
export type SweepScenario = Scenario & { requestRate?: number | null; load: SweepLoad };

/** The points of a sweep as scenarios drawn from the tuning workload `base`. */
export function sweepScenarios(base: Scenario, spec: SweepSpec, promptsOverride?: number): SweepScenario[] {
  const conversations = base.dataset === 'multi_turn';
  // Conversations are a closed loop: their load is how many users talk at once, not an arrival rate.
  if (conversations && spec.kind === 'rate')
    throw new UserError(`the multi-turn workload is a closed loop of users: sweep it by users, e.g. --sweep concurrency:1,4,16,64`);
  return spec.levels.map((value) => {
    const load: SweepLoad = { kind: spec.kind, value };
    return {
      ...base,
      name: `${base.name}@${loadTag(load)}`,
      label: `${base.label}, ${loadLabel(load)}`,
      // A multi-turn point's numPrompts counts conversations: as many per user as the workload has.
      numPrompts: conversations
        ? (promptsOverride ?? Math.max(1, Math.round((base.numPrompts / (base.maxConcurrency ?? 1)) * value)))
        : pointPrompts(load, base.numPrompts, promptsOverride),
      maxConcurrency: spec.kind === 'concurrency' ? value : base.maxConcurrency,
      ...(spec.kind === 'rate' ? { requestRate: value === Infinity ? null : value } : {}),
      load,
    };
  });
}
