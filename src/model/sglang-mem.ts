// SGLang's automatic --mem-fraction-static: the share of GPU memory for weights plus the KV pool,
// the rest left to activations and CUDA graphs. Read in python/sglang/srt/server_args.py
// `_handle_gpu_memory_settings` at commit 303cc957e ("chore: bump SGLang version to 0.5.5.post1
// (#13000)"; the release the model targets) and, unchanged but for the piecewise-graph term (off by
// default), at a4a3d8239 (the 0.5.3 bump). Quoted:
//   reserved_mem = 512
//   reserved_mem += max(self.chunked_prefill_size, 2048) * 1.5
//   reserved_mem += self.cuda_graph_max_bs * 2
//   reserved_mem += self.tp_size * self.pp_size / 8 * 1024
//   if self.enable_dp_attention: reserved_mem += self.cuda_graph_max_bs * self.dp_size * 3
//       if self.cuda_graph_max_bs > 300: reserved_mem += self.cuda_graph_max_bs * self.dp_size * 1.5
//   if gpu_mem is not None and gpu_mem > 60 * 1024: reserved_mem = max(reserved_mem, 10 * 1024)
//   speculative: "STANDALONE" += 6 * 1024, any other but "NGRAM" += 2 * 1024
//   self.mem_fraction_static = round((gpu_mem - reserved_mem) / gpu_mem, 3)
// gpu_mem is nvidia-smi's memory.total in MiB (utils/common.py get_nvgpu_memory_capacity), i.e.
// GpuSpec.memMiB. Examples: H100 TP1 0.835, TP8 0.818; H200 TP8 0.897.
// Not modelled (the model targets 0.5.5): at the v0.5.13 tag (server_args.py@28b095c0) piecewise
// CUDA graphs are on by default and add len(piecewise_cuda_graph_tokens) * 8 (MLA: 1.5 * 1024) before
// the 10 GiB floor, and EAGLE-family drafts reserve 4 * 1024 instead of 2 * 1024; the thresholds,
// cuda_graph_max_bs and the other terms are unchanged.
import type { SpeculativeKnob } from '../core/variant.js';
import type { GpuSpec } from './gpu-spec.js';

/** What the automatic fraction depends on besides the GPU (efficiency.ts defaultMemFraction). */
export interface MemFractionContext {
  /** --chunked-prefill-size (the model's maxBatchedTokens), tokens. */
  maxBatchedTokens: number;
  tp: number;
  pp: number;
  /** Attention-DP groups (SGLang's dp_size) when dpAttention. */
  dp: number;
  dpAttention: boolean;
  speculative?: SpeculativeKnob['method'];
}

/**
 * cuda_graph_max_bs by GPU memory, as the same function sets it before the fraction (CUDA GPUs):
 * < 20 GiB 8; < 35 GiB 24 if tp < 4 else 80; < 60 GiB 32 / 160; otherwise 256 if tp < 4 else 512
 * (512 for any TP from 160 GiB).
 */
export function sglangCudaGraphMaxBs(gpu: GpuSpec, tp: number): number {
  const mib = gpu.memMiB;
  if (mib < 20 * 1024) return 8;
  if (mib < 35 * 1024) return tp < 4 ? 24 : 80;
  if (mib < 60 * 1024) return tp < 4 ? 32 : 160;
  if (mib < 160 * 1024) return tp < 4 ? 256 : 512;
  return 512;
}

/** SGLang's reserved memory outside weights + KV, MiB (the formula above). */
export function sglangReservedMiB(gpu: GpuSpec, i: MemFractionContext): number {
  const graphBs = sglangCudaGraphMaxBs(gpu, i.tp);
  let reserved = 512 + Math.max(i.maxBatchedTokens, 2048) * 1.5 + graphBs * 2 + ((i.tp * i.pp) / 8) * 1024;
  if (i.dpAttention) {
    reserved += graphBs * i.dp * 3;
    if (graphBs > 300) reserved += graphBs * i.dp * 1.5;
  }
  if (gpu.memMiB > 60 * 1024) reserved = Math.max(reserved, 10 * 1024);
  // servelab's 'draft' runs SGLang's STANDALONE algorithm; eagle/eagle3/mtp run EAGLE.
  if (i.speculative === 'draft') reserved += 6 * 1024;
  else if (i.speculative && i.speculative !== 'ngram') reserved += 2 * 1024;
  return reserved;
}

export function sglangMemFractionStatic(gpu: GpuSpec, i: MemFractionContext): number {
  return Math.round(((gpu.memMiB - sglangReservedMiB(gpu, i)) / gpu.memMiB) * 1000) / 1000;
}
