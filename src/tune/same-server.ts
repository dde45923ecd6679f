// "Same server" (issue 16): a variant whose knobs, with every unset knob replaced by the engine's
// own default for this release and GPU, equal another variant's is the same server, and its
// launch decides nothing. Two variants are compared setting by setting; a setting left to a
// default whose value servelab has not read from that release's source stays "default", which
// equals only another "default", so a variant is launched whenever a default is not known.
//
// Defaults are known only for the releases read below; a session whose engine version is not
// one of them (or is not known at all on a real host) launches every variant. On the simulated
// host the release is the one the commands are spelled for (the simulator stands in for it).
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
//   dtypes float16 and bfloat16.
// - has_sink: only vllm/model_executor/models/gpt_oss.py passes `sinks=` to its attention.
// - vllm/engine/arg_utils.py _set_default_args (`vllm serve` is UsageContext.OPENAI_API_SERVER):
//   `if device_memory >= 70 * GiB_bytes and "a100" not in device_name:` max_num_batched_tokens
//   8192, max_num_seqs 1024; else 2048 and 256; then `self.max_num_seqs =
//   min(default_max_num_seqs[usage_context], self.max_num_batched_tokens or sys.maxsize)`.
// - vllm/config/cache.py: `cache_dtype: CacheDType = "auto"`.
// SGLang and TensorRT-LLM: no default read here at a release tag, so their unset knobs stay
// "default" and their variants are always launched.
import type { Variant } from '../core/variant.js';
import { DEFAULT_VERSION, resolveVersion } from '../engines/data/versions.js';
import type { ModelInfo } from '../model/models.js';

/** What the defaults depend on: the GPU (name, memory, compute capability) and the model. */
export interface ServerContext {
  host: { gpuName: string; gpuMemMiB: number; computeCap?: number; simulated: boolean };
  model?: ModelInfo;
}

/** One effective setting; `fact` says which default produced it (absent: set explicitly). */
interface Setting {
  value: string;
  fact?: string;
}

const VLLM_DEFAULTS_RELEASE = '0.11.0';
/** How a same-server reason starts (the plan text counts them by it). */
export const SAME_SERVER = 'same server as ';
const FA_HEAD_SIZES = [32, 64, 96, 128, 160, 192, 224, 256];
const GIB_MIB = 1024;

/** The release whose defaults apply, or undefined when it is not known exactly. */
export function defaultsRelease(v: Variant, ctx: ServerContext): string | undefined {
  if (v.engineVersion) {
    const r = resolveVersion(v.engine, v.engineVersion);
    return r.exact ? r.table : undefined;
  }
  return ctx.host.simulated ? DEFAULT_VERSION[v.engine] : undefined;
}

function ccText(cc: number): string {
  return cc.toFixed(1);
}

/** vLLM 0.11.0's default FlashAttention version, or undefined when it depends on the build. */
function vllmFaDefault(cc: number): number | undefined {
  const major = Math.floor(cc);
  // Major 9: 3 only when the installed build supports FA3 (is_fa_version_supported), not known.
  return major === 9 ? undefined : 2;
}

function vllmAttention(v: Variant, ctx: ServerContext): Setting | undefined {
  const cc = ctx.host.computeCap;
  const major = cc === undefined ? undefined : Math.floor(cc);
  const explicit = v.knobs.attentionBackend;
  if (explicit === 'fa2' || explicit === 'fa3') {
    // VLLM_FLASH_ATTN_VERSION overrides the default; on major 10 a 3 falls back to 2.
    const version = explicit === 'fa3' && major === 10 ? 2 : Number(explicit.slice(2));
    return { value: `FLASH_ATTN v${version}` };
  }
  if (explicit === 'flash_attn') {
    const version = cc === undefined ? undefined : vllmFaDefault(cc);
    return version ? { value: `FLASH_ATTN v${version}`, fact: `vLLM ${VLLM_DEFAULTS_RELEASE} picks FlashAttention ${version} on compute capability ${ccText(cc!)}` } : undefined;
  }
  if (explicit) return { value: `backend ${explicit}` };
  return vllmDefaultAttention(v, ctx);
}

/** The backend vLLM 0.11.0 picks with VLLM_ATTENTION_BACKEND unset; undefined when not known. */
function vllmDefaultAttention(v: Variant, ctx: ServerContext): Setting | undefined {
  const cc = ctx.host.computeCap;
  const m = ctx.model;
  // MLA models take another path (FlashMLA, FA-MLA, Triton MLA by block size): not mapped here.
  if (cc === undefined || !m || m.mla || cc < 8 || cc >= 10) return undefined;
  const sink = m.architecture === 'GptOssForCausalLM';
  const fp8Kv = (v.knobs.kvCacheDtype ?? 'auto').startsWith('fp8');
  const where = `compute capability ${ccText(cc)}`;
  if ((sink || fp8Kv) && cc !== 9) {
    return { value: 'backend triton', fact: `vLLM ${VLLM_DEFAULTS_RELEASE} picks TRITON_ATTN on ${where} with ${sink ? 'attention sinks' : 'an FP8 KV cache'}` };
  }
  // Activations are bf16 for bf16 and FP8 checkpoints alike; other weight types: not mapped.
  if (!FA_HEAD_SIZES.includes(m.headDim) || (m.weightDtype !== 'bf16' && m.weightDtype !== 'fp8')) return undefined;
  const version = vllmFaDefault(cc);
  if (!version) return { value: 'FLASH_ATTN (version by build)' };
  return { value: `FLASH_ATTN v${version}`, fact: `vLLM ${VLLM_DEFAULTS_RELEASE} picks FLASH_ATTN v${version} on ${where} by default` };
}

/** vLLM 0.11.0's `vllm serve` scheduler defaults; undefined when the GPU is too close to call. */
function vllmBatching(v: Variant, ctx: ServerContext): { mbt: Setting; seqs: Setting } | undefined {
  const { gpuName, gpuMemMiB } = ctx.host;
  // nvidia-smi's total and torch's total_memory are the same figure; stay clear of the threshold.
  if (!gpuMemMiB || Math.abs(gpuMemMiB - 70 * GIB_MIB) < GIB_MIB) return undefined;
  const big = gpuMemMiB >= 70 * GIB_MIB && !gpuName.toLowerCase().includes('a100');
  const gpu = `${gpuName} (${big ? '>= 70 GiB, not an A100' : gpuName.toLowerCase().includes('a100') ? 'an A100' : 'under 70 GiB'})`;
  const k = v.knobs;
  const mbtDefault = big ? 8192 : 2048;
  const mbt: Setting = k.maxBatchedTokens !== undefined ? { value: String(k.maxBatchedTokens) } : { value: String(mbtDefault), fact: `vLLM ${VLLM_DEFAULTS_RELEASE} serves with max-num-batched-tokens ${mbtDefault} on ${gpu} by default` };
  const seqsDefault = Math.min(big ? 1024 : 256, Number(mbt.value));
  const seqs: Setting = k.maxRunningSeqs !== undefined ? { value: String(k.maxRunningSeqs) } : { value: String(seqsDefault), fact: `vLLM ${VLLM_DEFAULTS_RELEASE} serves with max-num-seqs ${seqsDefault} on ${gpu} by default` };
  return { mbt, seqs };
}

/** Every setting of a variant, unset ones resolved where the release's defaults are known. */
export function effectiveSettings(v: Variant, ctx: ServerContext): Map<string, Setting> {
  const out = new Map<string, Setting>();
  out.set('engine', { value: v.engine });
  out.set('model', { value: v.model });
  for (const [k, val] of Object.entries(v.knobs)) if (val !== undefined) out.set(k, { value: JSON.stringify(val) });
  const release = defaultsRelease(v, ctx);
  out.set('release', { value: release ?? 'unknown' });
  if (v.engine !== 'vllm' || release !== VLLM_DEFAULTS_RELEASE) return out;
  if (v.knobs.kvCacheDtype === undefined) out.set('kvCacheDtype', { value: '"auto"', fact: `vLLM ${VLLM_DEFAULTS_RELEASE}'s KV cache dtype is auto by default` });
  const attn = vllmAttention(v, ctx);
  out.set('attentionBackend', attn ?? { value: v.knobs.attentionBackend ? `unmapped ${v.knobs.attentionBackend}` : 'default' });
  const batching = vllmBatching(v, ctx);
  if (batching) {
    out.set('maxBatchedTokens', batching.mbt);
    out.set('maxRunningSeqs', batching.seqs);
  }
  return out;
}

/**
 * When `a` is by its engine's defaults the same server as `b` (already measured on the same GPUs
 * and workload), the line that says so; undefined when they differ or it cannot be told.
 */
export function sameServerAs(a: Variant, b: Variant, ctx: ServerContext): string | undefined {
  if (a.engine !== b.engine || (a.engineVersion ?? '') !== (b.engineVersion ?? '')) return undefined;
  const ea = effectiveSettings(a, ctx);
  const eb = effectiveSettings(b, ctx);
  if (ea.get('release')!.value === 'unknown') return undefined;
  const keys = new Set([...ea.keys(), ...eb.keys()]);
  const facts: string[] = [];
  for (const k of keys) {
    const x = ea.get(k);
    const y = eb.get(k);
    if (!x || !y || x.value !== y.value) return undefined;
    const fact = x.fact ?? y.fact;
    if (fact && !!x.fact !== !!y.fact && !facts.includes(fact)) facts.push(fact);
  }
  // Equal without a default in play would be the same command, which the planner drops already.
  if (!facts.length) return undefined;
  return `${SAME_SERVER}${b.id} (${facts.join('; ')}): not launched, its measurement is reused`;
}
