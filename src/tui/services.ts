// What the workbench asks of the rest of servelab, as one interface: the App gets an object of
// this shape (the real one from realServices.ts; tests pass their own) and screens only ever see
// the view shapes it returns. Nothing behind this interface renders; nothing in front of it spawns.
import type { SessionStarter } from './hooks/useTuneSession.js';
import type { WorkloadForm } from './state/wizard.js';
import type { HostView, ModelView, PlanView } from './view.js';

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
}
