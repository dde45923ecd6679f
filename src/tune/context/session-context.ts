// What every part of a running session shares: the configuration, the host, the plan, the
// journal, the event sink and the runner. The runner is the one seam to processes: tests inject
// a scripted one so stage logic, resume, skip and stop run without launching anything.
import type { TuneEvent, VariantResult } from '../../core/events.js';
import type { RunOfRuns } from '../../core/run-of-runs.js';
import type { Variant } from '../../core/variant.js';
import type { HostInfo } from '../../host/gpus.js';
import type { SessionConfig } from '../config/config.js';
import type { Journal } from './journal.js';
import type { Plan, PlanDeps } from '../plan/types.js';
import type { PlanHost } from '../../engines/kit/plan-types.js';
import type { Predicted } from '../../core/predicted.js';
import type { Scenario } from '../../core/scenario.js';
import type { EarlyStopRequest } from '../run/contract/types.js';
import type { CostLedger } from '../cost/ledger.js';
import type { SessionCalibrator } from './calibration.js';
import type { QualityRequest } from '../run/contract/types.js';
import type { Served, ServedServer } from '../run/serve-run.js';
import type { BudgetTracker } from '../budget/budget.js';
import type { NoiseEstimate, NoisePrior } from '../../core/noise-rule.js';

/** Steering from the front end while a session runs. */
export class SessionControl {
  /** The launch that started last: what a skip without a variant id stops. */
  private last = new AbortController();
  /** Each launch's skip, by variant id: several run at once when variants share the host. */
  private readonly byVariant = new Map<string, AbortController>();
  private stopAfter = false;

  /**
   * Stop a running variant (its server is stopped); it is recorded as skipped. `variantId` names
   * which one when several run at once; without it, the one launched last. A variant that is not
   * running (finished already, never started) is not touched.
   */
  skipVariant(variantId?: string): void {
    (variantId === undefined ? this.last : this.byVariant.get(variantId))?.abort();
  }

  /** Finish the current stage, then validate and save without running later stages. */
  stopAfterStage(): void {
    this.stopAfter = true;
  }

  get stopRequested(): boolean {
    return this.stopAfter;
  }

  /**
   * A fresh skip signal for the launch about to start (a skip pressed between variants is dropped).
   * A relaunch of the same variant (a repeat) replaces its earlier one.
   */
  nextSkipSignal(variantId?: string): AbortSignal {
    const c = new AbortController();
    this.last = c;
    if (variantId !== undefined) this.byVariant.set(variantId, c);
    return c.signal;
  }
}

export interface RunRequest {
  stage: string;
  predicted?: Predicted;
  /** Aborted when the user skips this variant: the runner stops it and reports it skipped. */
  skipSignal: AbortSignal;
  /** Stop the benchmark early once it cannot beat this leader (early-stop-run.ts). */
  earlyStop?: EarlyStopRequest;
  /** GPUs to pin the server to (parallel variants) and the first port to try for it. */
  gpuIds?: readonly number[];
  portFrom?: number;
  /** A repeat launch: which run of the variant this is (shown and journaled in its events). */
  run?: RunOfRuns;
  /** The quality check's greedy prompts for this launch (--quality N). */
  quality?: QualityRequest;
  /** Each scenario's result as soon as it is measured (sweeps journal points and stop early by it). */
  onResult?: (index: number, result: VariantResult) => void;
}

/**
 * Launch one variant and measure it on each scenario: one result per scenario. Throws
 * AbortedError when the session is aborted. The real one is runVariantScenarios (runner.ts).
 */
export type ScenarioRunner = (variant: Variant, scenarios: readonly Scenario[], req: RunRequest) => Promise<VariantResult[]>;

/**
 * Launch one variant and hand its running server to `use` (the capacity search picks each load
 * from the last verdict); stopped on every path. The real one is serveVariant (serve-run.ts).
 */
export type VariantServer = <T>(
  variant: Variant,
  scenarios: readonly Scenario[],
  req: RunRequest,
  use: (server: ServedServer) => Promise<T>,
) => Promise<Served<T>>;

export interface SessionContext {
  config: SessionConfig;
  host: HostInfo;
  planHost: PlanHost;
  planDeps: PlanDeps;
  plan: Plan;
  journal: Journal<SessionConfig>;
  /** Engine versions found on the host, for the profile. */
  versions: Record<string, string>;
  emit: (e: TuneEvent) => void;
  signal?: AbortSignal;
  control: SessionControl;
  run: ScenarioRunner;
  /** The server for --capacity; absent with a scripted runner and none injected (tests). */
  serve?: VariantServer;
  /** Said once per session: the benchmark client was flagged as a bottleneck. */
  warnedClientBound: boolean;
  /** GPU time of every launch this session made, for its host GPU-hours. */
  cost: CostLedger;
  /** The host calibration refitted as variants are measured (calibration.ts); absent with injected plan deps (tests). */
  calibration?: SessionCalibrator;
  /** The run-to-run spread adaptive repeats measured so far, % (repeats.ts runSpreadPct). */
  repeatSpreadPct?: number;
  /** This host's run-to-run noise of the objective, measured in this session (core/noise-rule.ts). */
  noise?: NoiseEstimate;
  /** Every successful run's objective this session, by variant id: what `noise` is pooled from (stage/noise-runs.ts). */
  noiseRuns?: Map<string, { label: string; values: number[] }>;
  /** This host's noise from earlier sessions of the same kind, pooled into `noise` (stage/noise-prior.ts). */
  noisePrior?: NoisePrior;
  /** Where the prior is kept and this session's own noise will be; undefined: no prior (simulated host, --no-noise-prior). */
  noisePriorKey?: string;
  /** The noise of this session's own runs alone, what the next session's prior keeps. */
  ownNoise?: NoiseEstimate;
  /** --quality N: each engine's engine-stage greedy outputs, what its later variants are compared with (stage/quality-check.ts). */
  qualityRefs?: Map<string, QualityReference>;
  /** Said once per session: the quality check ran on random weights. */
  warnedRandomWeights?: boolean;
  /** --budget / --budget-wall: what the session may still spend (src/tune/budget); absent: the full protocol. */
  budget?: BudgetTracker;
}

export interface QualityReference {
  variantId: string;
  variant: Variant;
  texts: string[];
}
