// The shape of the one projection (view.ts builds it from the events): what every view of a
// session reads. Types only, so that views and the cost and sweep folds can name it without
// importing the fold itself.
import type { LiveSnapshot } from './metrics.js';
import type { PlanInfo, SessionGpuTime, ValidationRow, VariantResult } from './events.js';
import type { StageVerdict } from './stage-verdict.js';
import type { NoiseEstimate } from './noise-rule.js';
import type { RunOfRuns } from './run-of-runs.js';
import type { SweepView } from './view-sweep.js';
import type { WaveClock } from './view-cost.js';
import type { CapacityView } from './view-capacity.js';
import type { BudgetView } from './view-budget.js';

export interface StageRowView {
  result: VariantResult;
  /** Gain against the stage's reference, as the core measured it. */
  gainPct: number | null;
  isWinner: boolean;
  /** The winner carried into the stage. */
  isCarried: boolean;
  /** The row the stage's gains are measured against (the baseline in the first stage). */
  isReference: boolean;
  /** Too many of its requests failed (--max-failed): "514/1000 ok: not eligible", as the core said. */
  notEligible?: string;
}

export interface StageView {
  name: string;
  index: number;
  /** Variant ids the stage was started with. */
  variants: string[];
  /** The winner carried into the stage, as the core reported it when the stage started. */
  carriedId: string | null;
  rows: StageRowView[];
  /** The core's verdict, once the stage finished. */
  verdict?: StageVerdict;
  skipped?: string;
  /** The verdict's words on a tie, when its best two stayed within the noise margin (tieClause). */
  tie?: string;
  /** What each row's server loaded, by variant id, when the rows did not all load the same (servedWhenMixed). */
  served?: Record<string, string>;
  /** Runs confirming the stage's decision (confirm-started): the best two in reverse order, the pick alone, or a cut variant in full; until the verdict. */
  confirming?: { variantIds: string[]; why: string };
}

export interface ValidationView {
  scenarios: string[];
  baselineId: string;
  /** How the baseline was chosen, and what it did in the engine stage. */
  baselineWhy?: string;
  winnerId: string;
  rows: ValidationRow[];
  done: boolean;
}

/** A variant whose server is up or coming up (several at once when variants share the host). */
export interface RunningVariantView {
  variantId: string;
  stage: string;
  label?: string;
  port: number;
  /** GPUs it is pinned to when it shares the host; all GPUs when absent. */
  gpuIds?: number[];
  /** A repeat launch: run n of at most `of` (absent: the variant's first run). */
  run?: RunOfRuns;
  phase: 'launching' | 'warming up' | 'benchmarking' | 'stopping';
  startupS?: number;
  scenario?: string;
  snapshot?: LiveSnapshot;
}

export type SessionStatus = 'not-started' | 'running' | 'finished' | 'interrupted';

export interface SessionView {
  status: SessionStatus;
  runDir?: string;
  simulated: boolean;
  plan?: PlanInfo;
  stages: StageView[];
  /** The session's baseline, once the engine stage chose it. */
  baselineId: string | null;
  /** The variant the session ended with (the last stage's winner), with its measured result. */
  winner: VariantResult | null;
  validation?: ValidationView;
  /** --no-regress acted: the finalist kept instead of a winner that regressed, or why none was. */
  noRegress?: { winnerId: string; chosenId: string | null; why: string };
  /** The load sweep of the finalists, when the session ran one (--sweep). */
  sweep?: SweepView;
  /** The capacity search on the winner's server, when the session ran one (--capacity RULES). */
  capacity?: CapacityView;
  /** --budget: the projection, the budget left, what it kept from running (view-budget.ts). */
  budget?: BudgetView;
  outcome?: { profilePath: string | null; reportPath: string | null; exitCode: number };
  /** Human labels by variant id. */
  labels: Record<string, string>;
  warnings: string[];
  errors: string[];
  /** Variants running now, by id (live panels; several when variants run in parallel). */
  running: Record<string, RunningVariantView>;
  /** What the session cost (host GPU-hours, variant GPU-hours), once the core summed it. */
  cost?: SessionGpuTime;
  /** `--runtime slurm`: each variant's Slurm job and its last state ("PENDING (Priority)"). */
  jobs?: Record<string, { jobId: string; text: string }>;
  /** When the session started (session-started's clock), for the live host GPU-hours on a GPU host. */
  startedAt?: string;
  /** The simulated session time so far, wave by wave (view-cost.ts applyWaveClock). */
  waveClock?: WaveClock;
  /** GPU-seconds of launches outside the stage tables (validation sides, sweeps), from launch-cost. */
  launchGpuS?: number;
  /** The host's run-to-run noise, as the core last measured it (noise-measured). */
  noise?: NoiseEstimate;
}
