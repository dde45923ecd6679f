// Checks before a launch, as data: each rule looks at a variant on this host with this model and
// either prunes it (a variant that cannot work here is a result with its reason, not a launch) or
// warns (it will run, but not as the knobs suggest). The planner calls `preflight` per variant.
//
//   preflight(variant, host, model?) -> { ok, pruned?: Failure (kind 'pruned'), rule?, warnings }
//   PREFLIGHT_RULES: the rules, in order; the first pruning rule wins, all warnings are kept.
import type { Failure } from '../core/events.js';
import { ENGINE_LABEL, type EngineName, type KnobName, type Knobs, type Variant } from '../core/variant.js';
import type { GpuInfo, HostInfo } from '../host/gpus.js';
import { fits } from '../model/estimate.js';
import { gpusHeld, headsDivideTp, resolveParallel } from '../model/layout.js';
import { findGpu } from '../model/gpus.js';
import type { ModelInfo } from '../model/models.js';
import { shortGpuName } from './kit/failure-rules.js';
import { supportedKnobs } from './table.js';
import { resolveVersion } from './data/versions.js';

export interface PreflightInput {
  variant: Variant;
  engine: EngineName;
  knobs: Knobs;
  host: HostInfo;
  gpu: GpuInfo | undefined;
  /** Compute capability as a number (8.0, 9.0), when known. */
  cc: number | undefined;
  model: ModelInfo | undefined;
  tp: number;
  pp: number;
  dp: number;
  ep: number;
  /** Weights served in FP8 (FP8 checkpoint or online --quantization fp8). */
  fp8Weights: boolean;
}

export type RuleOutcome = { prune: string; hint: string } | { warn: string } | undefined;

export interface PreflightRule {
  id: string;
  /** Engines it applies to; undefined = all. */
  engines?: readonly EngineName[];
  check(i: PreflightInput): RuleOutcome;
}

export interface PreflightResult {
  ok: boolean;
  pruned?: Failure;
  /** Id of the rule that pruned. */
  rule?: string;
  warnings: string[];
}

/** Knob values that mean "engine default": not a request for the knob. */
function isSet(name: KnobName, k: Knobs): boolean {
  const v = k[name];
  if (v === undefined || v === false) return false;
  if ((name === 'tp' || name === 'pp' || name === 'dp' || name === 'ep') && v === 1) return false;
  if (name === 'extraArgs') return (v as string[]).length > 0;
  if (name === 'kvCacheDtype') return v !== 'auto';
  return true;
}

function gpuLabel(i: PreflightInput): string {
  const name = i.gpu ? shortGpuName(i.gpu.name) : 'this GPU';
  return i.cc !== undefined ? `${name}, compute capability ${i.cc.toFixed(1)}` : name;
}

const isMoe = (m: ModelInfo | undefined) => !!m?.moe;

/** SGLang backends (neutral names) with a native page size above 1. */
const SGLANG_PAGED_BACKENDS: ReadonlySet<string> = new Set(['flashmla', 'cutlass_mla', 'trtllm_mla', 'trtllm', 'trtllm_mha', 'fa4']);

/** SGLang's own paged default: trtllm_mla for DeepseekV3 on SM100 (_handle_model_specific_adjustments). */
function sglangDefaultPagedBackend(i: PreflightInput): string | undefined {
  return i.model?.architecture === 'DeepseekV3ForCausalLM' && i.cc !== undefined && i.cc >= 10 && i.cc < 11 ? 'trtllm_mla' : undefined;
}

export const PREFLIGHT_RULES: readonly PreflightRule[] = [
  {
    id: 'engine-supports-knob',
    check: (i) => {
      // The knobs of the release the command is spelled for (vLLM >= 0.17 has --performance-mode).
      const supports = supportedKnobs(i.engine, resolveVersion(i.engine, i.variant.engineVersion).table);
      const missing = (Object.keys(i.knobs) as KnobName[]).filter((n) => isSet(n, i.knobs) && !supports.has(n));
      if (!missing.length) return undefined;
      return { prune: `${ENGINE_LABEL[i.engine]} cannot set ${missing.join(', ')}`, hint: 'Try this knob on an engine that has it.' };
    },
  },
  {
    id: 'gpu-count',
    check: (i) => {
      const need = gpusHeld(i.engine, i.knobs);
      const have = i.host.gpus.length;
      if (need <= have) return undefined;
      const shape = i.engine === 'sglang' && i.knobs.dpAttention ? `tp ${i.tp} x pp ${i.pp}` : `tp ${i.tp} x pp ${i.pp} x dp ${i.dp}`;
      return { prune: `needs ${need} GPUs (${shape}), the host has ${have}`, hint: 'Lower the parallel sizes to fit the visible GPUs.' };
    },
  },
  {
    id: 'moe-only-ep',
    check: (i) =>
      i.ep > 1 && i.model && !isMoe(i.model)
        ? {
            prune: `expert parallelism needs a MoE model; ${i.model.id} is dense`,
            hint: 'Use tensor or data parallelism for a dense model.',
          }
        : undefined,
  },
  {
    id: 'moe-only-dp-attention',
    check: (i) =>
      i.knobs.dpAttention && i.model && !isMoe(i.model)
        ? { prune: `DP-attention is for MoE models; ${i.model.id} is dense`, hint: 'Use data parallel replicas for a dense model.' }
        : undefined,
  },
  {
    id: 'tp-divides-heads',
    check: (i) => {
      const m = i.model;
      if (!m) return undefined;
      const attnTp = resolveParallel(i.engine, i.knobs).attnTp;
      const bad = headsDivideTp(m, attnTp);
      return bad ? { prune: bad.reason, hint: bad.hint } : undefined;
    },
  },
  {
    id: 'sglang-dp-attention-divides',
    engines: ['sglang'],
    check: (i) =>
      i.knobs.dpAttention && i.dp > 1 && i.tp % i.dp !== 0
        ? { prune: `DP-attention needs tp (${i.tp}) divisible by dp (${i.dp})`, hint: 'Pick a dp size that divides the TP size.' }
        : undefined,
  },
  {
    id: 'sglang-ep-divides',
    engines: ['sglang'],
    check: (i) => {
      if (i.ep <= 1) return undefined;
      if (i.tp % i.ep !== 0)
        return { prune: `expert parallel size ${i.ep} must divide tp ${i.tp}`, hint: 'Use an EP size that divides the TP size.' };
      const experts = i.model?.moe?.numExperts;
      if (experts && experts % i.ep !== 0)
        return {
          prune: `${experts} experts are not divisible by expert parallel size ${i.ep}`,
          hint: 'Use an EP size that divides the number of experts.',
        };
      return undefined;
    },
  },
  {
    id: 'fp8-needs-sm89',
    engines: ['sglang', 'trtllm'],
    check: (i) =>
      i.fp8Weights && i.cc !== undefined && i.cc < 8.9
        ? {
            prune: `FP8 is not supported on this GPU (${gpuLabel(i)}): ${ENGINE_LABEL[i.engine]} needs compute capability 8.9+ for FP8 weights`,
            hint: 'Serve the BF16 checkpoint on this GPU, or use vLLM (weight-only Marlin FP8).',
          }
        : undefined,
  },
  {
    id: 'vllm-fp8-marlin',
    engines: ['vllm'],
    check: (i) => {
      if (!i.fp8Weights || i.cc === undefined || i.cc >= 8.9) return undefined;
      if (i.cc < 8.0) {
        return {
          prune: `FP8 is not supported on this GPU (${gpuLabel(i)}): vLLM needs compute capability 8.0+`,
          hint: 'Serve the BF16 checkpoint on this GPU.',
        };
      }
      return { warn: `vLLM runs FP8 weights on this GPU (${gpuLabel(i)}) as weight-only Marlin: no FP8 compute, less speed-up` };
    },
  },
  {
    // SGLang 0.5.5 _handle_speculative_decoding (server_args.py, 0.5.5-era stored copy, id 8356329):
    // NGRAM raises "Currently ngram speculative decoding does not support dp attention." and
    // STANDALONE (servelab's draft) is refused with DP attention the same way (engine-audit G1).
    // Both texts are unchanged at the v0.5.13 tag (arg_groups/speculative_hook.py@28b095c0
    // _handle_ngram, _handle_eagle_family).
    id: 'sglang-spec-dp-attention',
    engines: ['sglang'],
    check: (i) => {
      const m = i.knobs.speculative?.method;
      if (!(m === 'ngram' || m === 'draft') || !i.knobs.dpAttention || i.dp <= 1) return undefined;
      const why =
        m === 'ngram'
          ? 'ngram speculative decoding with DP attention ("Currently ngram speculative decoding does not support dp attention.")'
          : 'draft-model (STANDALONE) speculative decoding with DP attention';
      return {
        prune: `SGLang refuses ${why} at start-up`,
        hint: 'Decode speculatively on the TP layout without DP attention, or use EAGLE/MTP.',
      };
    },
  },
  {
    // NGRAM forces speculative_eagle_topk = speculative_ngram_max_bfs_breadth (10); with page_size > 1
    // and a backend other than flashinfer SGLang raises "... is unstable and produces incorrect
    // results for paged attention backends" (same file; v0.5.13: speculative_hook.py _handle_ngram,
    // same condition and text). Page sizes: flashmla 64, cutlass_mla 128,
    // trtllm_mla / trtllm_mha 64, prefill fa4 128 (docs.sglang.io attention_backend support matrix).
    id: 'sglang-ngram-paged-backend',
    engines: ['sglang'],
    check: (i) => {
      if (i.knobs.speculative?.method !== 'ngram') return undefined;
      const b = i.knobs.attentionBackend ?? sglangDefaultPagedBackend(i);
      if (!b || !SGLANG_PAGED_BACKENDS.has(b)) return undefined;
      return {
        prune: `SGLang's ngram speculative decoding (topk 10) fails with the ${b} attention backend, whose page size is larger than 1`,
        hint: 'Use ngram with flashinfer, fa3 or triton, or another speculative method.',
      };
    },
  },
  {
    id: 'sglang-dp-attention-silently-off',
    engines: ['sglang'],
    check: (i) =>
      i.knobs.dpAttention && i.dp <= 1
        ? {
            warn: "SGLang turns --enable-dp-attention off silently unless --dp-size > 1 (the DeepSeek study's winning command has this shape)",
          }
        : undefined,
  },
  {
    id: 'memory-fit',
    check: (i) => {
      if (!i.model || !i.gpu) return undefined;
      const spec = findGpu(i.gpu.name);
      if (!spec) return { warn: `memory fit not checked: ${i.gpu.name} is not in the GPU catalog` };
      const r = fits(i.engine, spec, i.host.gpus.length, i.model, i.knobs);
      if (r.fits) return undefined;
      // Head, GPU-count and FP8 problems are the rules above; here only memory.
      if (r.kind === 'oom-weights' || r.kind === 'oom-kv' || r.kind === 'kv-too-small') {
        return {
          prune: `does not fit in GPU memory: ${r.reason}`,
          hint: 'Use more GPUs (larger TP), an FP8 checkpoint or KV cache, or a shorter max model length.',
        };
      }
      return undefined;
    },
  },
];

function fp8Weights(variant: Variant, model: ModelInfo | undefined): boolean {
  if (variant.knobs.quantization) return /fp8/i.test(variant.knobs.quantization);
  if (model) return model.weightDtype === 'fp8';
  return /fp8/i.test(variant.model);
}

export function preflight(variant: Variant, host: HostInfo, model?: ModelInfo): PreflightResult {
  const gpu = host.gpus[0];
  const ccNum = gpu?.computeCap !== undefined ? Number(gpu.computeCap) : NaN;
  const k = variant.knobs;
  const input: PreflightInput = {
    variant,
    engine: variant.engine,
    knobs: k,
    host,
    gpu,
    cc: Number.isFinite(ccNum) ? ccNum : undefined,
    model,
    tp: k.tp ?? 1,
    pp: k.pp ?? 1,
    dp: k.dp ?? 1,
    ep: k.ep ?? 1,
    fp8Weights: fp8Weights(variant, model),
  };
  const warnings: string[] = [];
  if (!model) warnings.push(`model '${variant.model}' is unknown: head, MoE and memory checks skipped`);
  for (const rule of PREFLIGHT_RULES) {
    if (rule.engines && !rule.engines.includes(variant.engine)) continue;
    const out = rule.check(input);
    if (!out) continue;
    if ('warn' in out) warnings.push(out.warn);
    else return { ok: false, pruned: { kind: 'pruned', reason: out.prune, hint: out.hint }, rule: rule.id, warnings };
  }
  return { ok: true, warnings };
}
