// The shared analytical estimate: memory (weights, KV, does it fit) and the engine defaults a
// variant resolves to. The time of one step lives in step-time.ts; the GPU layout in layout.ts.
import type { EngineName, Knobs } from '../core/variant.js';
import { engineMemBytes, hasNativeFp8 } from './gpus.js';
import type { GpuSpec } from './gpu-spec.js';
import { ENGINE_BEHAVIOUR } from './engine-behaviour.js';
import { type Fp8Scaling, type ModelInfo, type WeightDtype } from './models.js';
import { paramCounts } from './param-counts.js';
import { engineEfficiency, HARDWARE, type EngineEfficiency } from './efficiency.js';
import { efficiencyForVersion } from './versions.js';
import { kvBudget, type KvBudget } from './kv-budget.js';
import { headsDivideTp, resolveParallel, type Parallel } from './layout.js';
import type { Corrections } from './calibration/corrections.js';

const GiB = 1024 ** 3;

export function bytesPerParam(d: WeightDtype): number {
  // FP8 block scales (128x128) and int4 group scales add a little on top of the payload.
  return d === 'bf16' ? 2 : d === 'fp8' ? 1.01 : 0.53;
}

/** Dtype of the weights as served: an online --quantization overrides the checkpoint. */
export function servedWeightDtype(m: ModelInfo, k: Knobs): WeightDtype {
  const q = k.quantization?.toLowerCase();
  if (!q) return m.weightDtype;
  if (q.includes('fp8')) return 'fp8';
  if (/awq|gptq|int4|marlin|fp4|mxfp4/.test(q)) return 'int4';
  return m.weightDtype;
}

/**
 * GEMM FLOP/s per GPU the served weights run at (before matmulEff and the serving efficiency).
 * FP8 on FP8 tensor cores: per-tensor scaled checkpoints at HARDWARE.fp8TensorGemmEff (cited
 * kernel benchmark, no fit), block-scaled or unknown scaling at the fitted fp8GemmEff. Weight-only
 * FP8 (no FP8 tensor cores) and BF16 run at the BF16 peak. Online `--quantization fp8` of a BF16
 * checkpoint is per-tensor in vLLM too ("weights quantized down to FP8_E4M3 precision with a
 * per-tensor scale", activations with a dynamic per-tensor scale: vLLM docs quantization/fp8.html,
 * "Quick Start with Online Dynamic Quantization", read at v0.5.4, not re-read at 0.11), yet it keeps the fitted
 * block rate: no training or held-out row measures online FP8, so neither rate is checked for it,
 * and the per-tensor one would make every simulated quant=fp8 variant ~1.5x faster on that
 * argument alone. Open question, model-lab/DIAGNOSIS.md section 2.
 */
export function gemmFlopsPerGpu(gpu: GpuSpec, weightDtype: WeightDtype, fp8Scaling: Fp8Scaling | undefined): number {
  if (weightDtype !== 'fp8' || !hasNativeFp8(gpu)) return gpu.bf16Flops;
  return gpu.fp8Flops * (fp8Scaling === 'tensor' ? HARDWARE.fp8TensorGemmEff : HARDWARE.fp8GemmEff);
}

export function kvDtypeBytes(kvCacheDtype: string | undefined): number {
  return kvCacheDtype && /fp8|int8/.test(kvCacheDtype) ? 1 : kvCacheDtype && /fp4/.test(kvCacheDtype) ? 0.5 : 2;
}

export interface WeightBytes {
  /** Per-GPU bytes of all weights held. */
  perGpu: number;
  /** Per GPU: attention + dense MLP + shared experts + embeddings (read every step). */
  densePerGpu: number;
  /** Per GPU: routed experts (read in the fraction a step touches). */
  routedPerGpu: number;
  total: number;
}

/** Weight bytes per GPU by dtype and parallelism (embeddings stay BF16, vocab-parallel over TP). */
export function weightBytes(m: ModelInfo, dtype: WeightDtype, par: Parallel, withMtp = false): WeightBytes {
  const p = paramCounts(m);
  const b = bytesPerParam(dtype);
  const shards = par.tp * par.pp;
  const layerScale = withMtp && m.mtpLayers ? 1 + m.mtpLayers / m.numLayers : 1;
  // Under DP-attention the attention weights are sharded over attnTp only (replicated per group).
  const attn = ((p.attention * b) / (par.attnTp * par.pp)) * layerScale;
  const dense = ((p.denseMlp * b) / shards) * layerScale;
  const emb = (p.embedding * 2) / par.tp;
  const routed = ((p.routedExperts * b) / shards) * layerScale;
  const densePerGpu = attn + dense + emb;
  return { perGpu: densePerGpu + routed, densePerGpu, routedPerGpu: routed, total: p.total * b };
}

/** KV-cache bytes per token held on one GPU. MLA's latent cache is replicated across TP ranks. */
export function kvBytesPerToken(m: ModelInfo, kvCacheDtype: string | undefined, par: Parallel): number {
  const bytes = kvDtypeBytes(kvCacheDtype);
  const layers = m.numLayers / par.pp;
  if (m.mla) return (m.mla.kvLoraRank + m.mla.qkRopeHeadDim) * layers * bytes;
  const kvHeadsPerGpu = Math.max(1, m.numKvHeads / par.attnTp);
  return 2 * layers * kvHeadsPerGpu * m.headDim * bytes;
}

export type FitKind = 'oom-weights' | 'oom-kv' | 'kv-too-small' | 'tp-mismatch' | 'no-fp8' | 'too-few-gpus';

export interface ServerConfig {
  engine: EngineName;
  gpu: GpuSpec;
  gpus: number;
  /** GPUs per node when the server spans nodes (interconnect.ts); absent on one node. */
  gpusPerNode?: number;
  model: ModelInfo;
  knobs: Knobs;
  par: Parallel;
  weightDtype: WeightDtype;
  /** GEMM FLOP/s per GPU for the served dtype (FP8 only with native FP8 tensor cores). */
  gemmFlops: number;
  /** True when FP8 weights run weight-only (Marlin) on a GPU without FP8 tensor cores. */
  weightOnlyFp8: boolean;
  weights: WeightBytes;
  kvBytesPerTokenPerGpu: number;
  /** KV capacity in tokens for the whole server (all DP groups together). */
  kvCapacityTokens: number;
  /** KV capacity per GPU, bytes. */
  kvBytesPerGpu: number;
  maxBatchedTokens: number;
  maxRunningSeqs: number;
  maxModelLen: number;
  memFraction: number;
  attentionBackend: string;
  eff: EngineEfficiency;
  speculative: boolean;
  /** Memory in use per GPU once loaded (weights + KV pool + runtime), bytes. */
  memUsedPerGpu: number;
  /** Host corrections applied (correct-server.ts); absent = the model as fitted. step-time.ts reads prefill and attention. */
  corrections?: Corrections;
}

export interface FitResult {
  fits: boolean;
  kind?: FitKind;
  /** One human line with the numbers, e.g. "weights need 88.7 GiB per GPU, 79.6 GiB available". */
  reason?: string;
}

const gib = (b: number) => (b / GiB).toFixed(2);

/**
 * Resolve an engine's defaults for a variant and size its memory. Never throws; check `fit`.
 * `engineVersion` selects the release's efficiency entry (versions.ts); undefined = the target release.
 */
export function resolveServer(
  engine: EngineName,
  gpu: GpuSpec,
  gpus: number,
  model: ModelInfo,
  knobs: Knobs,
  engineVersion?: string,
): ServerConfig & { fit: FitResult } {
  const eff = efficiencyForVersion(engine, engineEfficiency(engine), engineVersion);
  const par = resolveParallel(engine, knobs);
  const weightDtype = servedWeightDtype(model, knobs);
  const speculative = !!knobs.speculative;
  const weights = weightBytes(
    model,
    weightDtype,
    par,
    speculative && (knobs.speculative!.method === 'mtp' || knobs.speculative!.method === 'eagle'),
  );
  const nativeFp8 = hasNativeFp8(gpu);
  const weightOnlyFp8 = weightDtype === 'fp8' && !nativeFp8;
  const gemmFlops = gemmFlopsPerGpu(gpu, weightDtype, model.weightDtype === 'fp8' ? model.fp8Scaling : undefined);
  const kvPerTok = kvBytesPerToken(model, knobs.kvCacheDtype, par);
  const mem = memoryPlan(engine, gpu, model, knobs, eff, par, weights.perGpu, speculative, engineVersion);
  const { maxBatchedTokens, memFraction, maxModelLen, maxRunningSeqs, budget, kvBytes } = mem;
  // Per-GPU KV pools: under DP-attention (or DP replicas) each group holds its own requests.
  const kvCapacityTokens = Math.floor(kvBytes / kvPerTok) * par.dp;
  const attentionBackend = knobs.attentionBackend ?? eff.defaultBackend(gpu, !!model.mla);
  const cfg: ServerConfig = {
    engine,
    gpu,
    gpus,
    model,
    knobs,
    par,
    weightDtype,
    gemmFlops,
    weightOnlyFp8,
    weights,
    kvBytesPerTokenPerGpu: kvPerTok,
    kvCapacityTokens,
    kvBytesPerGpu: kvBytes,
    maxBatchedTokens,
    maxRunningSeqs,
    maxModelLen,
    memFraction,
    attentionBackend,
    eff,
    speculative,
    memUsedPerGpu: Math.min(
      engineMemBytes(gpu),
      ENGINE_BEHAVIOUR[engine].holdsBudget ? budget.budget + HARDWARE.runtimeReserveBytes : weights.perGpu + kvBytes + budget.reserved,
    ),
  };
  return { ...cfg, fit: checkFit(cfg, budget) };
}

/** The batch limits and the KV pool a server gets from its knobs, or from the engine's defaults on this GPU. */
function memoryPlan(
  engine: EngineName,
  gpu: GpuSpec,
  model: ModelInfo,
  knobs: Knobs,
  eff: ReturnType<typeof efficiencyForVersion>,
  par: ReturnType<typeof resolveParallel>,
  weightsPerGpu: number,
  speculative: boolean,
  engineVersion: string | undefined,
) {
  // vLLM --performance-mode throughput doubles the *defaulted* batch limits only (arg_utils.py
  // _set_default_max_num_seqs_and_batched_tokens_args, 2026-05 copy); its graph and kernel choices
  // (and interactivity's finer graphs) are not modelled.
  const perfScale = knobs.performanceMode === 'throughput' ? ENGINE_BEHAVIOUR[engine].throughputModeScale : 1;
  const maxBatchedTokens = knobs.maxBatchedTokens ?? eff.defaultMaxBatchedTokens(gpu) * perfScale;
  const memFraction =
    knobs.memFraction ??
    eff.defaultMemFraction(gpu, {
      maxBatchedTokens,
      tp: par.tp,
      pp: par.pp,
      dp: par.dp,
      dpAttention: par.dpAttention,
      speculative: knobs.speculative?.method,
    });
  const maxModelLen = knobs.maxModelLen ?? model.maxPositionEmbeddings;
  const maxRunningSeqs = knobs.maxRunningSeqs ?? eff.defaultMaxRunningSeqs(gpu, speculative) * perfScale;
  const budget = kvBudget({
    engine,
    gpu,
    model,
    weightsPerGpu,
    memFraction,
    maxBatchedTokens,
    maxRunningSeqs,
    tp: par.tp,
    pp: par.pp,
    engineVersion,
  });
  const kvBytes = Math.max(0, budget.kvBytes);
  return { maxBatchedTokens, memFraction, maxModelLen, maxRunningSeqs, budget, kvBytes };
}

function checkFit(c: ServerConfig, kv: KvBudget): FitResult {
  const { model: m, par, gpu } = c;
  if (par.gpusUsed > c.gpus)
    return {
      fits: false,
      kind: 'too-few-gpus',
      reason: `the variant needs ${par.gpusUsed} GPUs (tp ${par.tp} x pp ${par.pp} x dp ${par.dpAttention ? 1 : par.dp}), the host has ${c.gpus}`,
    };
  const heads = headsDivideTp(m, par.attnTp);
  if (heads) return { fits: false, kind: 'tp-mismatch', reason: heads.reason };
  const noFp8 = ENGINE_BEHAVIOUR[c.engine].noFp8Weights;
  if (c.weightDtype === 'fp8' && noFp8 && !hasNativeFp8(gpu)) return { fits: false, kind: 'no-fp8', reason: noFp8(gpu) };
  const mem = engineMemBytes(gpu);
  if (c.weights.perGpu + HARDWARE.runtimeReserveBytes > mem)
    return {
      fits: false,
      kind: 'oom-weights',
      reason: `weights need ${gib(c.weights.perGpu)} GiB per GPU; ${gpu.name} has ${gib(mem)} GiB`,
    };
  const budget = kv.budget;
  if (c.kvBytesPerGpu <= 0 || c.weights.perGpu >= budget)
    return {
      fits: false,
      kind: 'oom-kv',
      reason: `weights need ${gib(c.weights.perGpu)} GiB per GPU, leaving no KV cache inside ${gib(Math.max(0, budget))} GiB`,
    };
  const perGroup = c.kvCapacityTokens / par.dp;
  // Only vLLM refuses to start; SGLang caps requests at the pool (tp_worker.py: max_req_len =
  // min(context_len - 1, max_total_num_tokens - 1)) and TRT-LLM shrinks max_seq_len.
  if (ENGINE_BEHAVIOUR[c.engine].refusesShortKv && perGroup < c.maxModelLen)
    return {
      fits: false,
      kind: 'kv-too-small',
      reason: `one ${c.maxModelLen}-token sequence needs ${gib(c.maxModelLen * c.kvBytesPerTokenPerGpu)} GiB of KV cache; ${gib(c.kvBytesPerGpu)} GiB is available (max length ${perGroup})`,
    };
  return { fits: true };
}

/** Does a variant fit? A short wrapper over resolveServer for the planner and preflight. */
export function fits(engine: EngineName, gpu: GpuSpec, gpus: number, model: ModelInfo, knobs: Knobs): FitResult {
  return resolveServer(engine, gpu, gpus, model, knobs).fit;
}

/** KV capacity in tokens for the whole server, 0 when it does not fit. */
export function kvCapacityTokens(engine: EngineName, gpu: GpuSpec, gpus: number, model: ModelInfo, knobs: Knobs): number {
  const s = resolveServer(engine, gpu, gpus, model, knobs);
  return s.fit.fits ? s.kvCapacityTokens : 0;
}
