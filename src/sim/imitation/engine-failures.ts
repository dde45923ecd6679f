// How the imitated engines fail to start. Every engine line comes from the corpus of real engine
// output (src/engines/data/corpus.json, each entry quoted from the engine's source with its
// origin); the simulator only fills in the engine's own fields. Where no real text is known, the
// simulator says so in a line of its own ("servelab sim: ..."), never in an engine's words.
import { isGpuEngine, type EngineName, type GpuEngineName } from '../../core/variant.js';
import { corpusLines } from '../../engines/corpus.js';
import type { ServerConfig } from '../../model/estimate.js';
import type { LogLine } from './engine-style.js';

/** How a failed start ends: exit with a code, or SGLang's kill_process_tree (SIGKILL, seen as 137). */
export interface StartFailure {
  lines: LogLine[];
  exit: { code: number } | { signal: 'SIGKILL' };
  /** Fails before loading (vLLM's early checks) or after the simulated load. */
  early: boolean;
}

const GiB = 1024 ** 3;
const f2 = (x: number) => x.toFixed(2);
const err = (text: string): LogLine => ({ stream: 'stderr', text });
const corpus = (id: string, values?: Record<string, string | number>) => corpusLines(id, values).map(err);

/** CPython's traceback header around an exception's lines. */
function traceback(where: string, exc: LogLine[]): LogLine[] {
  return [err('Traceback (most recent call last):'), err(`  File "${where}", line 1, in <module>`), ...exc];
}

/** The simulator's own line for a case with no known real engine text (classified by a sim-only rule). */
function simOnly(kind: 'unsupported' | 'tp-mismatch', text: string): LogLine[] {
  return [err(`servelab sim: ${kind}: ${text} (no real engine text is known for this case)`)];
}

function vllmEngineDied(exc: LogLine[]): StartFailure {
  return {
    lines: [...corpus('vllm-enginecore-failed-to-start'), ...exc, ...corpus('vllm-engine-core-failed')],
    exit: { code: 1 },
    early: false,
  };
}

function sglangChildDied(exc: LogLine[]): StartFailure {
  return {
    lines: [...corpus('sglang-scheduler-exception'), ...exc, ...corpus('sglang-sigquit')],
    exit: { signal: 'SIGKILL' },
    early: false,
  };
}

function cudaOom(cfg: ServerConfig): LogLine[] {
  const total = cfg.gpu.memMiB / 1024;
  const need = cfg.weights.perGpu / GiB;
  return corpus('torch-cuda-oom', {
    alloc: f2(Math.max(0.5, need - total + 1)),
    total: f2(total),
    free: f2(Math.max(0.1, total * 0.01)),
    used: f2(total - 0.5),
  });
}

/** One imitated engine's failure texts; an absent one says it in the simulator's own words. */
interface FailureTexts {
  tpMismatch(cfg: ServerConfig): StartFailure;
  outOfMemory(cfg: ServerConfig, kind: string, maxModelLen: number): StartFailure;
  noFp8?(cfg: ServerConfig): StartFailure;
  tooFewGpus?(cfg: ServerConfig): StartFailure;
  unknownModel?(model: string, hint: LogLine): StartFailure;
  portBusy(host: string, port: number): StartFailure;
}

function vllmOutOfMemory(cfg: ServerConfig, kind: string, maxModelLen: number): StartFailure {
  if (kind === 'oom-weights') return vllmEngineDied(traceback('vllm/v1/worker/gpu_model_runner.py', cudaOom(cfg)));
  if (kind === 'oom-kv') return vllmEngineDied(traceback('vllm/v1/core/kv_cache_utils.py', corpus('vllm-no-cache-blocks')));
  const need = (maxModelLen * cfg.kvBytesPerTokenPerGpu) / GiB;
  const est = Math.floor(cfg.kvCapacityTokens / cfg.par.dp);
  return vllmEngineDied(
    traceback(
      'vllm/v1/core/kv_cache_utils.py',
      corpus('vllm-kv-too-small', { maxLen: maxModelLen, need: f2(need), have: f2(cfg.kvBytesPerGpu / GiB), est }),
    ),
  );
}

const FAILURES: Readonly<Record<GpuEngineName, FailureTexts>> = {
  vllm: {
    tpMismatch: (cfg) => ({
      lines: traceback('vllm/config/model.py', corpus('vllm-heads-divisible', { heads: cfg.model.numHeads, tp: cfg.par.attnTp })),
      exit: { code: 1 },
      early: true,
    }),
    outOfMemory: vllmOutOfMemory,
    tooFewGpus: () => ({ lines: traceback('vllm/config/parallel.py', corpus('vllm-ray-not-enough-gpus')), exit: { code: 1 }, early: true }),
    unknownModel: (model, hint) => ({
      lines: [...traceback('vllm/transformers_utils/config.py', corpus('vllm-invalid-repo', { model })), hint],
      exit: { code: 1 },
      early: true,
    }),
    portBusy: () => ({ lines: traceback('vllm/entrypoints/launcher.py', corpus('vllm-port-in-use')), exit: { code: 1 }, early: true }),
  },
  sglang: {
    tpMismatch: () => ({
      ...sglangChildDied(corpus('sglang-assert-heads', { file: 'python/sglang/srt/models/qwen3.py', line: 60 })),
      early: false,
    }),
    outOfMemory: (cfg, kind) => sglangChildDied(kind === 'oom-weights' ? cudaOom(cfg) : corpus('sglang-not-enough-memory')),
    // sglang#5871 / #13471: Triton's FP8 kernels on A100.
    noFp8: () => sglangChildDied(corpus('triton-fp8e4nv')),
    portBusy: (host, port) => ({ lines: corpus('sglang-uvicorn-port-in-use', { host, port }), exit: { code: 1 }, early: false }),
  },
  trtllm: {
    tpMismatch: (cfg) => ({
      lines: simOnly('tp-mismatch', `${cfg.model.numHeads} attention heads are not divisible by tensor parallel size ${cfg.par.attnTp}`),
      exit: { code: 1 },
      early: false,
    }),
    // Weights: PyTorch's allocator; the KV pool: TensorRT-LLM's C++ cudaMalloc.
    outOfMemory: (cfg, kind) =>
      kind === 'oom-weights'
        ? { lines: traceback('tensorrt_llm/_torch/pyexecutor/py_executor_creator.py', cudaOom(cfg)), exit: { code: 1 }, early: false }
        : { lines: corpus('trtllm-cudamalloc-oom'), exit: { code: 1 }, early: false },
    portBusy: (host, port) => ({
      lines: traceback('tensorrt_llm/commands/serve.py', corpus('trtllm-bind', { host, port })),
      exit: { code: 1 },
      early: true,
    }),
  },
};

/** The simulator imitates the GPU engines only; any other engine fails as the last entry (TensorRT-LLM), as it always has. */
const textsOf = (engine: EngineName): FailureTexts => (isGpuEngine(engine) ? FAILURES[engine] : FAILURES.trtllm);

/** The engine's text for a start-up failure found by the estimate's fit check. */
export function fitFailure(engine: EngineName, cfg: ServerConfig, kind: string, _model: string, maxModelLen: number): StartFailure {
  const texts = textsOf(engine);
  if (kind === 'tp-mismatch') return texts.tpMismatch(cfg);
  const cap = cfg.gpu.computeCapability?.toFixed(1) ?? '(none)';
  if (kind === 'no-fp8')
    return (
      texts.noFp8?.(cfg) ?? {
        lines: simOnly('unsupported', `FP8 weights on compute capability ${cap} (${cfg.gpu.smiName})`),
        exit: { code: 1 },
        early: false,
      }
    );
  if (kind === 'too-few-gpus') {
    const text = `the layout needs ${cfg.par.gpusUsed} GPUs, the host has ${cfg.gpus}`;
    return texts.tooFewGpus?.(cfg) ?? { lines: simOnly('unsupported', text), exit: { code: 1 }, early: true };
  }
  return texts.outOfMemory(cfg, kind, maxModelLen);
}

export function unknownModelFailure(engine: EngineName, model: string): StartFailure {
  const hint = err("servelab sim: built-in models are listed by 'servelab sim-serve --help'; or give a folder with config.json");
  return (
    textsOf(engine).unknownModel?.(model, hint) ?? {
      lines: [...traceback('transformers/utils/hub.py', corpus('hf-not-valid-identifier', { model })), hint],
      exit: { code: 1 },
      early: true,
    }
  );
}

/** Busy port: vLLM and TRT-LLM fail at bind before loading; SGLang only after the full load. */
export function portBusyFailure(engine: EngineName, host: string, port: number): StartFailure {
  return textsOf(engine).portBusy(host, port);
}

/** TRT-LLM shrinks the context instead of failing when KV is short. */
export function adjustedMaxSeqLenLine(len: number): LogLine {
  return { stream: 'stdout', text: corpusLines('trtllm-adjusted-max-seq-len', { len })[0]! };
}
