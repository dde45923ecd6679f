// The values an engine gives the knobs servelab leaves unset, for the releases whose source was
// read for them, on a given GPU and model (a variant that spells out a default is the
// same server as one that leaves it unset). Each function returns undefined where the default
// depends on something servelab does not know (the installed build, an untested branch), so
// the caller treats that knob as unknown and launches.
//
// vLLM 0.11.0, read at the v0.11.0 tag, commit b8b302cde434df8c9289a2b465406b47ebab1c2d:
// - vllm/platforms/cuda.py get_attn_backend_cls (V1, not MLA, no VLLM_ATTENTION_BACKEND):
//   "FlashAttention is the default for SM 8.0+ GPUs": `if (has_sink or use_fp8_kv_cache) and not
//   cls.is_device_capability(90)` -> TRITON_ATTN, `elif is_attn_backend_supported(FLASH_ATTN_V1,
//   head_size, dtype)` -> FLASH_ATTN; SM 10.0 prefers FlashInfer "if installed" (not known here).
// - vllm/attention/utils/fa_utils.py get_flash_attn_version: `fa_version = 3 if
//   (device_capability.major == 9 and is_fa_version_supported(3)) else 2`, then
//   VLLM_FLASH_ATTN_VERSION overrides it; on major 10 a 3 falls back to 2.
// - vllm/v1/attention/backends/flash_attn.py: head sizes [32, 64, 96, 128, 160, 192, 224, 256],
//   dtypes float16 and bfloat16. has_sink: only models/gpt_oss.py passes `sinks=`.
// - vllm/engine/arg_utils.py _set_default_args: the `vllm serve` scheduler limits, quoted in
//   src/model/serve-defaults.ts (shared with the performance model).
// - vllm/config/cache.py: `cache_dtype: CacheDType = "auto"`.
//
// SGLang 0.5.5, read at commit 0c006b8809cd99e1f95926401a2823dd952641c8 ("chore: bump SGLang
// version to 0.5.5 (#12739)", the commit that sets __version__ = "0.5.5"; no tagged copy was at
// hand), python/sglang/srt/server_args.py and python/sglang/srt/utils/common.py:
// - _handle_gpu_memory_settings(gpu_mem), gpu_mem = nvidia-smi memory.total in MiB
//   (get_nvgpu_memory_capacity): chunked_prefill_size, quoted in src/model/serve-defaults.ts.
//   DP attention later divides it by dp_size whether it was given or not (_handle_data_parallelism).
// - _handle_attention_backend_compatibility, attention_backend None: MHA -> "fa3" when
//   is_hopper_with_cuda_12_3() and is_no_spec_infer_or_topk_one(self) and
//   is_fa3_default_architecture(hf_config); MLA -> "fa3" when is_hopper_with_cuda_12_3().
//   is_hopper_with_cuda_12_3 = major 9 and torch.version.cuda >= 12.3: SGLang 0.5.5 pins
//   torch==2.8.0 (python/pyproject.toml), whose builds are CUDA 12.6, 12.8 and 12.9 (pytorch/pytorch
//   RELEASE.md, release compatibility matrix). Elsewhere the pick depends on whether FlashInfer
//   is installed: not known. _handle_model_specific_adjustments runs first and picks its own
//   backend for some architectures (GptOss, Llama4, Olmo2, ...): only the ones below are mapped.
// - `kv_cache_dtype: str = "auto"`; "fa3" with fp8_e5m2 becomes "triton" (not mapped).
//
// SGLang 0.5.13, read at the v0.5.13 tag, commit 28b095c01005d4a3a2a5b637b7d028b07fba31b2
// (versions.ts says how the tag was identified), python/sglang/srt/server_args.py: the same three
// facts hold, so the functions below serve both releases.
// - _handle_gpu_memory_settings: the same chunked_prefill_size thresholds on CUDA GPUs (the other
//   branches are NPU-only at 0.5.5 and gone at 0.5.13); _handle_data_parallelism still divides it.
// - _get_default_attn_backend: MHA -> "fa3" when is_hopper_with_cuda_12_3() and
//   is_no_spec_infer_or_topk_one(self), for every architecture (is_fa3_default_architecture is no
//   longer asked), so the 0.5.5 list below is a subset that holds; MLA -> "fa3" on Hopper as before.
//   _handle_model_specific_adjustments sets no backend on Hopper for the listed architectures (for
//   DeepseekV3 without DSA only on sm100: trtllm_mla). Pins torch==2.11.0 (python/pyproject.toml),
//   whose builds are CUDA 12.6, 12.8 and 13.0 (PyTorch RELEASE.md compatibility matrix, read in a
//   stored copy, id 66643764700). Off Hopper the pick changed (trtllm_mha on sm100): not mapped.
// - `kv_cache_dtype: str = "auto"`; "fa3" with fp8_e5m2 still becomes "triton".
// TensorRT-LLM: nothing read here; its unset knobs stay unknown.
import type { Variant } from '../../core/variant.js';
import type { ModelInfo } from '../../model/models.js';
import { sglangChunkedPrefillSize, vllmServeDefaults } from '../../model/serve-defaults.js';

/** What the defaults depend on: the GPU (name, memory, compute capability) and the model. */
export interface ServerContext {
  host: { gpuName: string; gpuMemMiB: number; computeCap?: number; simulated: boolean };
  model?: ModelInfo;
}

/** One effective setting; `fact` says which default produced it (absent: set explicitly). */
export interface Setting {
  value: string;
  fact?: string;
}

/** Releases whose defaults are mapped below. */
export const DEFAULTS_READ: Readonly<Record<string, readonly string[]>> = { vllm: ['0.11.0'], sglang: ['0.5.5', '0.5.13'] };

const FA_HEAD_SIZES = [32, 64, 96, 128, 160, 192, 224, 256];
const GIB = 1024;
/** is_fa3_default_architecture at 0.5.5, less those _handle_model_specific_adjustments treats itself (0.5.13: any MHA model, this subset included). */
const SGLANG_FA3_MHA = ['Qwen2ForCausalLM', 'LlamaForCausalLM', 'Qwen3ForCausalLM', 'Qwen3MoeForCausalLM', 'Glm4MoeForCausalLM'];
/** MLA architectures with no attention pick of their own off Blackwell at 0.5.5 and 0.5.13 (DeepseekV3 without NSA/DSA). */
const SGLANG_MLA = ['DeepseekV3ForCausalLM', 'DeepseekV2ForCausalLM'];

const cc = (c: number) => c.toFixed(1);

/** vLLM 0.11.0's attention backend for the variant, explicit or default; undefined when not known. */
export function vllmAttention(v: Variant, ctx: ServerContext): Setting | undefined {
  const c = ctx.host.computeCap;
  const major = c === undefined ? undefined : Math.floor(c);
  const explicit = v.knobs.attentionBackend;
  if (explicit === 'fa2') return { value: 'FLASH_ATTN v2' };
  if (explicit === 'fa3') {
    // VLLM_FLASH_ATTN_VERSION overrides the default; on major 10 a 3 falls back to 2. fa_utils'
    // _is_fa3_supported: "FA3 is only supported on devices with compute capability >= 8 excluding
    // 8.6 and 8.9 and Blackwell archs (>=10)"; there (and on 12.x) the version resolves to None and
    // no FA3 server starts (engine audit V8): not the same server as anything.
    if (major === 10) return { value: 'FLASH_ATTN v2' };
    if (c === undefined || c < 8 || c === 8.6 || c === 8.9 || c >= 11) return undefined;
    return { value: 'FLASH_ATTN v3' };
  }
  // flash_attn leaves the version to the build on Hopper: not mapped.
  if (explicit) return explicit === 'flash_attn' ? undefined : { value: `backend ${explicit}` };
  const m = ctx.model;
  // MLA models take another path (FlashMLA, FA-MLA, Triton MLA by block size): not mapped.
  if (c === undefined || !m || m.mla || c < 8 || c >= 10) return undefined;
  const sink = m.architecture === 'GptOssForCausalLM';
  const fp8Kv = (v.knobs.kvCacheDtype ?? 'auto').startsWith('fp8');
  if ((sink || fp8Kv) && c !== 9) {
    return {
      value: 'backend triton',
      fact: `vLLM 0.11.0 picks TRITON_ATTN on compute capability ${cc(c)} with ${sink ? 'attention sinks' : 'an FP8 KV cache'}`,
    };
  }
  // Activations are bf16 for bf16 and FP8 checkpoints alike; other weight types: not mapped.
  if (!FA_HEAD_SIZES.includes(m.headDim) || (m.weightDtype !== 'bf16' && m.weightDtype !== 'fp8')) return undefined;
  // Major 9: FA3 only when the installed build supports it (is_fa_version_supported(3)).
  if (major === 9) return { value: 'FLASH_ATTN (version by build)' };
  return { value: 'FLASH_ATTN v2', fact: `vLLM 0.11.0 picks FLASH_ATTN v2 on compute capability ${cc(c)} by default` };
}

/** vLLM 0.11.0's `vllm serve` scheduler limits; undefined when the GPU is too close to call. */
export function vllmBatching(v: Variant, ctx: ServerContext): { mbt: Setting; seqs: Setting } | undefined {
  const { gpuName, gpuMemMiB } = ctx.host;
  // nvidia-smi's total and torch's total_memory are the same figure; stay clear of the threshold.
  if (!gpuMemMiB || Math.abs(gpuMemMiB - 70 * GIB) < GIB) return undefined;
  const served = vllmServeDefaults(gpuName, gpuMemMiB);
  const big = served.bigNonA100;
  const a100 = gpuName.toLowerCase().includes('a100');
  const gpu = `${gpuName} (${big ? '>= 70 GiB, not an A100' : a100 ? 'an A100' : 'under 70 GiB'})`;
  const k = v.knobs;
  const mbtDefault = served.maxBatchedTokens;
  const mbt: Setting =
    k.maxBatchedTokens !== undefined
      ? { value: String(k.maxBatchedTokens) }
      : { value: String(mbtDefault), fact: `vLLM 0.11.0 serves with max-num-batched-tokens ${mbtDefault} on ${gpu} by default` };
  const seqsDefault = Math.min(served.maxNumSeqs, Number(mbt.value));
  const seqs: Setting =
    k.maxRunningSeqs !== undefined
      ? { value: String(k.maxRunningSeqs) }
      : { value: String(seqsDefault), fact: `vLLM 0.11.0 serves with max-num-seqs ${seqsDefault} on ${gpu} by default` };
  return { mbt, seqs };
}

/** SGLang's chunked-prefill size (servelab's maxBatchedTokens) at 0.5.5 or 0.5.13; undefined when not known. */
export function sglangChunkedPrefill(v: Variant, ctx: ServerContext, release = '0.5.5'): Setting | undefined {
  const given = v.knobs.maxBatchedTokens;
  if (given !== undefined) return { value: String(given) };
  const mem = ctx.host.gpuMemMiB;
  if (!mem) return undefined;
  const size = sglangChunkedPrefillSize(mem);
  return {
    value: String(size),
    fact: `SGLang ${release} sets chunked-prefill-size ${size} on a GPU of ${Math.round(mem / GIB)} GiB by default`,
  };
}

/** SGLang's attention backend at 0.5.5 or 0.5.13, explicit or default; undefined when not known. */
export function sglangAttention(v: Variant, ctx: ServerContext, release = '0.5.5'): Setting | undefined {
  const explicit = v.knobs.attentionBackend;
  if (explicit) return { value: explicit === 'flash_attn' ? 'fa3' : explicit };
  const c = ctx.host.computeCap;
  const m = ctx.model;
  if (c === undefined || Math.floor(c) !== 9 || !m || v.knobs.kvCacheDtype === 'fp8_e5m2') return undefined;
  const mla = !!m.mla && SGLANG_MLA.includes(m.architecture);
  // MHA: not with speculative decoding (is_no_spec_infer_or_topk_one also reads the page size).
  const mha = !m.mla && SGLANG_FA3_MHA.includes(m.architecture) && !v.knobs.speculative;
  if (!mla && !mha) return undefined;
  return {
    value: 'fa3',
    fact: `SGLang ${release} picks fa3 for ${m.architecture} on compute capability ${cc(c)} (Hopper, CUDA >= 12.3) by default`,
  };
}

type ReadSetting = [knob: 'attentionBackend' | 'maxBatchedTokens' | 'maxRunningSeqs', setting: Setting | undefined];

/**
 * The settings this file read for the variant's engine at a release, in the order a comparison
 * lists them; a setting left undefined is a default not known here.
 */
export function readSettings(v: Variant, ctx: ServerContext, release: string): ReadSetting[] {
  if (v.engine === 'vllm') {
    const out: ReadSetting[] = [['attentionBackend', vllmAttention(v, ctx)]];
    const batching = vllmBatching(v, ctx);
    if (batching) out.push(['maxBatchedTokens', batching.mbt], ['maxRunningSeqs', batching.seqs]);
    return out;
  }
  if (v.engine === 'sglang')
    return [
      ['attentionBackend', sglangAttention(v, ctx, release)],
      ['maxBatchedTokens', sglangChunkedPrefill(v, ctx, release)],
    ];
  return [];
}
