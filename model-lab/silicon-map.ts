// How a row of AIConfigurator's silicon_sample.csv becomes servelab's inputs, and why a row cannot.
// The serve limits are those AIConfigurator's own benchmark generator gives the server
// (src/aiconfigurator/generator/rule_plugin/benchmark/{vllm,sglang,trtllm}.rule at commit
// 095f58a5): max batch = the row's batch_size; max_num_tokens = batch_size + ISL + 1500 (vLLM,
// TRT-LLM), max_prefill_tokens = ISL + 1500 (SGLang). The client is aiperf
// (backend_templates/benchmark/bench_run.sh.j2): --concurrency C, --num-requests C x 20
// (BENCH_MULTI_ROUND default 20), --warmup-request-count 2 x C, fixed ISL/OSL with ignore_eos.
import type { GpuEngineName, Knobs } from '../src/core/variant.js';
import { ENGINE_BEHAVIOUR } from '../src/model/engine-behaviour.js';
import type { SiliconRow } from './silicon-rows.js';

/** Upstream model_path -> servelab's model id, with why the two are the same network. */
export const MODEL_OF: Record<string, { id: string; why: string }> = {
  'Qwen/Qwen3-32B': { id: 'Qwen/Qwen3-32B', why: 'same checkpoint' },
  'meta-llama/Llama-3.1-8B-Instruct': { id: 'meta-llama/Llama-3.1-8B-Instruct', why: 'same checkpoint' },
  'nvidia/Llama-3.1-8B-Instruct-FP8': { id: 'nvidia/Llama-3.1-8B-Instruct-FP8', why: 'same checkpoint (model-configs.ts FP8_CHECKPOINTS)' },
  // The base and Instruct checkpoints share config.json's shapes; only the weights differ.
  'meta-llama/Llama-3.1-70B': { id: 'meta-llama/Llama-3.1-70B-Instruct', why: 'base model: the Instruct config has the same shapes' },
  'Qwen/Qwen3-235B-A22B-FP8': { id: 'Qwen/Qwen3-235B-A22B-FP8', why: 'same checkpoint (FP8 block-scaled)' },
  // DeepSeek-V3, R1 and R1-0528 share one architecture (DeepseekV3ForCausalLM, 61 layers, 256 experts, FP8 block weights).
  'deepseek-ai/DeepSeek-R1': { id: 'deepseek-ai/DeepSeek-R1-0528', why: 'R1-0528 has the same config.json shapes' },
  'deepseek-ai/DeepSeek-V3': { id: 'deepseek-ai/DeepSeek-R1-0528', why: 'V3 and R1-0528 share the architecture' },
};

/** Checkpoints that already hold their FP8 weights: the row's fp8 quant mode is the checkpoint's, not an online one. */
const FP8_CHECKPOINT = new Set([
  'Qwen/Qwen3-235B-A22B-FP8',
  'deepseek-ai/DeepSeek-R1',
  'deepseek-ai/DeepSeek-V3',
  'nvidia/Llama-3.1-8B-Instruct-FP8',
]);
const MOE = new Set(['Qwen/Qwen3-235B-A22B-FP8', 'deepseek-ai/DeepSeek-R1', 'deepseek-ai/DeepSeek-V3']);
const GPU_OF: Record<string, string> = { h100_sxm: 'H100', h200_sxm: 'H200' };
const BLACKWELL = new Set(['b200_sxm', 'b300_sxm', 'gb200', 'gb300']);
const int = (v: string | undefined, dflt = 1) => (v === undefined || v === '' ? dflt : Number(v));

/** GPUs one server holds in AIConfigurator's terms: attention TP x PP x attention DP. */
export function gpusOf(r: SiliconRow): number {
  return int(r.tp_size) * int(r.pp_size) * int(r.attention_dp_size);
}

/** Why servelab cannot express a row, or undefined when it can. */
export function dropReason(r: SiliconRow): string | undefined {
  if (r.mode !== 'agg') return 'disaggregated prefill/decode workers: predict models one aggregated server';
  if (BLACKWELL.has(r.system!)) return `Blackwell GPU (${r.system}): not covered in this round`;
  if (!GPU_OF[r.system!]) return `GPU ${r.system}: not covered`;
  if (!MODEL_OF[r.model_path!]) return `model ${r.model_path}: servelab has no config for it`;
  if (!(Number(r.silicon_ttft_ms) > 0 && Number(r.silicon_tpot_ms) > 0)) return 'no measured TTFT or TPOT';
  const gpus = gpusOf(r);
  if (gpus > 8) return `${gpus} GPUs (more than one 8-GPU node): multi-node rows not covered`;
  const dp = int(r.attention_dp_size);
  if (dp > 1 && ENGINE_BEHAVIOUR[r.backend as GpuEngineName].dpAttention === 'none')
    return `attention DP ${dp} on ${r.backend}: predict cannot express this engine's data-parallel attention`;
  if (MOE.has(r.model_path!)) {
    const mtp = int(r.moe_tp_size);
    const mep = int(r.moe_ep_size);
    if (mtp * mep !== gpus) return `MoE TP ${mtp} x EP ${mep} does not cover the ${gpus} GPUs (attention TP x DP): inconsistent row`;
    if (mtp > 1 && mep > 1) return `MoE TP ${mtp} x EP ${mep} split inside one TP group: predict cannot express it`;
  }
  return undefined;
}

export interface SiliconInput {
  engine: GpuEngineName;
  /** Undefined where the row records no release: the model's target release stands in. */
  engineVersion?: string;
  model: string;
  gpu: string;
  gpus: number;
  knobs: Knobs;
  concurrency: number;
  isl: number;
  osl: number;
}

/** A kept row as servelab's inputs (the dropReason of a kept row is undefined). */
export function toInput(r: SiliconRow): SiliconInput {
  const engine = r.backend as GpuEngineName;
  const gpus = gpusOf(r);
  const dp = int(r.attention_dp_size);
  const isl = Number(r.isl);
  const batch = int(r.batch_size, Number(r.concurrency));
  const knobs: Knobs = { tp: gpus, maxRunningSeqs: batch, maxBatchedTokens: engine === 'sglang' ? isl + 1500 : batch + isl + 1500 };
  if (dp > 1) {
    knobs.dpAttention = true;
    if (ENGINE_BEHAVIOUR[engine].dpAttention === 'dp-ranks') knobs.dp = dp;
  }
  if (MOE.has(r.model_path!) && int(r.moe_ep_size) > 1) knobs.ep = int(r.moe_ep_size);
  // A BF16 checkpoint served with FP8 GEMMs is online FP8 quantization.
  if (!FP8_CHECKPOINT.has(r.model_path!) && /^fp8/.test(r.gemm_quant_mode ?? '')) knobs.quantization = 'fp8';
  return {
    engine,
    ...(/^\d/.test(r.backend_version ?? '') ? { engineVersion: r.backend_version } : {}),
    model: MODEL_OF[r.model_path!]!.id,
    gpu: GPU_OF[r.system!]!,
    gpus,
    knobs,
    concurrency: Number(r.concurrency),
    isl,
    osl: Number(r.osl),
  };
}
