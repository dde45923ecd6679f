// The profile: a versioned JSON document that records a tuned server well enough to bring it back (replay,
// serve, export) and to judge whether it still performs. Validated on load with zod so a hand-edited or foreign file fails with the field it got wrong.
import { DecisionRecordSchema, StageTieSchema } from './noise.js';
import { z } from 'zod';
import { QualityCheckSchema, QualitySchema } from '../../core/quality-schema.js';
import { NEUTRAL_KNOBS, SPECULATIVE_METHODS, type NeutralKnob } from '../../engines/data/knobs.js';
import { ENGINES, type Knobs, type Variant } from '../../core/variant.js';
import { DATASETS } from '../../core/dataset-names.js';
import type { VariantResult } from '../../core/events.js';
import type { BenchMetrics } from '../../core/metrics.js';
import { SweepRecordSchema } from '../../sweep/record.js';
import { CapacityRecordSchema } from '../../capacity/record.js';
import { CalibratedPredictionSchema, SessionCalibrationSchema } from './calibrated.js';
import { FailureSchema, GpuTimeSchema, MetricsSchema, SessionCostSchema, type RecordedMetrics } from './metrics.js';
import { BudgetRecordSchema } from './budget.js';

/** The schema version this servelab writes and the newest it reads. */
export const PROFILE_SCHEMA_VERSION = 1;

const engineName = z.enum(ENGINES);
const isoTime = z.string().min(1);

export const SpeculativeSchema = z.object({
  method: z.enum(SPECULATIVE_METHODS),
  numSteps: z.number().int().positive().optional(),
  topk: z.number().int().positive().optional(),
  draftTokens: z.number().int().positive().optional(),
  draftModel: z.string().optional(),
});

/** One zod field per neutral knob, from the knob list (src/engines/data/knobs.ts). */
function knobField(n: NeutralKnob): z.ZodType {
  if (n.type === 'string') return z.string().optional();
  if (n.type.startsWith('bool')) return z.boolean().optional();
  let num = n.type === 'int' ? z.number().int() : z.number();
  num = n.min !== undefined && n.min >= 1 ? num.positive() : num;
  if (n.max !== undefined) num = num.positive().max(n.max);
  return num.optional();
}

/** The knob fields, typed as the Knobs contract (the _VariantFits checks below keep them in step). */
type KnobShape = { [K in NeutralKnob['knob']]: z.ZodOptional<z.ZodType<NonNullable<Knobs[K]>>> };

export const KnobsSchema = z.object({
  ...(Object.fromEntries(NEUTRAL_KNOBS.map((n) => [n.knob, knobField(n)])) as unknown as KnobShape),
  speculative: SpeculativeSchema.optional(),
  extraArgs: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
});

export const VariantSchema = z.object({
  id: z.string().min(1),
  engine: engineName,
  model: z.string().min(1),
  knobs: KnobsSchema,
  label: z.string().optional(),
  /** The engine release the command was spelled for (src/engines/data/versions.ts). */
  engineVersion: z.string().optional(),
});

/** vLLM `--save-result` key names; percentile keys (mean_ttft_ms, p99_tpot_ms, ...) pass through. */
export const VariantResultSchema = z.object({
  variantId: z.string().min(1),
  stage: z.string().min(1),
  scenario: z.string().min(1),
  status: z.enum(['ok', 'failed', 'pruned', 'skipped']),
  variant: VariantSchema,
  argv: z.array(z.string()),
  engineArgv: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  metrics: MetricsSchema.optional(),
  failure: FailureSchema.optional(),
  startupS: z.number().nonnegative().optional(),
  /** CPU seconds of the server process, start-up to stop (first result of a launch). */
  cpuS: z.number().nonnegative().optional(),
  /** What the server loaded: the model id, or the GGUF file and its weight type. */
  served: z.string().optional(),
  predicted: z
    .object({ totalTokPerS: z.number(), meanTtftMs: z.number(), meanTpotMs: z.number(), peakEventsPerS: z.number().optional() })
    .optional(),
  calibrated: CalibratedPredictionSchema.optional(), // the session's calibrated prediction before it ran
  simulated: z.boolean().optional(),
  clientBound: z.boolean().optional(),
  /** A run stopped early: its metrics cover the requests finished before the stop. */
  partial: z.boolean().optional(),
  /** A run stopped early: the most its objective could still have reached. */
  stopBound: z.number().optional(),
  gpuTime: GpuTimeSchema.optional(),
  gpuIds: z.array(z.number().int().nonnegative()).optional(),
  quality: QualitySchema.optional(), // the quality check (quality-schema.ts)
  weights: z.object({ kind: z.enum(['dummy', 'real']), why: z.string() }).optional(), // --dummy-weights: what it loaded, why
  warmups: z.number().int().nonnegative().optional(), // warm-up requests sent just before this run
  requestErrors: z.array(z.object({ error: z.string(), count: z.number().int().positive() })).optional(), // failed requests by error
  startedAt: isoTime,
  finishedAt: isoTime,
  /** Other processes' CPU share and the load average while it ran; busy: measured on a busy host. */
  hostLoad: z
    .object({
      othersCpuPct: z.number().nonnegative(),
      loadAvg1: z.number().nonnegative(),
      cores: z.number().int().positive(),
      busy: z.boolean().optional(),
      pinned: z.string().optional(),
    })
    .optional(),
  /** Prefix cache: measured hit rate (null: not reported) and the reuse the workload made possible, 0..1. */
  cache: z
    .object({
      hitRate: z.number().min(0).max(1).nullable(),
      possibleReuse: z.number().min(0).max(1),
      warmBeforeRun: z.boolean().optional(),
    })
    .optional(),
  /** Multi-turn: mean TTFT of each turn, ms. */
  turnTtftMs: z.array(z.number().nonnegative()).optional(),
  /** Multi-turn: conversations that ran every turn, per second. */
  conversationsPerS: z.number().nonnegative().optional(),
});

export const HostSchema = z.object({
  gpuName: z.string().min(1),
  /** 0: a host without a GPU (llama.cpp on the CPU; cpuThreads says how many threads it had). */
  gpuCount: z.number().int().nonnegative(),
  /** Memory of one GPU, MiB. */
  gpuMemoryMiB: z.number().nonnegative(),
  driver: z.string().optional(),
  cuda: z.string().optional(),
  simulated: z.boolean(),
  /** Nodes the server spans (a multi-node Slurm job); absent for one host. */
  nodes: z.number().int().positive().optional(),
  /** CPU threads the session could use (llama.cpp sessions only). */
  cpuThreads: z.number().int().positive().optional(),
  /** The CPU's model name (/proc/cpuinfo), llama.cpp sessions only: a CPU calibration is per CPU model. */
  cpuModel: z.string().min(1).optional(),
  /** Who makes the GPUs (absent: NVIDIA): how an export asks for them (docker devices, k8s resource). */
  vendor: z.enum(['nvidia', 'amd']).optional(),
});

export const RuntimeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('native') }),
  z.object({ kind: z.literal('docker'), image: z.string().min(1) }),
]);

/** The benchmark workload, as `vllm bench serve` flags name it. */
export const WorkloadSchema = z.object({
  /** Scenario name, e.g. 'sharegpt', 'sharegpt-like', 'random-2000-100'. */
  scenario: z.string().min(1),
  /** Human label, e.g. 'medium 2000/100'. */
  label: z.string().optional(),
  /** 'custom': a JSONL of prompts (vLLM's custom dataset); the ShareGPT-like stand-in is one. */
  dataset: z.enum(DATASETS),
  datasetPath: z.string().optional(),
  inputLen: z.number().int().positive().optional(),
  outputLen: z.number().int().positive().optional(),
  /** vLLM's --random-range-ratio. */
  rangeRatio: z.number().min(0).max(1).optional(),
  numPrompts: z.number().int().positive(),
  seed: z.number().int(),
  /** null = unlimited (all requests at once, request rate inf). */
  maxConcurrency: z.number().int().positive().nullable(),
  /** Requests per second; null = inf. */
  requestRate: z.number().positive().nullable().default(null),
  /** The client command that produced the recorded numbers, for the report. */
  benchCommand: z.string().optional(),
  /** prefix_repetition: shared prefix tokens and distinct prefixes (inputLen is the suffix). */
  prefixLen: z.number().int().nonnegative().optional(),
  numPrefixes: z.number().int().positive().optional(),
  /** mooncake_trace: tokens per hash id and the replay speed-up. */
  traceBlockSize: z.number().int().positive().optional(),
  traceSpeedup: z.number().positive().optional(),
  /** multi_turn: user turns per conversation and system prompt tokens (numPrompts: conversations, maxConcurrency: users). */
  turns: z.number().int().positive().optional(),
  systemPromptLen: z.number().int().nonnegative().optional(),
});

export const SloSchema = z.object({
  metric: z.enum(['ttft', 'tpot', 'itl', 'e2el']),
  /** 'mean' | 'median' | 'p99' | 'p90' ... matching the metrics key prefix. */
  stat: z.string().regex(/^(mean|median|p\d+(\.\d+)?)$/, 'expected mean, median or pNN'),
  limitMs: z.number().positive(),
});

export const StageSchema = z.object({
  name: z.string().min(1),
  /** Winner carried forward after this stage (null: nothing worked). */
  winnerId: z.string().nullable(),
  /** Gain of this stage's winner over the carried winner, %, null when none. */
  gainPct: z.number().nullable(),
  /** Why the stage was skipped, when it was. */
  skipped: z.string().optional(),
  results: z.array(VariantResultSchema),
  /** Rows that cannot win because too many of their requests failed (--max-failed): id -> "514/1000 ok: not eligible". */
  notEligible: z.record(z.string(), z.string()).optional(),
  ...StageTieSchema, // the stage's tied set, intervals and effective margin (schema/noise.ts)
});

const pointSchema = z.object({ totalTokPerS: z.number().nonnegative(), meanTpotMs: z.number().nonnegative() });
export const ValidationRowSchema = z.object({
  scenario: z.string().min(1),
  baseline: pointSchema.nullable(),
  optimized: pointSchema.nullable(),
  /** (optimized - baseline) / baseline, %; null when either side failed. */
  gainPct: z.number().nullable(),
  /** The margin the row was judged by: max(--margin, the host's measured noise), %. */
  marginPct: z.number().nonnegative().optional(),
  /** The winner loses to the baseline beyond that margin here, or fails where the baseline ran. */
  regression: z.boolean().optional(),
});

export const ReplayRecordSchema = z.object({
  at: isoTime,
  servelabVersion: z.string(),
  host: HostSchema,
  engineVersion: z.string().optional(),
  simulated: z.boolean(),
  verdict: z.enum(['ok', 'faster', 'regression', 'failed']),
  tolerancePct: z.number().nonnegative(),
  /** Why the verdict is what it is (one line each). */
  reasons: z.array(z.string()),
  metrics: MetricsSchema.optional(),
  failure: FailureSchema.optional(),
});

export const ProfileSchema = z.looseObject({
  schema: z.literal(PROFILE_SCHEMA_VERSION),
  /** Where the numbers came from: a servelab session, or a published study transcribed by hand. */
  source: z.enum(['session', 'study']).default('session'),
  servelabVersion: z.string().min(1),
  createdAt: isoTime,
  host: HostSchema,
  /** The model asked for (e.g. Qwen/Qwen3-14B); the checkpoint served is variant.model. */
  model: z.string().min(1),
  engine: z.object({ name: engineName, version: z.string().min(1), runtime: RuntimeSchema }),
  /** Versions of every engine tried in the session, for the report's set-up section. */
  engineVersions: z.record(z.string(), z.string()).default({}),
  variant: VariantSchema,
  /** The exact argv launched when tuned (on a simulated host: the sim-serve argv). argv[0] is the executable. */
  argv: z.array(z.string()).min(1),
  /** The real engine's argv for this variant (what replay/serve/export run on a real host). */
  engineArgv: z.array(z.string()).min(1),
  /** Environment for the server, secrets removed (see safety/redact.ts). */
  env: z.record(z.string(), z.string()),
  /**
   * Files the command reads (TensorRT-LLM's --extra_llm_api_options YAML), with their content:
   * `path` is how engineArgv names the file; serve and export write it anew and point the argv there.
   */
  files: z.array(z.object({ path: z.string().min(1), content: z.string() })).default([]),
  workload: WorkloadSchema,
  objective: z.enum(['total', 'output', 'request', 'goodput']).default('total'),
  slo: z.array(SloSchema).default([]),
  tpot: z.enum(['excl', 'inclusive']).optional(), // --tpot: which TPOT the report shows (src/core/tpot.ts); absent: excl
  metrics: MetricsSchema,
  startupS: z.number().nonnegative().nullable(),
  stages: z.array(StageSchema),
  validation: z.array(ValidationRowSchema),
  /** Free-text notes for the report (e.g. the study's own remarks). */
  notes: z.array(z.string()).default([]),
  /** Append-only: each replay adds one record; recorded numbers above are never rewritten. */
  replays: z.array(ReplayRecordSchema).default([]),
  /** Load sweep of the chosen variants (src/sweep): every point's metrics, the frontier's choice. */
  sweep: SweepRecordSchema.optional(),
  capacity: CapacityRecordSchema.optional(), // `servelab capacity`: the highest load meeting an SLO (src/capacity)
  /** What the tuning session cost in GPU-hours (absent in profiles written before servelab counted GPU-hours). */
  cost: SessionCostSchema.optional(),
  calibration: SessionCalibrationSchema.optional(), // the session's host calibration
  quality: QualityCheckSchema.optional(), // --quality N: the quality check's settings and cost
  budget: BudgetRecordSchema.optional(), // --budget: what it kept from running and why
  decision: DecisionRecordSchema.optional(), // the measured noise and the final tied set (schema/noise.ts)
});

export type Profile = z.infer<typeof ProfileSchema>;
/** What a writer passes in: defaulted fields may be left out. */
export type ProfileInput = z.input<typeof ProfileSchema>;
export type HostFingerprint = z.infer<typeof HostSchema>;
export type Workload = z.infer<typeof WorkloadSchema>;
export type Slo = z.infer<typeof SloSchema>;
export type StageRecord = z.infer<typeof StageSchema>;
export type ValidationRow = z.infer<typeof ValidationRowSchema>;
export type ReplayRecord = z.infer<typeof ReplayRecordSchema>;
/** A stage result as recorded in a profile (VariantResult with RecordedMetrics). */
export type RecordedResult = z.infer<typeof VariantResultSchema>;
// Compile-time checks that the schema stays in step with the shared contracts.
type Assert<T extends true> = T;
type Extends<A, B> = [A] extends [B] ? true : false;
export type _BenchFits = Assert<Extends<BenchMetrics, RecordedMetrics>>;
export type _VariantFits = Assert<Extends<z.infer<typeof VariantSchema>, Variant>>;
export type _VariantBack = Assert<Extends<Variant, z.infer<typeof VariantSchema>>>;
export type _ResultBack = Assert<Extends<VariantResult, z.input<typeof VariantResultSchema>>>;
export type _MetricsBack = Assert<Extends<BenchMetrics, z.input<typeof MetricsSchema>>>;
