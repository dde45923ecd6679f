// `servelab replay PROFILE --sweep`: sweep the profile's server again at the recorded levels and
// compare the frontier with the recorded one (compareSweeps): with an SLO, the most tok/s/GPU
// meeting it, recorded vs now; without, load by load. A drop beyond the tolerance is a
// regression (exit 3), as a plain replay's; nothing measured is a failure (exit 1).
import { UserError } from '../../core/errors.js';
import type { TuneEvent } from '../../core/events.js';
import { parseSlo, type SloRule } from '../../core/slo-rule.js';
import { compareSweeps, type SweepComparison } from '../../sweep/compare.js';
import { sweepsOf, type SweepRecord } from '../../sweep/record.js';
import { parseSweep } from '../../sweep/spec.js';
import type { VariantSweep } from '../../sweep/types.js';
import type { Journal } from '../context/journal.js';
import type { Profile } from '../../profiles/schema/profile.js';
import { EXIT, type ReplaySetup } from './replay.js';
import { runProfileSweep, type SweepJobConfig } from './sweep-profile.js';
import type { SweepPoint } from '../../sweep/types.js';

export interface SweepReplayPlan {
  record: SweepRecord;
  job: SweepJobConfig;
  /** The recorded series of the profile's own variant (a session may have swept several). */
  recorded: VariantSweep[];
}

/** What to re-sweep, from the profile's `sweep` section; one-line UserError when there is none. */
/** The profile's recorded sweep; one-line UserError when it has none (checked before anything is prepared). */
export function recordedSweep(profile: Pick<Profile, 'sweep'>, file: string): SweepRecord {
  if (!profile.sweep)
    throw new UserError(`${file} has no sweep to compare with; run 'servelab sweep ${file}' first (or replay without --sweep)`);
  return profile.sweep;
}

export function planSweepReplay(setup: ReplaySetup, file: string): SweepReplayPlan {
  const record = recordedSweep(setup.profile, file);
  const recorded = sweepsOf(record).filter((s) => s.variantId === setup.profile.variant.id);
  if (!recorded.length)
    throw new UserError(
      `${file}: its sweep has no series of the profile's variant ${setup.profile.variant.id}; run 'servelab sweep ${file}' first`,
    );
  let slo: SloRule[];
  try {
    slo = record.slo ? parseSlo(record.slo) : setup.profile.slo;
  } catch {
    throw new UserError(`${file}: the sweep's SLO '${record.slo}' does not parse; fix it or run 'servelab sweep ${file}' again`);
  }
  // Points of one size were asked for (`servelab sweep --prompts N`): the same size again.
  const sizes = new Set(recorded[0]!.points.map((p) => p.numPrompts));
  const prompts = sizes.size === 1 ? [...sizes][0]! : undefined;
  const job: SweepJobConfig = {
    command: 'sweep',
    profile: file,
    spec: parseSweep(record.spec),
    slo,
    sweepAll: record.sweepAll,
    ...(prompts ? { prompts } : {}),
  };
  return { record, job, recorded };
}

export interface SweepReplayOutcome {
  sweep: VariantSweep;
  comparison: SweepComparison;
  exitCode: number;
}

export async function executeSweepReplay(
  setup: ReplaySetup,
  plan: SweepReplayPlan,
  o: {
    journal: Journal<SweepJobConfig>;
    readyTimeoutS: number;
    sim: boolean;
    tolerancePct: number;
    signal?: AbortSignal;
    emit?: (e: TuneEvent) => void;
    onPoint?: (variantId: string, p: SweepPoint) => void;
  },
): Promise<SweepReplayOutcome> {
  const { sweep } = await runProfileSweep(setup, {
    journal: o.journal,
    readyTimeoutS: o.readyTimeoutS,
    bindHost: '127.0.0.1',
    sim: o.sim,
    ...(o.signal ? { signal: o.signal } : {}),
    ...(o.emit ? { emit: o.emit } : {}),
    ...(o.onPoint ? { onPoint: o.onPoint } : {}),
  });
  const comparison = compareSweeps(plan.recorded, [sweep], {
    gpus: setup.profile.host.gpuCount,
    slo: plan.job.slo,
    marginPct: o.tolerancePct,
  });
  const exitCode = comparison.verdict === 'regression' ? EXIT.regression : comparison.verdict === 'failed' ? EXIT.failed : EXIT.ok;
  return { sweep, comparison, exitCode };
}
