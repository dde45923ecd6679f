// `servelab sweep PROFILE`, the part that decides and runs: bring the profile's server back
// through replay's preparation (same consent text, same launch), sweep it on a journal, and save
// the sweep into the profile with its report and SVG chart. The command module prints.
import { writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { TuneEvent } from '../../core/events.js';
import { isReferenceProfile } from '../../profiles/store/history.js';
import { renderReport } from '../../profiles/report/report.js';
import { type ReplaySetup } from './replay.js';
import { simGpuFor } from '../../profiles/sim-gpu.js';
import type { Profile } from '../../profiles/schema/profile.js';
import { loadProfile, reportPathFor, saveProfile } from '../../profiles/store/store.js';
import { Journal } from '../context/journal.js';
import type { SloRule } from '../../core/slo-rule.js';
import { analyseSweeps, type SweepAnalysis } from '../../sweep/analyse.js';
import { writeSweepChart } from '../sweep/chart-file.js';
import { sweepDevices, sweepRecord } from '../../sweep/record.js';
import { sweepVariant } from '../sweep/sweep-run.js';
import type { SweepPoint, VariantSweep } from '../../sweep/types.js';
import { runVariantScenarios } from '../run/runner.js';
import type { ScenarioRunner } from '../context/session-context.js';
import type { SweepSpec } from '../../sweep/spec.js';

/** What a sweep run folder's session.json holds; `--resume` takes these, not the flags. */
export interface SweepJobConfig {
  command: 'sweep';
  profile: string;
  spec: SweepSpec;
  slo: SloRule[];
  sweepAll: boolean;
  prompts?: number;
}

export interface SweepRunOptions {
  journal: Journal<SweepJobConfig>;
  readyTimeoutS: number;
  bindHost: string;
  sim: boolean;
  signal?: AbortSignal;
  emit?: (e: TuneEvent) => void;
  onPoint?: (variantId: string, p: SweepPoint) => void;
}

/** A variant's name for tables and charts: its label, else engine and id. */
export function variantName(p: Pick<Profile, 'variant'>): string {
  return p.variant.label ?? `${p.variant.engine} ${p.variant.id}`;
}

/** Launch the profile's server once and sweep it. Throws the runner's AbortedError on abort. */
export async function runProfileSweep(setup: ReplaySetup, o: SweepRunOptions): Promise<{ sweep: VariantSweep; analysis: SweepAnalysis }> {
  const { profile } = setup;
  const job = o.journal.config;
  // The clock shown in the consent prompt (prepareReplay fixed it), as replay does.
  const sim = o.sim ? { gpu: simGpuFor(profile), gpus: profile.host.gpuCount, speed: setup.spec.speed, seed: 0 } : undefined;
  const json = job.spec.levels.map((l) => (l === Infinity ? null : l));
  o.journal.update({ current: { variantId: profile.variant.id, step: `sweep ${job.spec.kind}:${json.join(',')}` } });
  const config = {
    model: profile.model,
    ...(sim ? { sim } : {}),
    bindHost: o.bindHost,
    portStart: setup.port,
    readyTimeoutS: o.readyTimeoutS,
    warmupPrompts: 0,
    runtime: profile.engine.runtime,
    slo: job.slo,
    sampleIntervalS: 1,
  };
  const logsDir = o.journal.logsDir();
  const benchDir = join(o.journal.dir, 'bench');
  const emit = o.emit ?? (() => {});
  const run: ScenarioRunner = (variant, scenarios, req) =>
    runVariantScenarios(variant, scenarios, {
      config,
      host: setup.host,
      logsDir,
      benchDir,
      emit,
      ...(o.signal ? { signal: o.signal } : {}),
      ...req,
    });
  const sweep = await sweepVariant(profile.variant, variantName(profile), setup.scenario, job.spec, {
    run,
    stage: 'sweep',
    slo: job.slo,
    journal: o.journal,
    sweepAll: job.sweepAll,
    ...(job.prompts ? { prompts: job.prompts } : {}),
    ...(o.onPoint ? { onPoint: o.onPoint } : {}),
  });
  return { sweep, analysis: analyseSweeps([sweep], sweepDevices(profile.host.gpuCount), job.slo) };
}

export interface SavedSweep {
  profile: string;
  report: string;
  chart: string;
  /** True when the sweep went to a copy (a study profile, or --out elsewhere). */
  copy: boolean;
}

/**
 * Save the profile with its `sweep` section, its report and the SVG chart beside it. A study
 * profile (reference data) is never written: without `outDir` its copy goes to the run folder.
 */
export function saveSweep(
  file: string,
  profile: Profile,
  run: { setup: ReplaySetup; sweep: VariantSweep; analysis: SweepAnalysis; job: SweepJobConfig },
  dirs: { out?: string; fallback: string },
): SavedSweep {
  const { setup, sweep, analysis: a, job } = run;
  const target = dirs.out ?? (isReferenceProfile(file, profile) ? dirs.fallback : dirname(file));
  const record = sweepRecord([sweep], a, {
    spec: job.spec,
    workload: setup.scenario.name,
    gpus: sweepDevices(profile.host.gpuCount),
    slo: job.slo,
    sweepAll: job.sweepAll,
    simulated: setup.host.simulated,
  });
  // Saved once to claim the file name the chart is named after, then again with the chart's name.
  const first = saveProfile({ ...profile, sweep: record }, target);
  const chart = writeSweepChart(reportPathFor(first), [sweep], a, record, {
    model: profile.model,
    gpuName: profile.host.gpuName,
    gpuCount: profile.host.gpuCount,
    simulated: setup.host.simulated,
  });
  const final = saveProfile({ ...profile, sweep: { ...record, chart } }, dirname(first));
  writeFileSync(reportPathFor(final), renderReport(loadProfile(final)));
  return { profile: final, report: reportPathFor(final), chart: join(dirname(final), chart), copy: resolve(final) !== resolve(file) };
}
