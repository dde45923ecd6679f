// How a variant's parallel knobs lay it out on GPUs. The one owner of three rules every part of
// servelab asks (the estimate, preflight, the planner, the Slurm and k8s exports, GPU-hours):
// the GPUs a variant holds, the attention TP under DP attention, and whether the attention heads
// divide that TP.
import type { EngineName, Knobs } from '../core/variant.js';
import type { ModelInfo } from './models.js';
import { ENGINE_BEHAVIOUR } from './engine-behaviour.js';

export interface Parallel {
  tp: number;
  pp: number;
  /** Data-parallel replicas, or attention-DP groups inside the TP group when dpAttention. */
  dp: number;
  ep: number;
  dpAttention: boolean;
  /** GPUs the variant occupies. */
  gpusUsed: number;
  /** Tensor-parallel width of the attention layers (tp / dp under DP-attention). */
  attnTp: number;
}

export function resolveParallel(engine: EngineName, k: Knobs): Parallel {
  const tp = k.tp ?? 1;
  const pp = k.pp ?? 1;
  const dp = k.dp ?? 1;
  // SGLang silently turns DP-attention off when dp == 1; TRT-LLM's attention DP spans the TP group.
  let dpAttention = !!k.dpAttention;
  let dpEff = dp;
  const b = ENGINE_BEHAVIOUR[engine];
  // Per DP rank it needs dp > 1 (SGLang server_args.py _handle_data_parallelism: dp_size == 1 turns it off).
  if (dpAttention && b.dpAttention === 'tp-group') dpEff = tp; // enable_attention_dp spans the TP group
  if (dpAttention && b.dpAttention === 'none') dpAttention = false;
  if (dpAttention && dpEff <= 1) dpAttention = false;
  // TRT-LLM has no data-parallel flag (engines/trtllm/knobs.ts): a dp knob adds no replicas.
  const gpusUsed = dpAttention || !b.dpAddsReplicas ? tp * pp : tp * pp * dp;
  const attnTp = dpAttention ? Math.max(1, Math.floor(tp / dpEff)) : tp;
  return { tp, pp, dp: dpAttention ? dpEff : dp, ep: k.ep ?? 1, dpAttention, gpusUsed, attnTp };
}

/** GPUs a variant holds (tp x pp x dp, where DP attention lives inside the TP group). */
export function gpusHeld(engine: EngineName, k: Knobs): number {
  return resolveParallel(engine, k).gpusUsed;
}

/** Why the heads do not split, and what to do instead. */
export interface HeadsMismatch {
  reason: string;
  hint: string;
}

/**
 * Why the attention heads do not split over `attnTp` ranks, or undefined when they do. Query heads
 * must divide it; KV heads must divide it or be a whole multiple of it (replicated). MLA has one
 * latent KV head, replicated on every rank, so only the query heads count.
 */
export function headsDivideTp(m: Pick<ModelInfo, 'numHeads' | 'numKvHeads' | 'mla'>, attnTp: number): HeadsMismatch | undefined {
  if (m.numHeads % attnTp !== 0)
    return {
      reason: `${m.numHeads} attention heads are not divisible by tensor parallel size ${attnTp}`,
      hint: 'Choose a TP size that divides the attention heads.',
    };
  if (m.mla) return undefined;
  const kv = m.numKvHeads;
  if (kv >= attnTp ? kv % attnTp === 0 : attnTp % kv === 0) return undefined;
  return {
    reason: `${kv} KV heads and tensor parallel size ${attnTp} do not divide each other`,
    hint: 'Choose a TP size that divides the KV heads, or a multiple of them.',
  };
}
