// Test data in the shapes the screens draw, and a scripted session that replays events on cue.
import type { TuneEvent, TuneListener, VariantResult } from '../../../src/core/events.js';
import type { LiveSnapshot } from '../../../src/core/metrics.js';
import type { BenchMetrics } from '../../../src/core/metrics.js';
import type {
  HostView,
  ModelView,
  PlannedSession,
  PlanView,
  Services,
  SessionHandle,
  SessionStarter,
  WorkbenchDefaults,
  WorkloadForm,
} from '../../../src/tui/services/types.js';

export const form: WorkloadForm = {
  model: 'Qwen/Qwen3-14B',
  scenario: 'random',
  datasetPath: '',
  inputLen: '200',
  outputLen: '100',
  numPrompts: '40',
  seed: '42',
  objective: 'total',
  slo: '',
  sweep: '',
  validation: '',
  capacity: '',
  quality: '',
  qualityFloor: '',
  prefixShape: '256/256/10/128',
  turnsShape: '8/6',
  tracePath: '',
};

export const defaults: WorkbenchDefaults = { gpuType: 'H100', gpuCount: 1, form };

export const simHost: HostView = {
  simulated: true,
  note: 'no NVIDIA GPU found on this host: using the simulated host',
  gpus: [{ index: 0, name: 'NVIDIA H100 80GB HBM3', memTotalMiB: 81559, computeCap: '9.0' }],
  gpuTypes: ['H100', 'H200', 'A100', 'L40S'],
  engines: [
    { engine: 'vllm', installed: false, runtime: 'native', detail: "'vllm' is not on PATH" },
    { engine: 'sglang', installed: true, runtime: 'native', version: '0.5.2' },
    { engine: 'sim', installed: true, runtime: 'sim', version: '0.1.0' },
  ],
  logDir: 'servelab-runs',
  freeDiskBytes: 123e9,
};

export const realHost: HostView = {
  simulated: false,
  gpus: Array.from({ length: 8 }, (_, i) => ({ index: i, name: 'NVIDIA H200', memTotalMiB: 143771, computeCap: '9.0' })),
  driver: '570.86',
  gpuTypes: [],
  engines: [{ engine: 'vllm', installed: true, runtime: 'docker', version: '0.11.0', image: 'vllm/vllm-openai:v0.11.0' }],
  logDir: 'servelab-runs',
};

export const qwen: ModelView = {
  id: 'Qwen/Qwen3-14B',
  known: true,
  architecture: 'Qwen3ForCausalLM',
  paramsB: 14.8,
  heads: 40,
  kvHeads: 8,
  layers: 40,
  contextLen: 40960,
  checkpointDtype: 'bf16',
  weights: [
    { dtype: 'bf16', bytes: 29.6e9 },
    { dtype: 'fp8', bytes: 14.9e9 },
  ],
};

export const plan: PlanView = {
  caveat: 'The search is greedy, stage by stage: it finds a local optimum, not necessarily the global one.',
  notes: [],
  stages: [
    {
      name: 'engine',
      variants: [
        {
          id: 'vllm',
          label: 'vllm defaults',
          knobs: 'defaults',
          estimateS: 90,
          command: 'vllm serve Qwen/Qwen3-14B --port 8000',
          predictedTokS: 9000,
          predictedErrorPct: 17.2,
        },
        {
          id: 'sglang',
          label: 'sglang defaults',
          knobs: 'defaults',
          estimateS: 80,
          command: 'python3 -m sglang.launch_server --model-path Qwen/Qwen3-14B --port 8000',
        },
      ],
    },
    {
      name: 'quantization',
      variants: [
        {
          id: 'sglang-fp8ckpt',
          label: 'sglang fp8 checkpoint',
          knobs: 'model=Qwen/Qwen3-14B-FP8',
          estimateS: 70,
          command: 'python3 -m sglang.launch_server --model-path Qwen/Qwen3-14B-FP8',
        },
        { id: 'sglang-int4', label: 'sglang int4', knobs: 'quant=awq', pruned: 'no AWQ checkpoint for this model', command: 'x' },
      ],
    },
    { name: 'parallelism', skipped: 'single GPU: nothing to parallelise', variants: [] },
  ],
};

export function fakeServices(over: Partial<Services> & { session?: () => SessionStarter } = {}): Services {
  return {
    detectHost: async () => simHost,
    describeModel: (id) => (id === qwen.id ? qwen : { id, known: false, weights: [], note: `unknown model '${id}'` }),
    recentModels: () => ['Qwen/Qwen3-14B', 'meta-llama/Llama-3.1-8B-Instruct'],
    checkForm: (f) => (f.model.trim() ? [] : ['give a model id or a local path']),
    plan: async (): Promise<PlannedSession> => ({ view: plan, start: () => (over.session ?? (() => scripted([]).start))() }),
    ...over,
  };
}

export function metrics(total: number, ttft = 100, tpot = 20): BenchMetrics {
  return {
    duration: 10,
    completed: 40,
    failed: 0,
    total_input_tokens: 8000,
    total_output_tokens: 4000,
    request_throughput: 4,
    request_goodput: null,
    output_throughput: total / 3,
    total_token_throughput: total,
    max_output_tokens_per_s: total,
    max_concurrent_requests: 40,
    mean_ttft_ms: ttft,
    p99_ttft_ms: ttft * 3,
    mean_tpot_ms: tpot,
    p99_tpot_ms: tpot * 1.5,
  };
}

const LABELS: Record<string, string> = { vllm: 'vllm defaults', sglang: 'sglang defaults', 'sglang-fp8ckpt': 'sglang fp8 checkpoint' };

export function result(variantId: string, stage: string, total: number | null, failure?: VariantResult['failure']): VariantResult {
  return {
    variantId,
    stage,
    scenario: 'random-200-100',
    status: total === null ? (failure?.kind === 'skipped' ? 'skipped' : 'failed') : 'ok',
    variant: { id: variantId, engine: 'sglang', model: 'Qwen/Qwen3-14B', knobs: {}, label: LABELS[variantId] ?? variantId },
    argv: ['servelab', 'sim-serve', '--engine', 'sglang'],
    engineArgv: ['python3', '-m', 'sglang.launch_server', '--model-path', 'Qwen/Qwen3-14B'],
    metrics: total === null ? undefined : metrics(total),
    failure,
    startupS: 31,
    simulated: true,
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: '2026-01-01T00:01:00.000Z',
  };
}

export function snapshot(completed: number, out: number, over: Partial<LiveSnapshot> = {}): LiveSnapshot {
  return {
    elapsedS: completed / 4,
    total: 40,
    completed,
    failed: 0,
    running: 40 - completed,
    outputTokPerS: out,
    totalTokPerS: out * 3,
    meanTtftMs: 120,
    p99TtftMs: 340,
    meanTpotMs: 21,
    p99TpotMs: 30,
    meanItlMs: 20,
    p99ItlMs: 45,
    clientBound: false,
    ...over,
  };
}

/** A stage-finished event as the core emits it: the verdict with its reference and per-row gains. */
export function stageDone(
  stage: string,
  winnerId: string | null,
  gainPct: number | null,
  o: {
    carriedId?: string | null;
    referenceId?: string | null;
    baselineId?: string | null;
    gains?: Record<string, number | null>;
    why?: string;
    skipped?: string;
  } = {},
): TuneEvent {
  const carriedId = o.carriedId ?? null;
  return {
    type: 'stage-finished',
    stage,
    winnerId,
    gainPct,
    carriedId,
    referenceId: o.referenceId !== undefined ? o.referenceId : carriedId,
    baselineId: o.baselineId ?? null,
    gains: o.gains ?? {},
    why: o.why ?? (winnerId ? `${winnerId} is the fastest` : 'no variant succeeded'),
    ...(o.skipped ? { skipped: o.skipped } : {}),
  };
}

/** A whole session's events: one stage of two variants, a second stage with a failure, validation, save. */
export function sessionEvents(): TuneEvent[] {
  return [
    { type: 'session-started', runDir: 'servelab-runs/x', simulated: true, at: '2026-01-01T00:00:00Z' },
    { type: 'stage-started', stage: 'engine', index: 0, variants: ['vllm', 'sglang'] },
    { type: 'variant-launching', variantId: 'vllm', stage: 'engine', argv: ['vllm', 'serve'], port: 8100 },
    { type: 'server-log', variantId: 'vllm', line: 'INFO loading weights', stream: 'stdout' },
    { type: 'server-ready', variantId: 'vllm', startupS: 31 },
    { type: 'bench-started', variantId: 'vllm', scenario: 'random-200-100', numPrompts: 40 },
    { type: 'bench-progress', variantId: 'vllm', snapshot: snapshot(10, 1000) },
    { type: 'variant-finished', result: result('vllm', 'engine', 9000) },
    { type: 'variant-launching', variantId: 'sglang', stage: 'engine', argv: ['sglang'], port: 8101 },
    { type: 'variant-finished', result: result('sglang', 'engine', 10_000) },
    stageDone('engine', 'sglang', 11.1, { referenceId: 'vllm', baselineId: 'vllm', gains: { vllm: 0, sglang: 11.1 } }),
    { type: 'stage-started', stage: 'quantization', index: 1, variants: ['sglang-fp8ckpt', 'sglang-kvfp8'], carriedId: 'sglang' },
    { type: 'variant-finished', result: result('sglang-fp8ckpt', 'quantization', 12_000) },
    {
      type: 'variant-finished',
      result: result('sglang-kvfp8', 'quantization', null, { kind: 'oom', reason: 'CUDA out of memory', hint: 'lower mem fraction' }),
    },
    stageDone('quantization', 'sglang-fp8ckpt', 20, {
      carriedId: 'sglang',
      baselineId: 'vllm',
      gains: { 'sglang-fp8ckpt': 20, 'sglang-kvfp8': null },
    }),
    { type: 'validation-started', scenarios: ['sharegpt-like'], baselineId: 'vllm', winnerId: 'sglang-fp8ckpt' },
    {
      type: 'validation-finished',
      rows: [
        {
          scenario: 'sharegpt-like',
          baseline: { totalTokPerS: 9000, meanTpotMs: 25 },
          optimized: { totalTokPerS: 12_000, meanTpotMs: 18 },
          gainPct: 33.3,
        },
      ],
    },
    { type: 'session-finished', profilePath: 'profiles/qwen3-14b-h100x1.json', reportPath: 'profiles/qwen3-14b-h100x1.md', exitCode: 0 },
  ];
}

/**
 * A session that emits `events` one step at a time when the test calls `next()` (or all at
 * once with `rest()`), and records the steering calls it receives.
 */
export function scripted(events: TuneEvent[]) {
  let listener: TuneListener | null = null;
  let signal: AbortSignal | null = null;
  let i = 0;
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const calls: string[] = [];
  // Steps asked for before the app has started the session are replayed when it starts.
  let target = 0;
  const flush = () => {
    while (i < target && i < events.length && listener) listener(events[i++]!);
    if (listener && i >= events.length) finish();
  };
  const emitUntil = (n: number) => {
    target = Math.max(target, n);
    flush();
  };
  const start: SessionStarter = (onEvent, sig): SessionHandle => {
    listener = onEvent;
    signal = sig;
    queueMicrotask(flush);
    // Abort behaves as the core does: stop the server, file the abort, settle.
    sig.addEventListener('abort', () => {
      calls.push('abort');
      setTimeout(() => {
        listener?.({ type: 'session-finished', profilePath: null, reportPath: null, exitCode: 130 });
        finish();
      }, 5);
    });
    return { done, skipVariant: (id) => calls.push(id ? `skip:${id}` : 'skip'), stopAfterStage: () => calls.push('stop-after-stage') };
  };
  return {
    start,
    calls,
    next: (n = 1) => emitUntil(target + n),
    upTo: (pred: (e: TuneEvent) => boolean) => {
      const idx = events.findIndex((e, k) => k >= target && pred(e));
      emitUntil(idx < 0 ? events.length : idx + 1);
    },
    rest: () => emitUntil(events.length),
    get aborted() {
      return signal?.aborted ?? false;
    },
    done,
  };
}
