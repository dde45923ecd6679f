// The tuning session: plan, run each stage's variants, keep the winner, validate it against the
// baseline, save the profile and report. THE entry both front ends use; they only listen to its
// events. Every finished measurement is journaled at once; an abort stops the current server,
// records the partial state and returns (exit 130, or 128+n for other signals).
import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import type { TuneEvent, TuneListener, VariantResult } from '../core/events.js';
import { UserError } from '../core/errors.js';
import { log } from '../core/logger.js';
import type { EngineName, Variant } from '../core/variant.js';
import { getAdapter } from '../engines/index.js';
import { detectHost, type HostInfo } from '../host/gpus.js';
import { exitCodeFor } from '../host/signals.js';
import type { Workload } from '../bench/types.js';
import { buildProfile, reportPathFor, saveProfile } from '../profiles/store.js';
import { renderReport } from '../profiles/report.js';
import { workloadFromScenario } from '../profiles/workload.js';
import type { Profile, StageRecord } from '../profiles/schema.js';
import { gpuTag, type SessionConfig, type StageName } from './config.js';
import { combineRepeats, decideStage, dollarsPerMillionTokens, type DecideOptions } from './decide.js';
import { planHost, realPlanDeps } from './deps.js';
import { Journal, defaultRunDir, writeFileAtomic } from './journal.js';
import { asStorageError } from '../core/storage.js';
import { buildPlan, expandStage, type Plan, type PlanDeps, type PlannedVariant } from './plan.js';
import { AbortedError, runVariantScenarios, scenarioKey, type RunVariantContext } from './runner.js';
import { benchCommand, type Scenario } from './scenarios.js';
import { pickBaseline, validationTable, type ValidationRow } from './validate.js';

/** Steering from the front end while a session runs. */
export class SessionControl {
  private skip = new AbortController();
  private stopAfter = false;

  /** Stop the current variant (its server is stopped); it is recorded as skipped. */
  skipVariant(): void {
    this.skip.abort();
  }

  /** Finish the current stage, then validate and save without running later stages. */
  stopAfterStage(): void {
    this.stopAfter = true;
  }

  get stopRequested(): boolean {
    return this.stopAfter;
  }

  /** A fresh skip signal for the variant about to start (a skip pressed between variants is dropped). */
  nextSkipSignal(): AbortSignal {
    this.skip = new AbortController();
    return this.skip.signal;
  }
}

export interface SessionOptions {
  onEvent?: TuneListener;
  /** Aborting stops the session; `signal.reason` may be a signal name ('SIGTERM') for the exit code. */
  signal?: AbortSignal;
  control?: SessionControl;
  /** Continue the run in config.runDir, skipping every measurement its journal holds. */
  resume?: boolean;
  /** Inject the host (tests, the TUI after its Host screen); detected otherwise. */
  host?: HostInfo;
  /** Inject the planner's dependencies (default: the real modules). */
  planDeps?: PlanDeps;
}

export interface SessionOutcome {
  exitCode: number;
  runDir: string;
  plan: Plan;
  stages: StageRecord[];
  winner: VariantResult | null;
  baseline: VariantResult | null;
  validation: ValidationRow[];
  profilePath: string | null;
  reportPath: string | null;
  profile: Profile | null;
  interrupted: boolean;
  /** Signal name when interrupted by one. */
  signal?: string;
}

function exitCodeForAbort(signal?: AbortSignal): { code: number; name?: string } {
  const reason = signal?.reason;
  if (typeof reason === 'string' && /^SIG[A-Z]+$/.test(reason)) return { code: exitCodeFor(reason as NodeJS.Signals), name: reason };
  return { code: 130 };
}

async function resolveHost(config: SessionConfig, injected?: HostInfo): Promise<HostInfo> {
  if (injected) return injected;
  if (config.sim) return detectHost({ sim: true, gpu: config.sim.gpu, gpus: config.sim.gpus });
  const host = await detectHost({});
  if (host.simulated) throw new UserError('no NVIDIA GPU found on this host; run with --sim (and --gpu/--gpus) to tune on the simulated host');
  return host;
}

/** Engines usable here with their versions; on the simulated host every engine is imitated. */
async function availableEngines(config: SessionConfig, host: HostInfo, emit: (e: TuneEvent) => void): Promise<{ engines: EngineName[]; versions: Record<string, string> }> {
  const versions: Record<string, string> = {};
  if (host.simulated) {
    for (const e of config.engines) versions[e] = 'simulated';
    return { engines: config.engines, versions };
  }
  const engines: EngineName[] = [];
  for (const e of config.engines) {
    const a = getAdapter(e);
    const info = a.detect
      ? await a.detect(config.runtime.kind === 'docker' ? { runtime: 'docker', image: config.runtime.image } : { runtime: 'native' })
      : { installed: true, version: 'unknown' };
    if (info.installed) {
      engines.push(e);
      versions[e] = info.version ?? 'unknown';
    } else emit({ type: 'warning', message: `${e} is not available here${'detail' in info && info.detail ? ` (${info.detail})` : ''}: skipped` });
  }
  if (!engines.length) throw new UserError(`none of the engines asked for (${config.engines.join(', ')}) is installed here; install one, use --runtime docker, or run with --sim`);
  return { engines, versions };
}

function resultFromPlanned(pv: PlannedVariant, scenario: string): VariantResult {
  const now = new Date().toISOString();
  return {
    variantId: pv.variant.id,
    stage: pv.stage,
    scenario,
    status: pv.status === 'pruned' ? 'pruned' : 'skipped',
    variant: pv.variant,
    argv: pv.argv ?? [],
    ...(pv.engineArgv ? { engineArgv: pv.engineArgv } : {}),
    ...(pv.env ? { env: pv.env } : {}),
    ...(pv.reason ? { failure: pv.reason } : {}),
    ...(pv.predicted ? { predicted: pv.predicted } : {}),
    startedAt: now,
    finishedAt: now,
  };
}

export async function runSession(configIn: SessionConfig, opts: SessionOptions = {}): Promise<SessionOutcome> {
  const signal = opts.signal;
  // Each variant ties its own stop signal to this one; a long session adds many listeners.
  if (signal) setMaxListeners(0, signal);
  const control = opts.control ?? new SessionControl();
  let current: { variantId: string; step: string } | null = null;
  let journalRef: Journal<SessionConfig> | undefined;
  const emit = (e: TuneEvent) => {
    if (e.type === 'variant-launching') current = { variantId: e.variantId, step: 'launching' };
    else if (e.type === 'server-ready') current = { variantId: e.variantId, step: 'warming up' };
    else if (e.type === 'bench-started') current = { variantId: e.variantId, step: `benchmarking ${e.scenario}` };
    else if (e.type === 'variant-finished') current = null;
    // Server logs are in logs/<variant>/server.log already; everything else is kept for replay.
    if (e.type !== 'server-log') journalRef?.appendEvent(e);
    try {
      opts.onEvent?.(e);
    } catch (err) {
      log.warn(`event listener failed: ${(err as Error).message}`);
    }
  };

  const host = await resolveHost(configIn, opts.host);
  const ph = planHost(host);
  // Before the run folder exists: a host without the engines asked for is bad input, not a run.
  const { engines, versions } = await availableEngines(configIn, host, emit);
  let journal: Journal<SessionConfig>;
  let config: SessionConfig;
  if (opts.resume) {
    if (!configIn.runDir) throw new UserError('resume needs the run folder (--resume DIR)');
    journal = Journal.open<SessionConfig>(configIn.runDir);
    config = { ...journal.config, runDir: configIn.runDir };
    journal.update({ status: 'running', signal: undefined, current: null });
  } else {
    const runDir = configIn.runDir ?? defaultRunDir(configIn.runsDir, configIn.model, gpuTag(configIn, ph.gpuName, ph.gpuCount));
    config = { ...configIn, runDir };
    journal = Journal.create(runDir, config);
  }
  journalRef = journal;
  const runDir = journal.dir;
  config = { ...config, engines };
  const deps = opts.planDeps ?? realPlanDeps(config, host, runDir);
  const plan = buildPlan(config, ph, deps);
  journal.writeJson('plan.json', plan);
  emit({ type: 'session-started', runDir, simulated: host.simulated, at: new Date().toISOString() });
  emit({ type: 'plan-ready', plan });
  if (opts.resume && journal.entries().length) {
    emit({ type: 'warning', message: `resuming ${runDir}: ${journal.entries().length} finished measurement(s) are reused, not re-run` });
  }

  const decideOpts: DecideOptions = { objective: config.objective, slo: config.slo, marginPct: config.marginPct };
  const workloads = new Map<string, Promise<Workload>>();
  const usedPorts = new Set<number>();
  const ctxFor = (stage: string, predicted?: VariantResult['predicted']): RunVariantContext => ({
    config,
    host,
    logsDir: journal.logsDir(),
    benchDir: join(runDir, 'bench'),
    emit,
    ...(signal ? { signal } : {}),
    skipSignal: control.nextSkipSignal(),
    stage,
    ...(predicted ? { predicted } : {}),
    usedPorts,
    workloads,
  });

  /** Measure a variant on the tuning scenario (repeats, journal), emitting variant-finished once. */
  const measure = async (pv: PlannedVariant): Promise<VariantResult> => {
    const key = scenarioKey(config.scenario);
    const runs: VariantResult[] = [];
    for (let r = 0; r < config.repeats; r++) {
      const hit = journal.find(pv.variant.id, key, r);
      if (hit) {
        runs.push(hit.result);
        continue;
      }
      const [res] = await runVariantScenarios(pv.variant, [config.scenario], ctxFor(pv.stage, pv.predicted));
      const result = { ...res!, stage: pv.stage };
      journal.record('tune', r, result, key);
      runs.push(result);
      if (result.status !== 'ok') break; // a variant that fails once is not retried
    }
    const combined = { ...combineRepeats(runs), stage: pv.stage };
    emit({ type: 'variant-finished', result: combined });
    if (combined.clientBound && !warnedClientBound) {
      warnedClientBound = true;
      emit({
        type: 'warning',
        message: `the benchmark client was flagged as a bottleneck while measuring ${combined.variantId} (event-loop lag or CPU): its figures may understate the server${
          config.sim && !config.sim.autoSpeed
            ? `; lower --speed (now ${config.sim.speed}) or use a less busy machine for figures you can compare`
            : '; other work on this machine is taking the CPU: run on a less busy machine for figures you can compare'
        }`,
      });
    }
    return combined;
  };

  let warnedClientBound = false;
  const stages: StageRecord[] = [];
  let carried: VariantResult | null = null;
  let baseline: VariantResult | null = null;
  const notes: string[] = [...plan.notes];

  const finishInterrupted = (): SessionOutcome => {
    const { code, name } = exitCodeForAbort(signal);
    journal.update({ status: 'interrupted', ...(name ? { signal: name } : {}), current, exitCode: code });
    emit({ type: 'session-finished', profilePath: null, reportPath: null, exitCode: code });
    return { exitCode: code, runDir, plan, stages, winner: carried, baseline, validation: [], profilePath: null, reportPath: null, profile: null, interrupted: true, ...(name ? { signal: name } : {}) };
  };

  try {
    let stopped: string | null = null;
    for (const [index, planned] of plan.stages.entries()) {
      const name = planned.name;
      if (stopped) {
        stages.push({ name, winnerId: carried?.variantId ?? null, gainPct: null, skipped: stopped, results: [] });
        emit({ type: 'stage-started', stage: name, index, variants: [], skipped: stopped });
        emit({ type: 'stage-finished', stage: name, winnerId: carried?.variantId ?? null, gainPct: null });
        continue;
      }
      let variants: PlannedVariant[];
      let skipped = planned.skipped;
      let stageNotes = planned.notes;
      if (name === 'engine') variants = planned.variants;
      else if (!carried) {
        variants = [];
        skipped = 'no variant has succeeded yet';
      } else {
        // Re-expanded from the real winner: the plan's expansion followed the predicted path.
        const fresh = expandStage(name, carried.variant, { config, host: ph, deps, fp8Checkpoint: plan.fp8Checkpoint });
        variants = fresh.variants;
        skipped = fresh.skipped;
        stageNotes = fresh.notes;
      }
      emit({ type: 'stage-started', stage: name, index, variants: variants.map((v) => v.variant.id), ...(skipped ? { skipped } : {}) });
      if (skipped) {
        stages.push({ name, winnerId: carried?.variantId ?? null, gainPct: null, skipped, results: [] });
        emit({ type: 'stage-finished', stage: name, winnerId: carried?.variantId ?? null, gainPct: null });
        continue;
      }
      const results: VariantResult[] = [];
      for (const pv of variants) {
        if (signal?.aborted) throw new AbortedError();
        if (pv.status !== 'planned') {
          const r = resultFromPlanned(pv, config.scenario.name);
          results.push(r);
          emit({ type: 'variant-finished', result: r });
          continue;
        }
        results.push(await measure(pv));
      }
      if (signal?.aborted) throw new AbortedError();
      const d = decideStage(name === 'engine' ? null : carried, results, decideOpts, null);
      if (name === 'engine') {
        baseline = pickBaseline(results, config.baseline);
        if (config.baseline && baseline && baseline.variantId !== config.baseline && baseline.variant.engine !== config.baseline) {
          emit({ type: 'warning', message: `baseline '${config.baseline}' is not an engine-stage variant; using ${baseline.variantId}` });
        }
        const ref = baseline && d.winner ? decideStage(null, results, decideOpts, baseline) : d;
        carried = d.winner;
        stages.push({ name, winnerId: carried?.variantId ?? null, gainPct: ref.gainPct, results });
        emit({ type: 'stage-finished', stage: name, winnerId: carried?.variantId ?? null, gainPct: ref.gainPct });
      } else {
        carried = d.winner;
        stages.push({ name, winnerId: carried?.variantId ?? null, gainPct: d.changed ? d.gainPct : d.gainPct !== null ? Math.min(d.gainPct, 0) : null, results });
        emit({ type: 'stage-finished', stage: name, winnerId: carried?.variantId ?? null, gainPct: d.changed ? d.gainPct : null });
      }
      notes.push(`${name}: ${d.why}`);
      if (/^no variant meets the SLOs/.test(d.why)) emit({ type: 'warning', message: d.why });
      for (const n of stageNotes) if (!notes.includes(n)) notes.push(n);
      if (!carried) {
        stopped = 'no variant of the engine stage succeeded';
      } else if (control.stopRequested) {
        stopped = `stopped by the user after the ${name} stage`;
      }
    }

    if (!carried) {
      journal.update({ status: 'failed', exitCode: 1, current: null });
      emit({ type: 'error', message: 'no variant succeeded: nothing to save' });
      emit({ type: 'session-finished', profilePath: null, reportPath: null, exitCode: 1 });
      return { exitCode: 1, runDir, plan, stages, winner: null, baseline, validation: [], profilePath: null, reportPath: null, profile: null, interrupted: false };
    }

    // ---- validation: winner vs baseline on the scenario set ----
    let validation: ValidationRow[] = [];
    if (config.validation.length && baseline) {
      emit({ type: 'validation-started', scenarios: config.validation.map((s) => s.name) });
      const sides = new Map<string, Map<string, VariantResult>>();
      for (const side of [baseline, carried]) {
        if (sides.has(side.variantId)) continue;
        const byScenario = new Map<string, VariantResult>();
        const missing: Scenario[] = [];
        for (const s of config.validation) {
          const hit = journal.find(side.variantId, scenarioKey(s), 0);
          if (hit) byScenario.set(s.name, hit.result);
          else missing.push(s);
        }
        if (missing.length) {
          const rs = await runVariantScenarios(side.variant, missing, ctxFor('validation'));
          for (const [i, r] of rs.entries()) {
            const s = missing[i]!;
            journal.record('validate', 0, r, scenarioKey(s));
            byScenario.set(s.name, r);
          }
        }
        sides.set(side.variantId, byScenario);
      }
      validation = validationTable(config.validation, sides.get(baseline.variantId)!, sides.get(carried.variantId)!);
      emit({ type: 'validation-finished', table: validation });
    }
    if (signal?.aborted) throw new AbortedError();

    // ---- profile and report ----
    if (config.gpuHourPrice !== undefined && carried.metrics) {
      const w = dollarsPerMillionTokens(carried.metrics, ph.gpuCount, config.gpuHourPrice);
      const b = baseline?.metrics ? dollarsPerMillionTokens(baseline.metrics, ph.gpuCount, config.gpuHourPrice) : null;
      if (w !== null) notes.push(`At $${config.gpuHourPrice}/GPU-hour: $${w.toFixed(3)} per million tokens${b !== null ? ` (baseline $${b.toFixed(3)})` : ''}.`);
    }
    const clientBound = stages.flatMap((s) => s.results).filter((r) => r.clientBound).map((r) => r.variantId);
    if (clientBound.length) notes.push(`The benchmark client was the bottleneck while measuring ${clientBound.join(', ')}: those figures understate the server.`);
    const profile = buildProfile({
      source: 'session',
      host: { gpuName: ph.gpuName, gpuCount: ph.gpuCount, gpuMemoryMiB: ph.gpuMemMiB, ...(ph.driver ? { driver: ph.driver } : {}), simulated: host.simulated },
      model: config.model,
      engine: { name: carried.variant.engine, version: versions[carried.variant.engine] ?? 'unknown', runtime: config.runtime },
      engineVersions: versions,
      variant: carried.variant,
      argv: carried.argv,
      engineArgv: carried.engineArgv ?? carried.argv,
      env: carried.env ?? {},
      workload: workloadFromScenario(config.scenario, benchCommand(config.scenario, carried.variant.model)),
      objective: config.objective,
      slo: config.slo,
      metrics: carried.metrics!,
      startupS: carried.startupS ?? null,
      stages,
      validation,
      notes,
    });
    const profilesDir = join(config.outDir, 'profiles');
    mkdirSync(profilesDir, { recursive: true });
    // saveProfile picks a free name (never another run's file): use the path it returns.
    const profilePath = saveProfile(profile, profilesDir);
    const reportPath = reportPathFor(profilePath);
    writeFileAtomic(reportPath, renderReport(profile));
    journal.update({ status: 'finished', profilePath, reportPath, exitCode: 0, current: null });
    emit({ type: 'session-finished', profilePath, reportPath, exitCode: 0 });
    return { exitCode: 0, runDir, plan, stages, winner: carried, baseline, validation, profilePath, reportPath, profile, interrupted: false };
  } catch (e) {
    if (e instanceof AbortedError || signal?.aborted) return finishInterrupted();
    const storage = asStorageError(e, (e as { path?: string }).path ?? config.outDir, 'results to'); // storage faults (core/storage.ts)
    journal.update({ status: 'failed', current });
    throw storage ? journal.storageFailure(storage) : e;
  }
}

/** The plan alone (dry run, the TUI's Plan screen): nothing is launched or written. */
export async function planSession(config: SessionConfig, opts: Pick<SessionOptions, 'host' | 'planDeps'> = {}): Promise<{ plan: Plan; host: HostInfo }> {
  const host = await resolveHost(config, opts.host);
  const runDir = config.runDir ?? join(config.runsDir, 'RUN');
  const deps = opts.planDeps ?? realPlanDeps(config, host, runDir);
  return { plan: buildPlan(config, planHost(host), deps), host };
}

/** The configuration stored in a run folder, for --resume. */
export function readRunConfig(dir: string): SessionConfig {
  return { ...Journal.open<SessionConfig>(dir).config, runDir: dir };
}

/** The stage names as the plan ran them (for summaries). */
export function stageNames(outcome: SessionOutcome): StageName[] {
  return outcome.stages.map((s) => s.name as StageName);
}

export type { Variant };
