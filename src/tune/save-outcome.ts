// The end of a successful session: pricing and client-bound notes, the profile, its Markdown
// report, and the journal marked finished.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { VariantResult } from '../core/events.js';
import { buildProfile, reportPathFor, saveProfile } from '../profiles/store.js';
import { renderReport } from '../profiles/report.js';
import { workloadFromScenario } from './profile-workload.js';
import type { Profile } from '../profiles/schema.js';
import { dollarsPerMillionTokens } from './decide.js';
import { writeFileAtomic } from './journal.js';
import { benchCommand } from './scenarios.js';
import type { SessionContext } from './session-context.js';
import type { StageLoopState } from './stages.js';
import type { ValidationRow } from './validate.js';

function closingNotes(ctx: SessionContext, state: StageLoopState, winner: VariantResult): string[] {
  const notes = [...state.notes];
  const price = ctx.config.gpuHourPrice;
  const gpus = ctx.planHost.gpuCount;
  if (price !== undefined && winner.metrics) {
    const w = dollarsPerMillionTokens(winner.metrics, gpus, price);
    const b = state.baseline?.metrics ? dollarsPerMillionTokens(state.baseline.metrics, gpus, price) : null;
    if (w !== null) notes.push(`At $${price}/GPU-hour: $${w.toFixed(3)} per million tokens${b !== null ? ` (baseline $${b.toFixed(3)})` : ''}.`);
  }
  const clientBound = state.stages.flatMap((s) => s.results).filter((r) => r.clientBound).map((r) => r.variantId);
  if (clientBound.length) notes.push(`The benchmark client was the bottleneck while measuring ${clientBound.join(', ')}: those figures understate the server.`);
  return notes;
}

export interface Saved {
  profile: Profile;
  profilePath: string;
  reportPath: string;
}

export function saveOutcome(ctx: SessionContext, state: StageLoopState, winner: VariantResult, validation: ValidationRow[]): Saved {
  const { config, planHost: host } = ctx;
  const cost = ctx.cost.summary();
  ctx.emit({ type: 'session-cost', cost });
  const profile = buildProfile({
    source: 'session',
    host: { gpuName: host.gpuName, gpuCount: host.gpuCount, gpuMemoryMiB: host.gpuMemMiB, ...(host.driver ? { driver: host.driver } : {}), simulated: ctx.host.simulated },
    model: config.model,
    engine: { name: winner.variant.engine, version: ctx.versions[winner.variant.engine] ?? 'unknown', runtime: config.runtime },
    engineVersions: ctx.versions,
    variant: winner.variant,
    argv: winner.argv,
    engineArgv: winner.engineArgv ?? winner.argv,
    env: winner.env ?? {},
    workload: workloadFromScenario(config.scenario, benchCommand(config.scenario, winner.variant.model)),
    objective: config.objective,
    slo: config.slo,
    metrics: winner.metrics!,
    startupS: winner.startupS ?? null,
    stages: state.stages,
    validation,
    notes: closingNotes(ctx, state, winner),
    cost,
  });
  const profilesDir = join(config.outDir, 'profiles');
  mkdirSync(profilesDir, { recursive: true });
  // saveProfile picks a free name (never another run's file): use the path it returns.
  const profilePath = saveProfile(profile, profilesDir);
  const reportPath = reportPathFor(profilePath);
  writeFileAtomic(reportPath, renderReport(profile));
  ctx.journal.update({ status: 'finished', profilePath, reportPath, exitCode: 0, current: null });
  ctx.emit({ type: 'session-finished', profilePath, reportPath, exitCode: 0 });
  return { profile, profilePath, reportPath };
}
