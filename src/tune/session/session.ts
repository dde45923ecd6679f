// The tuning session: open the run, plan, run the stages, validate the winner against the
// baseline, save the profile and report. THE entry both front ends use; they only listen to its
// events. Every finished measurement is journaled at once; an abort stops the current server,
// records the partial state and returns (exit 130, or 128+n for other signals). Each step lives
// in its own module; the runner is injectable so the logic is tested without processes.
import { setMaxListeners } from 'node:events';
import { join } from 'node:path';
import type { TuneEvent, TuneListener, VariantResult } from '../../core/events.js';
import { log } from '../../core/logger.js';
import type { HostInfo } from '../../host/gpus.js';
import { exitCodeFor } from '../../host/signals.js';
import type { Workload } from '../../bench/types.js';
import type { Profile, StageRecord, ValidationRow } from '../../profiles/schema/profile.js';
import type { SessionConfig } from '../config/config.js';
import { planHost, realPlanDeps } from '../plan/deps.js';
import { Journal } from '../context/journal.js';
import { buildPlan } from '../plan/plan.js';
import type { Plan, PlanDeps } from '../plan/types.js';
import { AbortedError } from '../../core/aborted.js';
import { runVariantScenarios } from '../run/runner.js';
import { serveVariant } from '../run/serve-run.js';
import { saveOutcome } from './save-outcome.js';
import { SessionControl, type ScenarioRunner, type SessionContext, type VariantServer } from '../context/session-context.js';
import { writeEngineHelp } from '../../engines/kit/help-check.js';
import { availableEngines, openJournal, resolveHost } from './open.js';
import { initialStageState, runStages, type StageLoopState } from '../stage/loop.js';
import { validateGuarded } from '../sweep/no-regress.js';
import { asStorageError } from '../../core/storage.js';
import { CostLedger } from '../cost/ledger.js';
import { openCalibrator } from '../context/calibration.js';
import { sweepFinalists } from '../sweep/session-sweep.js';
import { capacityOfWinner } from '../stage/capacity-stage.js';
import { closeNoisePrior, openNoisePrior } from '../stage/noise-prior.js';
import { BudgetTracker, planBudget } from '../budget/budget.js';

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
  /** Inject the runner (tests): default launches each variant through runVariantScenarios. */
  runner?: ScenarioRunner;
  /** Inject the server for --capacity (tests): default serveVariant; none with an injected runner: the search says it has no server. */
  serve?: VariantServer;
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

/** The real runner: one launch per call, through the adapters and the shared port and workload caches. */
function processRunner(
  config: SessionConfig,
  host: HostInfo,
  runDir: string,
  emit: (e: TuneEvent) => void,
  tuningDummyWeights: boolean,
  signal?: AbortSignal,
): ScenarioRunner {
  const usedPorts = new Set<number>();
  const workloads = new Map<string, Promise<Workload>>();
  const logsDir = join(runDir, 'logs');
  const benchDir = join(runDir, 'bench');
  return (variant, scenarios, { portFrom, ...req }) =>
    runVariantScenarios(variant, scenarios, {
      // A parallel launch starts its port search at its own slot, so concurrent searches never meet.
      config: portFrom !== undefined ? { ...config, portStart: portFrom } : config,
      host,
      logsDir,
      benchDir,
      emit,
      ...(signal ? { signal } : {}),
      ...req,
      usedPorts,
      workloads,
      tuningDummyWeights,
    });
}

/** The real server for --capacity: one launch through the runner's launch path (serve-run.ts). */
function processServer(
  config: SessionConfig,
  host: HostInfo,
  runDir: string,
  emit: (e: TuneEvent) => void,
  signal?: AbortSignal,
): VariantServer {
  return (variant, scenarios, { portFrom: _p, ...req }, use) =>
    serveVariant(variant, scenarios, { config, host, logsDir: join(runDir, 'logs'), emit, ...(signal ? { signal } : {}), ...req }, use);
}

/** An event sink that journals every event but server logs (logs/<variant>/server.log has those). */
function journaledEmit(onEvent: TuneListener | undefined, journal: () => Journal<SessionConfig> | undefined) {
  let current: { variantId: string; step: string } | null = null;
  const emit = (e: TuneEvent) => {
    if (e.type === 'variant-launching') current = { variantId: e.variantId, step: 'launching' };
    else if (e.type === 'server-ready') current = { variantId: e.variantId, step: 'warming up' };
    else if (e.type === 'bench-started') current = { variantId: e.variantId, step: `benchmarking ${e.scenario}` };
    else if (e.type === 'variant-finished') current = null;
    if (e.type !== 'server-log') journal()?.appendEvent(e);
    try {
      onEvent?.(e);
    } catch (err) {
      log.warn(`event listener failed: ${(err as Error).message}`);
    }
  };
  return { emit, current: () => current };
}

async function openSession(
  configIn: SessionConfig,
  opts: SessionOptions,
  sink: ReturnType<typeof journaledEmit>,
  setJournal: (j: Journal<SessionConfig>) => void,
): Promise<SessionContext> {
  const host = await resolveHost(configIn, opts.host);
  const ph = planHost(host);
  // Before the run folder exists: a host without the engines asked for is bad input, not a run.
  const { engines, versions } = await availableEngines(configIn, host, sink.emit);
  const opened = openJournal(configIn, ph, !!opts.resume);
  setJournal(opened.journal);
  const runDir = opened.journal.dir;
  // The installed engines' own help, read at detection for releases servelab has not read, is
  // this session's source for their flags: kept beside the journal (engine-help/).
  writeEngineHelp(runDir);
  const config = { ...opened.config, engines };
  const planDeps = opts.planDeps ?? realPlanDeps(config, host, runDir, versions);
  const plan = buildPlan(config, ph, planDeps);
  const calibration = opts.planDeps
    ? undefined
    : openCalibrator(config, ph, plan, versions, (message) => sink.emit({ type: 'warning', message }));
  if (config.calibration) calibration?.annotatePlan(plan);
  const budget = planBudget(plan, config, (v, s) => planDeps.predict(v, s));
  if (budget) plan.budget = budget;
  opened.journal.writeJson('plan.json', plan);
  const run = opts.runner ?? processRunner(config, host, runDir, sink.emit, plan.dummyWeights?.used === true, opts.signal);
  const serve = opts.serve ?? (opts.runner ? undefined : processServer(config, host, runDir, sink.emit, opts.signal));
  const control = opts.control ?? new SessionControl();
  const cost = new CostLedger(ph.gpuCount, host.simulated, ph.gpuCount === 0 ? ph.cpu?.threads : undefined);
  // A host without GPUs (llama.cpp on the CPU) spends its budget as one device: wall hours, as the plan's estimates count it (budget.ts).
  const spent = () => (ph.gpuCount > 0 ? cost.summary().hostGpuHours : cost.summary().wallS / 3600);
  const tracker = budget ? { budget: new BudgetTracker(budget, spent, ph.gpuCount) } : {};
  return {
    ...tracker,
    config,
    host,
    planHost: ph,
    planDeps,
    plan,
    journal: opened.journal,
    versions,
    emit: sink.emit,
    ...(opts.signal ? { signal: opts.signal } : {}),
    control,
    run,
    ...(serve ? { serve } : {}),
    warnedClientBound: false,
    cost,
    ...(calibration ? { calibration } : {}),
  };
}

function outcomeOf(ctx: SessionContext, state: StageLoopState, patch: Partial<SessionOutcome> & { exitCode: number }): SessionOutcome {
  return {
    runDir: ctx.journal.dir,
    plan: ctx.plan,
    stages: state.stages,
    winner: state.carried,
    baseline: state.baseline,
    validation: [],
    profilePath: null,
    reportPath: null,
    profile: null,
    interrupted: false,
    ...patch,
  };
}

export async function runSession(configIn: SessionConfig, opts: SessionOptions = {}): Promise<SessionOutcome> {
  // Each variant ties its own stop signal to this one; a long session adds many listeners.
  if (opts.signal) setMaxListeners(0, opts.signal);
  let journal: Journal<SessionConfig> | undefined;
  const sink = journaledEmit(opts.onEvent, () => journal);
  const ctx = await openSession(configIn, opts, sink, (j) => (journal = j));
  ctx.emit({ type: 'session-started', runDir: ctx.journal.dir, simulated: ctx.host.simulated, at: new Date().toISOString() });
  ctx.emit({ type: 'plan-ready', plan: ctx.plan });
  if (ctx.budget) ctx.emit({ type: 'budget-state', state: ctx.budget.state() });
  openNoisePrior(ctx);
  const reused = ctx.journal.entries().length;
  if (opts.resume && reused)
    ctx.emit({ type: 'warning', message: `resuming ${ctx.journal.dir}: ${reused} finished measurement(s) are reused, not re-run` });

  const state = initialStageState(ctx.plan.notes);
  try {
    await runStages(ctx, state);
    const staged = state.carried;
    if (!staged) {
      ctx.journal.update({ status: 'failed', exitCode: 1, current: null });
      ctx.emit({ type: 'error', message: 'no variant succeeded: nothing to save' });
      ctx.emit({ type: 'session-cost', cost: ctx.cost.summary() });
      ctx.emit({ type: 'session-finished', profilePath: null, reportPath: null, exitCode: 1 });
      return outcomeOf(ctx, state, { exitCode: 1, winner: null });
    }
    // --sweep: the finalists' load sweep; with --objective frontier its choice is the winner.
    const swept = await sweepFinalists(ctx, state, staged);
    // Validation; under --no-regress the winner is the best finalist that regresses on no workload.
    const { winner, validation } = await validateGuarded(ctx, state, swept?.chosen?.result ?? staged, swept?.chosen?.load);
    if (ctx.signal?.aborted) throw new AbortedError();
    const capacity = await capacityOfWinner(ctx, winner);
    const saved = saveOutcome(ctx, state, winner, validation, swept, capacity);
    closeNoisePrior(ctx);
    return outcomeOf(ctx, state, { exitCode: 0, validation, winner, ...saved });
  } catch (e) {
    if (!(e instanceof AbortedError) && !ctx.signal?.aborted) {
      // Storage faults (core/storage.ts): one error naming the path; what is journalled stays.
      const storage = asStorageError(e, (e as { path?: string }).path ?? ctx.config.outDir, 'results to');
      ctx.journal.update({ status: 'failed', current: sink.current() });
      throw storage ? ctx.journal.storageFailure(storage) : e;
    }
    const { code, name } = exitCodeForAbort(ctx.signal);
    ctx.journal.update({ status: 'interrupted', ...(name ? { signal: name } : {}), current: sink.current(), exitCode: code });
    ctx.emit({ type: 'session-cost', cost: ctx.cost.summary() });
    ctx.emit({ type: 'session-finished', profilePath: null, reportPath: null, exitCode: code });
    return outcomeOf(ctx, state, { exitCode: code, interrupted: true, ...(name ? { signal: name } : {}) });
  }
}

/** The plan alone (dry run, the TUI's Plan screen): nothing is launched or written. */
export async function planSession(
  config: SessionConfig,
  opts: Pick<SessionOptions, 'host' | 'planDeps'> = {},
): Promise<{ plan: Plan; host: HostInfo }> {
  const host = await resolveHost(config, opts.host);
  const runDir = config.runDir ?? join(config.runsDir, 'RUN');
  // On the simulated host `--engine-version E=V` is the release the commands are spelled for, as
  // in a session (availableEngines): the dry run and the Plan screen show the same commands.
  const versions: Record<string, string> = host.simulated ? { ...config.sim?.engineVersions } : {};
  const deps = opts.planDeps ?? realPlanDeps(config, host, runDir, versions);
  const ph = planHost(host);
  const plan = buildPlan(config, ph, deps);
  // --calibration FILE: the plan shows the calibrated prediction beside the prior one.
  if (config.calibration && !opts.planDeps) openCalibrator(config, ph, plan, {}, (m) => log.warn(m)).annotatePlan(plan);
  const budget = planBudget(plan, config, (v, s) => deps.predict(v, s));
  if (budget) plan.budget = budget;
  return { plan, host };
}

/** The configuration stored in a run folder, for --resume and `servelab view`. */
export function readRunConfig(dir: string): SessionConfig {
  return { ...Journal.open<SessionConfig>(dir).config, runDir: dir };
}
