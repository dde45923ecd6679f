// llama.cpp's own estimate: a CPU llama-server from a GGUF header's facts, its knobs
// and the host CPU (cpu.ts). Decode streams the weights once per step plus each slot's KV cache,
// over memory bandwidth x efficiency, and does 2 x params FLOPs per token; prefill does 2 x params
// FLOPs per token over compute x efficiency, except the output head, which runs for each prompt's
// last token only (headParams). A workload runs in waves of min(concurrency, slots)
// requests. The threads compute on the cores other processes leave free at session start, or on
// their fair share of the CPUs where that is more (effectiveCores); threads beyond those slow
// every graph: ggml's threads meet at a spinning barrier after each node, so a graph advances
// only while all its threads hold a CPU at once. The host corrections of calibration/corrections.ts multiply the rates and costs, so a
// calibration fit (src/sim/predict/calibrated.ts) can move them. Not a simulator: closed-form waves.
import { GGML_TYPES, plain, tensorBytes, type GgufHeader } from '../gguf/format.js';
import type { Knobs } from '../core/variant.js';
import type { CpuFacts } from './cpu.js';
import { NEUTRAL, type Corrections } from './calibration/corrections.js';

/** What the estimate reads from a GGUF header. */
export interface GgufFacts {
  arch: string;
  layers: number;
  /** Parameters of the tensors a token's forward pass multiplies by (all but a separate input embedding). */
  matmulParams: number;
  /**
   * Parameters of the output head (output.weight, or the tied token_embd.weight): a prompt runs it
   * for its last token only. llama.cpp 80fb11a tools/server/server-context.cpp adds prompt tokens
   * with `output = slot.need_embd()` and then "extract the logits only for the last token"
   * (`batch.set_output(batch.size() - 1, true)`); src/models/qwen3.cpp cuts the last layer's rows to
   * those outputs (`ggml_get_rows(ctx0, cur, inp_out_ids)`) before the head.
   */
  headParams: number;
  /** Bytes of those tensors: what one decode step streams. */
  streamedBytes: number;
  /** K and V elements per token per layer (kv heads x head dim, K and V together). */
  kvElemsPerTokenLayer: number;
  /** Query heads x head dim: attention FLOPs per context token. */
  attnWidth: number;
}

const num = (h: GgufHeader, key: string) => {
  const v = plain(h.metadata.get(key));
  return typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : undefined;
};

export function ggufFacts(h: GgufHeader): GgufFacts {
  const arch = String(plain(h.metadata.get('general.architecture')) ?? 'llama');
  const need = (k: string) => {
    const v = num(h, `${arch}.${k}`);
    if (v === undefined) throw new Error(`GGUF header has no ${arch}.${k}`);
    return v;
  };
  const hidden = need('embedding_length');
  const heads = need('attention.head_count');
  const kvHeads = num(h, `${arch}.attention.head_count_kv`) ?? heads;
  const kDim = num(h, `${arch}.attention.key_length`) ?? hidden / heads;
  const vDim = num(h, `${arch}.attention.value_length`) ?? kDim;
  // A separate output matrix means the input embedding is only looked up, not multiplied.
  const tied = !h.tensors.some((t) => t.name === 'output.weight');
  const used = h.tensors.filter((t) => tied || t.name !== 'token_embd.weight');
  const elems = (t: { dims: number[] }) => t.dims.reduce((a, b) => a * b, 1);
  const head = h.tensors.find((t) => t.name === (tied ? 'token_embd.weight' : 'output.weight'));
  return {
    arch,
    layers: need('block_count'),
    matmulParams: used.reduce((s, t) => s + elems(t), 0),
    headParams: head ? elems(head) : 0,
    streamedBytes: used.reduce((s, t) => s + tensorBytes(t), 0),
    kvElemsPerTokenLayer: kvHeads * (kDim + vDim),
    attnWidth: heads * kDim,
  };
}

/**
 * llama.cpp efficiencies on a CPU: hand-set priors, not fitted (a calibration moves them). Sources:
 * none measured; the order of magnitude of ggml CPU matmul against peak FMA throughput.
 */
export const LLAMACPP_EFFICIENCY = {
  /** Fraction of memory bandwidth a decode step draws. */
  bandwidth: 0.5,
  /** Fraction of peak FLOP/s a matmul reaches (F16/F32 weights). */
  gemm: 0.3,
  /** Host work per decode or prefill step (graph build, sampling), s. */
  stepOverheadS: 2e-3,
  /** Per request: HTTP, tokenizing, detokenizing, s. */
  perRequestS: 5e-3,
  /**
   * Oversubscription: a graph's compute time is multiplied by 1 + contention x (threads beyond
   * the free cores). Hand-set from runs on this project's shared 2-core VM, not from the figures
   * it is checked on: the earlier calibration's in-fit variants (model-lab/llamacpp-calibration.txt,
   * 2026-12-01 22:53, np2 -t 2 TPOT 30x np2 -t 1 at load 4.2) and four probes at load 2-4.5
   * (np1 -t 2 12x -t 1, np2 1.0x). The calibration's contention correction moves it (wide prior).
   */
  contention: 10,
};

/**
 * Cores `threads` threads compute on: the free cores (cores - busy at session start), but no less
 * than their fair share of the CPUs among the runnable tasks the load average counts
 * (cores x threads / (load + threads): the kernel shares a busy CPU), and no more than threads.
 */
export function effectiveCores(threads: number, cpu: CpuFacts): number {
  const fair = (cpu.cores * threads) / (cpu.loadAvg1 + threads);
  return Math.min(threads, Math.max(cpu.cores - cpu.busyCores, fair));
}

/** Threads of a graph without a core of their own (threads - effective cores), at most threads - 1 (one thread has no barrier). */
export function oversubscribed(threads: number, cpu: CpuFacts): number {
  return Math.max(0, Math.min(threads - 1, threads - effectiveCores(threads, cpu)));
}

/** Bytes per KV element of a cache type (GGML_TYPES block sizes); auto and unknown are f16. */
export function kvElemBytes(type: string | undefined): number {
  const row = GGML_TYPES[(type && type !== 'auto' ? type : 'f16').toUpperCase()];
  return row ? row[2] / row[1] : 2;
}

export interface LlamacppWorkload {
  numPrompts: number;
  inputLen: number;
  outputLen: number;
  /** Client cap on requests in flight; absent = all at once. */
  maxConcurrency?: number;
}

export interface LlamacppEstimate {
  slots: number;
  /** Requests served together (min of concurrency and slots). */
  batch: number;
  kvBytesPerToken: number;
  /** Decode tok/s of one slot while `batch` slots decode. */
  decodeTokPerSPerSlot: number;
  prefillTokPerS: number;
  totalTokPerS: number;
  meanTtftMs: number;
  meanTpotMs: number;
}

/** Slots: -np, or llama-server's auto of 4 (server log: n_slots = 4). */
export const slotsOf = (k: Knobs) => (k.maxRunningSeqs !== undefined && k.maxRunningSeqs > 0 ? k.maxRunningSeqs : 4);

export function llamacppEstimate(m: GgufFacts, k: Knobs, cpu: CpuFacts, w: LlamacppWorkload, c: Corrections = NEUTRAL): LlamacppEstimate {
  const e = LLAMACPP_EFFICIENCY;
  const threads = Math.min(cpu.cores, k.threads !== undefined && k.threads > 0 ? k.threads : cpu.cores);
  const threadsBatch = Math.min(cpu.cores, k.threadsBatch ?? threads);
  const bw = Math.min(cpu.memBwBps, cpu.memBwPerCoreBps * effectiveCores(threads, cpu)) * e.bandwidth * c.bandwidth;
  const flops = (t: number) => cpu.flopsPerCore * effectiveCores(t, cpu) * e.gemm * c.gemm;
  const slots = slotsOf(k);
  const batch = Math.max(1, Math.min(slots, w.maxConcurrency ?? w.numPrompts, w.numPrompts));
  const kvPerToken = m.layers * m.kvElemsPerTokenLayer * ((kvElemBytes(k.kvCacheDtype) + kvElemBytes(k.vCacheDtype ?? k.kvCacheDtype)) / 2);
  const step = e.stepOverheadS * c.hostOverhead;
  // Graph compute (not the host's single-threaded step work) slows when threads exceed the free cores.
  const slow = (t: number) => 1 + e.contention * c.contention * oversubscribed(t, cpu);
  // One decode step of `batch` slots at mean context `ctx`: weights once, each slot's KV, 2 FLOPs per weight per token.
  const ctx = w.inputLen + w.outputLen / 2;
  const decodeS =
    ((m.streamedBytes + batch * ctx * kvPerToken) / bw +
      (batch * (2 * m.matmulParams + 4 * ctx * m.layers * m.attnWidth)) / flops(threads)) *
      slow(threads) +
    step;
  // Prefill of one wave's prompts in ubatch chunks: weights once per chunk, 2 FLOPs per weight per
  // token through the layers, and the output head once per prompt (its last token), as the GPU
  // step model counts it (step-time.ts lmHeadSeqs).
  const promptTokens = batch * w.inputLen;
  const layerParams = m.matmulParams - m.headParams;
  const ubatch = Math.min(k.ubatch ?? 512, k.maxBatchedTokens ?? 2048);
  const chunks = Math.ceil(promptTokens / ubatch);
  const prefillCompute =
    (promptTokens * (2 * layerParams + 2 * w.inputLen * m.layers * m.attnWidth) + batch * 2 * m.headParams) / flops(threadsBatch) +
    (chunks * m.streamedBytes) / bw;
  const prefillS = (prefillCompute * slow(threadsBatch) + chunks * step) * c.prefill;
  const frontS = batch * e.perRequestS * c.frontEnd;
  const waveS = frontS + prefillS + Math.max(0, w.outputLen - 1) * decodeS;
  const waves = Math.ceil(w.numPrompts / batch);
  return {
    slots,
    batch,
    kvBytesPerToken: kvPerToken,
    decodeTokPerSPerSlot: 1 / decodeS,
    prefillTokPerS: promptTokens / prefillS,
    totalTokPerS: (w.numPrompts * (w.inputLen + w.outputLen)) / (waves * waveS),
    meanTtftMs: (frontS + prefillS) * 1000,
    meanTpotMs: decodeS * 1000,
  };
}
