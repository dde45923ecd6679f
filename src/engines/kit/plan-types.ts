// What an engine's own planning is handed and answers (EngineAdapter.planning): the host as the
// planner sees it, a candidate of a stage, a preflight verdict, and the session's llama.cpp
// files. They sit below the planner (src/tune/plan) so that an engine's folder can plan its own
// stages, check its own variants and prepare its own model files without importing the planner.
import type { GpuVendor } from '../../core/gpu-vendor.js';
import type { Failure } from '../../core/events.js';
import type { Knobs, KnobName, Variant } from '../../core/variant.js';

/** The host as the planner needs it. */
export interface PlanHost {
  gpuName: string;
  gpuCount: number;
  gpuMemMiB: number;
  computeCap?: number;
  /** GPUs per node on a cluster (gpuCount counts all nodes); absent on one host. */
  gpusPerNode?: number;
  simulated: boolean;
  driver?: string;
  /** Who makes the GPUs; absent means NVIDIA. */
  vendor?: GpuVendor;
  /** The CPU side (llama.cpp sessions only; HostInfo.cpu). */
  cpu?: { threads: number; memAvailMiB: number; model?: string; amx?: boolean };
}

export interface PreflightResult {
  /** Set when the variant cannot work here: it is pruned with this reason. */
  failure?: Failure;
  warnings: string[];
}

export interface Candidate {
  model?: string;
  knobs: Knobs;
  change: string;
  /** Knobs this candidate needs the engine to support. */
  needs: KnobName[];
}

/** One stage's answer: its candidates, or why it is skipped, with notes shown beside it. */
export interface StageOut {
  candidates: Candidate[];
  skipped?: string;
  notes: string[];
}

/** What a llama.cpp session serves: GGUF files, a draft model, the binary. */
export interface LlamaCppConfig {
  /**
   * The GGUF files the quantization stage compares (--gguf, repeatable; --model FILE.gguf is the
   * first). One F16/BF16/F32 file alone: llama-quantize makes the others in the run folder.
   */
  gguf: string[];
  /** A draft GGUF for the speculative stage (--draft-model); none: the stage is skipped. */
  draftModel?: string;
  /** llama-server to launch (--llama-server); default PATH, then servelab's build. */
  server?: string;
}

/** The parts of a session an engine's planning reads (the planner's SessionConfig has them all). */
export interface PlanSession {
  model: string;
  stages: readonly string[];
  runsDir: string;
  runDir?: string;
  llamacpp?: LlamaCppConfig;
}

/** What an engine's stage is expanded with: the session, the host, and the workload's requests. */
export interface EngineStageContext {
  session: PlanSession;
  host: PlanHost;
  /** Prompt and output lengths of the tuning workload's requests (the planner derives them). */
  requestLengths(): { promptLen: number; outputLen: number }[];
}

/** What making a variant's model file came to (a GGUF llama-quantize writes, for llama.cpp). */
export interface PrepareOutcome {
  /** Seconds it took (0 when the file was there or nothing was to be made). */
  seconds: number;
  /** What the runner reports once it is made. */
  message?: string;
  failure?: Failure;
}

/**
 * An engine's own planning, for an engine whose stages are not the GPU engines' (llama.cpp): the
 * planner and the runner ask these and nothing else about it.
 */
export interface EnginePlanning {
  /** Stages only this engine runs: another engine's winner skips them. */
  ownStages: readonly string[];
  /** A stage's candidates from the carried winner `w` (or why the stage is skipped for it). */
  stageCandidates(stage: string, w: Variant, ctx: EngineStageContext): StageOut;
  /** Why a variant cannot start here (pruned before its launch), in place of the GPU engines' rules. */
  preflight(v: Variant, host: PlanHost): PreflightResult;
  /** The model the engine stage serves, when it is not the session's checkpoint. */
  engineModel?(session: PlanSession): string | undefined;
  /** Knobs every launch of the session needs on this host (carried from the engine stage on), and the plan's note about them. */
  hostKnobs?(session: PlanSession, host: PlanHost): { knobs: Knobs; note?: string };
  /** Make the variant's model file before its launch when the plan named one to be made. */
  prepareModel?(variant: Variant, session: Pick<PlanSession, 'llamacpp'>, runDir: string, signal?: AbortSignal): Promise<PrepareOutcome>;
  /** What the server loads, as the comparison tables name it. */
  servedName?(model: string): string;
  /** The weight type a launch in this session repacks for the CPU's kernels, when it does (the failure rules name it). */
  repackedType?(variant: Variant, host: { cpu?: { amx?: boolean } }, session?: Pick<PlanSession, 'llamacpp'>): string | undefined;
}
