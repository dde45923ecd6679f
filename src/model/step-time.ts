// The time of one engine step for a batch on a resolved server: a roofline (compute vs memory)
// for the GEMMs and attention, tensor-parallel communication, and the engine's host and launch
// overheads (efficiency.ts). The simulator's scheduler and the planner both call it.
import { type ModelInfo } from './models.js';
import { paramCounts, replicatedAttentionParamsPerLayer, type ParamCounts } from './param-counts.js';
import { backendEfficiency, HARDWARE } from './efficiency.js';
import type { ServerConfig } from './estimate.js';
import { archEfficiency, archOf, FITTED } from './fitted.js';
import { groupLink } from './interconnect.js';
import { moePaddingFactor } from './moe-tiles.js';

/** One engine step, summarised. */
export interface StepBatch {
  /** Prompt tokens computed this step (all chunks together). */
  prefillTokens: number;
  /** Sum over prefill chunks of chunk x (past + chunk / 2): attention token pairs. */
  prefillAttnPairs: number;
  /** Sequences decoding this step. */
  decodeSeqs: number;
  /** Sum of the decode sequences' context lengths. */
  decodeCtx: number;
  /** Tokens verified per decode sequence (1 without speculative decoding). */
  tokensPerSeq?: number;
  /** Draft forward passes per step (speculative decoding). */
  draftSteps?: number;
}

export interface StepTime {
  seconds: number;
  gemmS: number;
  attnS: number;
  commS: number;
  overheadS: number;
}

const cache = new WeakMap<ModelInfo, ParamCounts>();
function counts(m: ModelInfo): ParamCounts {
  let c = cache.get(m);
  if (!c) cache.set(m, (c = paramCounts(m)));
  return c;
}

/** Time of one engine step on the whole server for a batch, seconds (simulated GPU time). */
export function stepTime(c: ServerConfig, b: StepBatch): StepTime {
  const m = c.model;
  const p = counts(m);
  const par = c.par;
  const eff = c.eff;
  const g = c.gpu;
  const tps = b.tokensPerSeq ?? 1;
  const decodeTokens = b.decodeSeqs * tps;
  const tokens = b.prefillTokens + decodeTokens;
  const seqs = b.decodeSeqs + (b.prefillTokens > 0 ? 1 : 0);
  // Replicas split the batch; attention-DP groups split attention but the MLP sees the whole batch.
  const groups = par.dp;
  const attnTokens = tokens / groups;
  const mlpTokens = par.dpAttention ? tokens : tokens / groups;
  const layersPerStage = m.numLayers / par.pp;
  const stageFrac = 1 / par.pp;

  // GEMMs: weights streamed once per step, FLOPs proportional to tokens.
  // Per architecture: the measured matmul ceiling (gpus.ts) times the fitted serving fraction (fitted.ts).
  const arch = archEfficiency(g.computeCapability);
  // Weight-only FP8 runs vLLM's Marlin kernels: one for dense layers, fused_marlin_moe for experts.
  const gemmBase = c.gemmFlops * g.matmulEff * arch.gemm;
  const gemmPeak = gemmBase / (c.weightOnlyFp8 ? HARDWARE.marlinFp8DenseGemmPenalty : 1);
  const moeGemmPeak = gemmBase / (c.weightOnlyFp8 ? HARDWARE.weightOnlyFp8GemmPenalty : 1);
  const bw = g.memBwBps * arch.weightBw;
  // MLA's replicated down-projections run on every attention-TP rank for all of its tokens.
  const replicated = replicatedAttentionParamsPerLayer(m) * m.numLayers;
  const attnFlopsDense = 2 * attnTokens * stageFrac * ((p.attention - replicated) / par.attnTp + replicated);
  const lmHeadSeqs = (b.decodeSeqs * tps + (b.prefillTokens > 0 ? 1 : 0)) / groups;
  const denseFlops = (2 * mlpTokens * p.denseMlp * stageFrac) / par.tp + (2 * lmHeadSeqs * m.vocabSize * m.hiddenSize) / par.tp;
  const denseBytes = c.weights.densePerGpu;
  let gemmS = Math.max((attnFlopsDense + denseFlops) / gemmPeak, denseBytes / bw);
  if (m.moe) gemmS += moeGemmSeconds(c, p, mlpTokens, stageFrac, moeGemmPeak, bw);

  // Attention over the context: prefill is compute-bound, decode reads the KV cache.
  const be = backendEfficiency(c.attentionBackend);
  const attnS = attentionSeconds(c, b, groups, layersPerStage) / (c.corrections?.attention ?? 1); // host correction (correct-server.ts)

  const commS = commSeconds(c, mlpTokens, attnTokens, layersPerStage);

  // Host and launch overheads.
  const moeLayers = m.moe ? m.numLayers - m.moe.denseLayers : 0;
  // Each DP replica / attention-DP rank runs its own scheduler process: per-sequence host work is split.
  const hostS = eff.stepOverheadS + (eff.perSeqOverheadS * seqs) / groups;
  let launchS = eff.perLayerOverheadS * m.numLayers + eff.moeLayerOverheadS * moeLayers;
  const decodeOnly = b.prefillTokens === 0;
  const graphed = c.knobs.cudaGraph !== false && decodeOnly && b.decodeSeqs / groups <= eff.cudaGraphMaxBs(g, par.tp);
  if (!graphed) launchS += eff.eagerLayerOverheadS * m.numLayers + eff.eagerMoeLayerOverheadS * moeLayers;
  let overheadS = launchS;

  // Speculative decoding: draft passes (one MTP/EAGLE layer + LM head each) and bookkeeping.
  if (b.draftSteps && b.decodeSeqs > 0) overheadS += draftSeconds(c, p, b, groups, gemmPeak, bw);

  // An overlap scheduler prepares step n+1 on the host while step n runs on the GPU: the step takes
  // the longer of the two. Without one (vLLM 0.11 default) the host work adds to every step.
  const gpuS = gemmS + attnS + commS + overheadS;
  let seconds = eff.overlap ? Math.max(gpuS, hostS) : gpuS + hostS;
  overheadS += eff.overlap ? Math.max(0, hostS - gpuS) : hostS;
  const hopper = g.computeCapability !== undefined && g.computeCapability >= 9 && g.computeCapability < 10;
  if (b.prefillTokens > 0)
    seconds *= (be.prefillStepFactorOn !== 'hopper' || hopper ? be.prefillStepFactor : 1) * (c.corrections?.prefill ?? 1); // backend path x host correction
  if (c.knobs.torchCompile)
    seconds *= b.decodeSeqs / groups <= eff.torchCompileMaxBs && decodeOnly ? eff.torchCompileSmallBatch : eff.torchCompileLargeBatch;
  if (par.pp > 1) seconds *= 1 + 0.1 * (par.pp - 1); // pipeline bubbles between micro-batches
  return { seconds, gemmS, attnS, commS, overheadS };
}

/** The routed experts' GEMM time of a step: padded grouped-GEMM FLOPs, or the touched experts' weights, whichever is longer. */
function moeGemmSeconds(c: ServerConfig, p: ParamCounts, mlpTokens: number, stageFrac: number, moeGemmPeak: number, bw: number): number {
  const m = c.model;
  const par = c.par;
  const g = c.gpu;
  const e = m.moe!;
  const activeRouted = (p.routedExperts * e.expertsPerTok) / e.numExperts;
  const imbalance = par.ep > 1 ? HARDWARE.epImbalance : 1;
  const moeFlops = ((2 * mlpTokens * activeRouted * stageFrac) / par.tp) * imbalance;
  // Fraction of experts a step touches: 1 - (1 - k/E)^tokens.
  const touched = 1 - Math.pow(1 - e.expertsPerTok / e.numExperts, Math.max(1, mlpTokens));
  const moeBytes = c.weights.routedPerGpu * touched * imbalance;
  // Padded FLOPs (moe-tiles.ts) at the dense rate times the fitted grouped-GEMM factor.
  const pad = moePaddingFactor({
    engine: c.engine,
    fp8: c.weightDtype === 'fp8' && !c.weightOnlyFp8,
    weightOnlyFp8: c.weightOnlyFp8,
    tokens: mlpTokens,
    numExperts: e.numExperts,
    topK: e.expertsPerTok,
  });
  const groupedEff = archOf(g.computeCapability) === 'ampere' ? FITTED.moeEffAmpere : c.eff.moeEff;
  return Math.max((moeFlops * pad) / (moeGemmPeak * groupedEff), moeBytes / bw);
}

/** Speculative decoding's draft passes (one MTP/EAGLE layer + LM head each) and their bookkeeping, per step. */
function draftSeconds(c: ServerConfig, p: ParamCounts, b: StepBatch, groups: number, gemmPeak: number, bw: number): number {
  const m = c.model;
  const par = c.par;
  const eff = c.eff;
  const draftFlops =
    (2 *
      (b.decodeSeqs / groups) *
      (p.attention / m.numLayers + m.vocabSize * m.hiddenSize + (p.active - p.attention - p.embedding / 2) / m.numLayers)) /
    par.tp;
  const draftBytes = c.weights.perGpu / m.numLayers + (m.vocabSize * m.hiddenSize * 2) / par.tp;
  return b.draftSteps! * (Math.max(draftFlops / gemmPeak, draftBytes / bw) + eff.perLayerOverheadS * 2) + eff.specStepOverheadS;
}

/** Attention time of a step: prefill is compute-bound, decode reads the KV cache (or is compute-bound for MLA's wide heads). */
function attentionSeconds(c: ServerConfig, b: StepBatch, groups: number, layersPerStage: number): number {
  const m = c.model;
  const g = c.gpu;
  const be = backendEfficiency(c.attentionBackend);
  const tps = b.tokensPerSeq ?? 1;
  const headsPerGpu = m.numHeads / c.par.attnTp;
  const decodeHeads = m.mla ? Math.ceil(headsPerGpu / HARDWARE.mlaHeadTile) * HARDWARE.mlaHeadTile : headsPerGpu;
  const qkDim = m.mla ? m.mla.kvLoraRank + m.mla.qkRopeHeadDim : m.headDim;
  const prefillAttnFlops =
    (4 * headsPerGpu * (m.mla ? m.mla.qkNopeHeadDim + m.mla.qkRopeHeadDim : m.headDim) * b.prefillAttnPairs * layersPerStage) / groups;
  const decodeAttnFlops = (4 * decodeHeads * qkDim * b.decodeCtx * tps * layersPerStage) / groups;
  const kvReadBytes = (b.decodeCtx * c.kvBytesPerTokenPerGpu) / groups;
  return (
    prefillAttnFlops / (g.bf16Flops * be.prefillFlopsEff) +
    Math.max(decodeAttnFlops / (g.bf16Flops * be.prefillFlopsEff), kvReadBytes / (g.memBwBps * be.decodeBwEff))
  );
}

/** Tensor-parallel communication (two all-reduces per layer), EP all-to-all and pipeline hand-offs. */
function commSeconds(c: ServerConfig, mlpTokens: number, attnTokens: number, layersPerStage: number): number {
  const { model: m, gpu: g, par } = c;
  let commS = 0;
  if (par.tp > 1) {
    // Hook: a TP group wider than a node runs at the inter-node link (interconnect.ts).
    const link = groupLink(c, par.tp, HARDWARE.allReduceLatencyS[g.interconnect]);
    const lat = link.latencyS;
    const bytes = mlpTokens * m.hiddenSize * 2;
    const linkBw = link.bps * HARDWARE.collectiveBwEff;
    commS = 2 * layersPerStage * (lat + (bytes * 2 * (par.tp - 1)) / par.tp / linkBw);
    // Expert parallel replaces the MoE all-reduce with an all-to-all dispatch and combine.
    if (m.moe && par.ep > 1) commS += ((m.numLayers - m.moe.denseLayers) / par.pp) * (2 * lat);
  }
  // Pipeline hand-offs: over the inter-node link when the stages sit on different nodes.
  if (par.pp > 1)
    commS += (par.pp - 1) * (20e-6 + (attnTokens * m.hiddenSize * 2) / (groupLink(c, par.gpusUsed, 0).bps * HARDWARE.collectiveBwEff));
  return commS;
}
