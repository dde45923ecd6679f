// What the screens draw, in the shape they draw it. The services layer (services.ts) fills these
// from the core (host, engines, model, plan); screens never reach into the core themselves.
import type { EngineInfo } from '../engines/types.js';

export interface HostGpuView {
  index: number;
  name: string;
  memTotalMiB: number;
  computeCap?: string;
}

export interface HostView {
  simulated: boolean;
  /** Why the host is simulated, e.g. "no NVIDIA GPU found: simulated host". */
  note?: string;
  gpus: HostGpuView[];
  driver?: string;
  /** GPU types the simulated host can be (catalog short names). */
  gpuTypes: string[];
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
  /** Set when preflight pruned it: the reason. */
  pruned?: string;
  estimateS?: number;
  /** The exact command it launches (the real engine's, even on the simulated host). */
  command: string;
  predictedTokS?: number;
}

export interface PlanStageView {
  name: string;
  /** What the stage tries, e.g. "quantization (FP8 weights, FP8 KV cache)". */
  title?: string;
  notes?: string[];
  /** Set when the whole stage does not apply, with the reason. */
  skipped?: string;
  variants: PlanVariantView[];
}

export interface PlanView {
  stages: PlanStageView[];
  /** Estimated seconds of the validation runs after the stages (winner and baseline on the scenario set). */
  validationS?: number;
  caveat: string;
  notes: string[];
}

/** A row of the Plan checklist: a stage heading or one of its variants. */
export type PlanRow =
  | { kind: 'stage'; stage: PlanStageView }
  | { kind: 'variant'; stage: PlanStageView; variant: PlanVariantView };

export function planRows(plan: PlanView): PlanRow[] {
  const rows: PlanRow[] = [];
  for (const stage of plan.stages) {
    rows.push({ kind: 'stage', stage });
    if (!stage.skipped) for (const variant of stage.variants) rows.push({ kind: 'variant', stage, variant });
  }
  return rows;
}

/** Variants the user left checked and preflight did not prune. */
export function selectedVariants(plan: PlanView, disabled: readonly string[]): PlanVariantView[] {
  const off = new Set(disabled);
  return plan.stages.flatMap((s) => (s.skipped ? [] : s.variants.filter((v) => !v.pruned && !off.has(v.id))));
}
