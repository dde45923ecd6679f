// Parameter counts of a model from its config (models.ts ModelInfo): what the weights hold and what
// one token touches. Re-exported by models.ts, where callers have always found them.
import type { ModelInfo } from './models.js';

/** Parameter counts: total (held in memory) and active per token (computed). */
export interface ParamCounts {
  total: number;
  /** Parameters touched by one token (routed experts counted as expertsPerTok of numExperts). */
  active: number;
  embedding: number;
  /** Attention parameters, all layers. */
  attention: number;
  /** Dense MLP + shared experts, all layers. */
  denseMlp: number;
  /** Routed-expert parameters, all layers. */
  routedExperts: number;
  /** Number of MoE layers (0 for dense models). */
  moeLayers: number;
}

export function attentionParamsPerLayer(m: ModelInfo): number {
  const h = m.hiddenSize;
  if (m.mla) {
    const a = m.mla;
    const qDim = m.numHeads * (a.qkNopeHeadDim + a.qkRopeHeadDim);
    const q = a.qLoraRank ? h * a.qLoraRank + a.qLoraRank * qDim : h * qDim;
    const kvA = h * (a.kvLoraRank + a.qkRopeHeadDim);
    const kvB = a.kvLoraRank * m.numHeads * (a.qkNopeHeadDim + a.vHeadDim);
    const o = m.numHeads * a.vHeadDim * h;
    return q + kvA + kvB + o;
  }
  return h * m.numHeads * m.headDim * 2 + 2 * h * m.numKvHeads * m.headDim;
}

/**
 * Attention parameters per layer that tensor parallelism does not shard: MLA's down-projections
 * (q_a_proj, kv_a_proj_with_mqa) are ReplicatedLinear in vLLM's and SGLang's DeepSeek models, so
 * every TP rank computes them for every token.
 */
export function replicatedAttentionParamsPerLayer(m: ModelInfo): number {
  if (!m.mla) return 0;
  const h = m.hiddenSize;
  return (m.mla.qLoraRank ? h * m.mla.qLoraRank : 0) + h * (m.mla.kvLoraRank + m.mla.qkRopeHeadDim);
}

export function paramCounts(m: ModelInfo): ParamCounts {
  const h = m.hiddenSize;
  const embedding = m.vocabSize * h * (m.tieEmbeddings ? 1 : 2);
  const attention = attentionParamsPerLayer(m) * m.numLayers;
  let denseMlp = 0;
  let routedExperts = 0;
  let activeRouted = 0;
  let moeLayers = 0;
  if (m.moe) {
    const e = m.moe;
    moeLayers = m.numLayers - e.denseLayers;
    const expert = 3 * h * e.moeIntermediateSize;
    denseMlp =
      e.denseLayers * 3 * h * m.intermediateSize + moeLayers * (e.sharedExperts * 3 * h * e.sharedIntermediateSize + h * e.numExperts);
    routedExperts = moeLayers * e.numExperts * expert;
    activeRouted = moeLayers * e.expertsPerTok * expert;
  } else {
    denseMlp = m.numLayers * 3 * h * m.intermediateSize;
  }
  const total = embedding + attention + denseMlp + routedExperts;
  return {
    total,
    active: embedding / (m.tieEmbeddings ? 1 : 2) + attention + denseMlp + activeRouted,
    embedding,
    attention,
    denseMlp,
    routedExperts,
    moeLayers,
  };
}
