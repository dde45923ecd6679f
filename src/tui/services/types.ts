// The workbench's contract with the core, as types: what the screens draw (the view shapes the
// services fill from host, engines, model and plan), the form's typed choices, and the Services
// interface the App is given (the real one is workbench.ts; tests pass their own). Nothing here
// renders and nothing here spawns; the front end imports these types, the core never imports it.
import type { TuneListener } from '../../core/events.js';
import type { EngineInfo } from '../../engines/kit/types.js';
import type { CpuInfo } from '../../host/gpus.js';
import type { SessionObjective } from '../../tune/config/rules.js';

export const SCENARIOS = ['sharegpt-like', 'random', 'sharegpt', 'shared-prefix', 'multi-turn', 'trace'] as const;
export type ScenarioKind = (typeof SCENARIOS)[number];

/** The Model screen's form, as typed (numbers stay text until checked, so a half-typed one shows). */
export interface WorkloadForm {
  model: string;
  scenario: ScenarioKind;
  datasetPath: string;
  inputLen: string;
  outputLen: string;
  numPrompts: string;
  seed: string;
  /** A stage objective, or 'frontier' (--objective frontier). */
  objective: SessionObjective;
  slo: string;
  /** The load sweep of the finalists (--sweep), '' for none. */
  sweep: string;
  /** Validation of the winner vs the baseline: what --validation takes, or quick ('' = quick; tui/services/validation-form.ts). */
  validation: string;
  /** The capacity search on the winner (--capacity RULES), '' for none. */
  capacity: string;
  /** Greedy prompts of the quality check (--quality N), '' for none; and its floor (--quality-floor X), '' for none. */
  quality: string;
  qualityFloor: string;
  /** shared-prefix: PREFIX/SUFFIX/PREFIXES/OUT; multi-turn: USERS/TURNS[/SYSTEM/IN/OUT]; trace: a Mooncake JSONL's path. */
  prefixShape: string;
  turnsShape: string;
  tracePath: string;
}

/** A running session as the UI sees it; built by the services around the core's runSession. */
export interface SessionHandle {
  /** Settles when the session has stopped (every server it started is stopped). */
  done: Promise<unknown>;
  /** Stop a running variant: `variantId` names which when several run at once; without it, the one launched last. */
  skipVariant(variantId?: string): void;
  stopAfterStage(): void;
}

export type SessionStarter = (onEvent: TuneListener, signal: AbortSignal) => SessionHandle;

export interface HostGpuView {
  index: number;
  name: string;
  memTotalMiB: number;
  computeCap?: string;
  /** AMD: the graphics target (gfx942), shown where NVIDIA parts show their compute capability. */
  arch?: string;
}

export interface HostView {
  simulated: boolean;
  /** Why the host is simulated, e.g. "no NVIDIA GPU found: simulated host". */
  note?: string;
  gpus: HostGpuView[];
  driver?: string;
  /** GPU types the simulated host can be (catalog short names). */
  gpuTypes: string[];
  /** The CPU of a real host a CPU engine (llama.cpp) runs on. */
  cpu?: CpuInfo;
  engines: EngineInfo[];
  logDir: string;
  freeDiskBytes?: number;
}

export interface ModelView {
  id: string;
  known: boolean;
  /** Why nothing is known, or where the facts came from. */
  note?: string;
  architecture?: string;
  paramsB?: number;
  activeParamsB?: number;
  moe?: { experts: number; perToken: number };
  heads?: number;
  kvHeads?: number;
  layers?: number;
  contextLen?: number;
  checkpointDtype?: string;
  weights: { dtype: string; bytes: number }[];
}

export interface PlanVariantView {
  id: string;
  label: string;
  /** What this variant changes, e.g. "quant=fp8 kv=fp8". */
  knobs: string;
  /** Set when it will not run (preflight pruned it, --drop, or the same server as one measured): the reason. */
  pruned?: string;
  /** The word the screen puts before that reason. */
  notRun?: 'pruned' | 'dropped' | 'not launched';
  estimateS?: number;
  /** The exact command it launches (the real engine's, even on the simulated host). */
  command: string;
  predictedTokS?: number;
  /** The model's measured error at this engine and concurrency (median |error| of held-out runs), %. */
  predictedErrorPct?: number;
}

export interface PlanStageView {
  name: string;
  /** What the stage tries, e.g. "quantization (FP8 weights, FP8 KV cache)". */
  title?: string;
  notes?: string[];
  /** Set when the whole stage does not apply, with the reason. */
  skipped?: string;
  variants: PlanVariantView[];
  /**
   * With dummy weights on: which of its launches load them and why the others keep the real ones
   * ("weights: dummy for …; real for …: why"), the dry-run plan's line; absent when off.
   */
  weights?: string;
}

export interface PlanView {
  stages: PlanStageView[];
  /** Estimated seconds of the validation runs after the stages (winner and baseline on the scenario set). */
  validationS?: number;
  caveat: string;
  notes: string[];
  /** The plan was made with dummy weights on (--dummy-weights, or the Plan screen's key). */
  dummyWeights?: boolean;
  /** --budget: the projected cost against it, in the core's words (core/view-budget.ts). */
  budget?: string;
}

export interface HostChoice {
  simulated: boolean;
  gpuType: string;
  gpuCount: number;
}

export interface Choices {
  host: HostChoice;
  form: WorkloadForm;
  /** Variant ids the user unchecked on the Plan screen. */
  disabled: readonly string[];
  /** Dummy weights for the tuning launches (--dummy-weights); the command line's flag when absent. */
  dummyWeights?: boolean;
}

export interface PlannedSession {
  view: PlanView;
  /** Starts the session for these choices; the App calls it once, on entering the Run screen. */
  start: (disabled: readonly string[]) => SessionStarter;
}

export interface Services {
  detectHost(): Promise<HostView>;
  describeModel(id: string): ModelView;
  recentModels(): string[];
  /** Problems that block the Model screen (bad SLO text, missing dataset file...), one line each. */
  checkForm(form: WorkloadForm): string[];
  /** Build the plan; rejects with a one-line message for bad input. Launches nothing. */
  plan(choices: Omit<Choices, 'disabled'>): Promise<PlannedSession>;
  /** Remember what the user chose for next time (recent models...). Best effort. */
  remember?(choices: Choices): void;
}

export interface WorkbenchDefaults {
  gpuType: string;
  gpuCount: number;
  form: WorkloadForm;
  /** $ per GPU-hour, for $/Mtok columns. */
  pricePerGpuHour?: number;
  /** --dummy-weights was given: the Plan screen's toggle starts on. */
  dummyWeights?: boolean;
}
