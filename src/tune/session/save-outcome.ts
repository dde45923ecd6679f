// The end of a successful session: pricing and client-bound notes, the profile, its Markdown
// report, and the journal marked finished.
import { hostLoadNotes } from '../../core/host-load.js';
import { regressionLine } from '../../core/validation-table.js';
import { decisionRecord } from '../stage/noise-record.js';
import { existsSync, mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { gpusPerNode, variantNodes } from '../run/slurm/start.js';
import type { VariantResult } from '../../core/events.js';
import { buildProfile, reportPathFor, saveProfile } from '../../profiles/store/store.js';
import { renderReport } from '../../profiles/report/report.js';
import { workloadFromScenario } from '../config/profile-workload.js';
import type { Profile, StageRecord, ValidationRow } from '../../profiles/schema/profile.js';
import { dollarsPerMillionTokens } from '../decide/decide.js';
import { writeFileAtomic } from '../../core/atomic-write.js';
import { benchCommand } from '../config/scenarios.js';
import { dummyWeightsNote, servingArgv } from '../launch/dummy-weights.js';
import type { SessionContext } from '../context/session-context.js';
import type { StageLoopState } from '../stage/loop.js';
import { sweepRecord, type SweepRecord } from '../../sweep/record.js';
import { loadLabel } from '../../sweep/spec.js';
import { writeSweepChart } from '../sweep/chart-file.js';
import { FINALIST_RULE } from '../sweep/finalists.js';
import type { SessionSweep } from '../sweep/session-sweep.js';
import { qualityRecord } from '../stage/quality-check.js';
import type { CapacityRecord } from '../../capacity/record.js';
import { capacitySvg } from '../../capacity/text.js';

function closingNotes(ctx: SessionContext, state: StageLoopState, winner: VariantResult, validation: readonly ValidationRow[]): string[] {
  const notes = [...state.notes];
  const price = ctx.config.gpuHourPrice;
  const gpus = ctx.planHost.gpuCount;
  if (price !== undefined && winner.metrics) {
    const w = dollarsPerMillionTokens(winner.metrics, gpus, price);
    const b =
      state.baseline?.status === 'ok' && state.baseline.metrics ? dollarsPerMillionTokens(state.baseline.metrics, gpus, price) : null;
    if (w !== null)
      notes.push(`At $${price}/GPU-hour: $${w.toFixed(3)} per million tokens${b !== null ? ` (baseline $${b.toFixed(3)})` : ''}.`);
  }
  const clientBound = state.stages
    .flatMap((s) => s.results)
    .filter((r) => r.clientBound)
    .map((r) => r.variantId);
  if (clientBound.length)
    notes.push(`The benchmark client was the bottleneck while measuring ${clientBound.join(', ')}: those figures understate the server.`);
  notes.push(...hostLoadNotes(state.stages.flatMap((s) => s.results)));
  const note = dummyWeightsNote(
    state.stages.flatMap((s) => s.results),
    validation.length > 0,
    ctx.plan.dummyWeights,
  );
  if (note) notes.push(note);
  return notes;
}

/**
 * The winner's start-up as it will serve: a winner tuned on dummy weights started without reading
 * its weights, so its real start-up is its validation launch's (null when validation did not run it).
 */
function servingStartupS(ctx: SessionContext, winner: VariantResult): number | null {
  if (winner.weights?.kind !== 'dummy') return winner.startupS ?? null;
  const real = ctx.journal
    .entries()
    .find((e) => e.role === 'validate' && e.result.variantId === winner.variantId && e.result.startupS !== undefined);
  return real?.result.startupS ?? null;
}

/**
 * The winner's command names the file its last launch wrote (TensorRT-LLM's YAML in the run's
 * logs). A winner measured on dummy weights that validation did not launch again left
 * `load_format: dummy` there: write the profile's files (rebuilt from the variant, real weights)
 * so the printed and reported command loads the real weights, as they say it does.
 */
export function writeServingFiles(profile: Pick<Profile, 'files'>, winner: Pick<VariantResult, 'weights'>): void {
  if (winner.weights?.kind !== 'dummy') return;
  for (const f of profile.files) if (existsSync(f.path)) writeFileAtomic(f.path, f.content);
}

export interface Saved {
  profile: Profile;
  profilePath: string;
  reportPath: string;
}

/** `--runtime slurm`: the nodes the winner's job spanned, for `export --format slurm`. */
function winnerNodes(config: SessionContext['config'], ctx: SessionContext, winner: VariantResult): { nodes?: number } {
  if (config.runtime.kind !== 'slurm') return {};
  return { nodes: variantNodes(winner.variant, gpusPerNode({ config, host: ctx.host })).nodes };
}

/** The sweep's record for the profile, and the choice in the notes. */
function sweepPart(ctx: SessionContext, swept: SessionSweep): { record: SweepRecord; notes: string[] } {
  const { config } = ctx;
  const record = sweepRecord(swept.sweeps, swept.analysis, {
    spec: swept.spec,
    workload: config.scenario.name,
    gpus: ctx.planHost.gpuCount,
    slo: config.slo,
    sweepAll: config.sweep?.all ?? false,
    simulated: ctx.host.simulated,
  });
  const c = swept.analysis.choice;
  const notes = [`Load sweep of ${swept.finalists.length} finalist(s) (${FINALIST_RULE}).`];
  if (c)
    notes.push(
      `${swept.chosen ? 'Chosen by the frontier' : 'Frontier choice (not applied: the objective is not frontier)'}: ${c.sentence}${swept.runnerUp ? `; runner-up: ${swept.runnerUp}` : ''}.`,
    );
  else notes.push(`Frontier: ${swept.analysis.noChoice}; the staged winner stands.`);
  if (swept.chosen && swept.chosen.load.value !== Infinity)
    notes.push(`Validation ran both sides at ${loadLabel(swept.chosen.load)}, the load the frontier chose.`);
  return { record, notes };
}

/** --capacity: the answer's chart beside the report (as `servelab capacity` writes it); its file name. */
function capacityChart(ctx: SessionContext, reportPath: string, record: CapacityRecord): string {
  const h = ctx.planHost;
  const file = reportPath.replace(/\.md$/, '.capacity.svg');
  writeFileAtomic(
    file,
    capacitySvg(record, { title: `${ctx.config.model} on ${h.gpuCount} x ${h.gpuName}: capacity by ${record.by}`, gpus: h.gpuCount }),
  );
  return basename(file);
}

/** The exit line's word on the saved winner's regressions (validation-table.ts regressionLine). */
function regressionOf(validation: readonly ValidationRow[]): { regression?: string } {
  const regression = regressionLine(validation);
  return regression ? { regression } : {};
}

export function saveOutcome(
  ctx: SessionContext,
  state: StageLoopState,
  winner: VariantResult,
  validation: ValidationRow[],
  swept?: SessionSweep | null,
  capacity?: CapacityRecord | null,
): Saved {
  const { config, planHost: host } = ctx;
  const cost = ctx.cost.summary();
  ctx.emit({ type: 'session-cost', cost });
  const sweep = swept ? sweepPart(ctx, swept) : null;
  const profile = buildProfile({
    source: 'session',
    host: {
      gpuName: host.gpuName,
      gpuCount: host.gpuCount,
      gpuMemoryMiB: host.gpuMemMiB,
      ...(host.driver ? { driver: host.driver } : {}),
      simulated: ctx.host.simulated,
      ...winnerNodes(config, ctx, winner),
      ...(host.cpu ? { cpuThreads: host.cpu.threads, ...(host.cpu.model ? { cpuModel: host.cpu.model } : {}) } : {}),
      ...(host.vendor ? { vendor: host.vendor } : {}),
    },
    model: config.model,
    // Inside a Slurm job the engine runs natively; the job itself is `export --format slurm`.
    engine: {
      name: winner.variant.engine,
      version: ctx.versions[winner.variant.engine] ?? 'unknown',
      runtime: config.runtime.kind === 'slurm' ? { kind: 'native' } : config.runtime,
    },
    engineVersions: ctx.versions,
    variant: winner.variant,
    argv: winner.argv,
    // What replay, serve and export run: the real weights, whatever the winner was measured with.
    engineArgv: servingArgv(winner.engineArgv ?? winner.argv, winner.variant.engine, winner.weights),
    env: winner.env ?? {},
    workload: workloadFromScenario(config.scenario, benchCommand(config.scenario, winner.variant.model)),
    objective: config.objective,
    slo: config.slo,
    ...(config.tpot ? { tpot: config.tpot } : {}),
    metrics: winner.metrics!,
    startupS: servingStartupS(ctx, winner),
    stages: state.stages,
    validation,
    notes: [...closingNotes(ctx, state, winner, validation), ...(sweep?.notes ?? [])],
    cost,
    ...(ctx.calibration?.record() ? { calibration: ctx.calibration.record()! } : {}),
    ...qualityRecord(ctx, stageResults(state.stages)),
    ...(ctx.budget ? { budget: { ...ctx.budget.plan, spentGpuHours: ctx.budget.state().spentGpuHours, skipped: ctx.budget.skipped } } : {}),
    decision: decisionRecord(ctx, state.stages, winner.variantId),
  });
  writeServingFiles(profile, winner);
  const profilesDir = join(config.outDir, 'profiles');
  mkdirSync(profilesDir, { recursive: true });
  // saveProfile picks a free name (never another run's file): use the path it returns. With a
  // sweep it is saved again under that name (the same run replaces itself) with the chart's name.
  let saved: Profile = sweep ? { ...profile, sweep: sweep.record } : profile;
  const profilePath = saveProfile(saved, profilesDir);
  const reportPath = reportPathFor(profilePath);
  if (sweep && swept) {
    const chart = writeSweepChart(reportPath, swept.sweeps, swept.analysis, sweep.record, {
      model: config.model,
      gpuName: host.gpuName,
      gpuCount: host.gpuCount,
      simulated: ctx.host.simulated,
    });
    saved = { ...saved, sweep: { ...sweep.record, chart } };
    saveProfile(saved, profilesDir);
  }
  if (capacity) {
    saved = { ...saved, capacity: { ...capacity, chart: capacityChart(ctx, reportPath, capacity) } };
    saveProfile(saved, profilesDir);
  }
  writeFileAtomic(reportPath, renderReport(saved));
  ctx.journal.update({ status: 'finished', profilePath, reportPath, exitCode: 0, current: null });
  ctx.emit({ type: 'session-finished', profilePath, reportPath, exitCode: 0, ...regressionOf(validation) });
  return { profile: saved, profilePath, reportPath };
}

const stageResults = (stages: readonly StageRecord[]) => stages.flatMap((s) => s.results);
