// Model metadata: what the estimate needs from a Hugging Face config.json (dense, MoE and
// DeepSeek-style MLA), plus built-in copies of the public config values of common models so the
// simulator and the planner work offline.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../core/errors.js';
import { BUILTIN_CONFIGS, FP8_CHECKPOINTS } from './model-configs.js';

export type WeightDtype = 'bf16' | 'fp8' | 'int4';

/**
 * How an FP8 checkpoint scales its weights, which decides the GEMM kernel and its speed:
 * 'block' = one scale per 128x128 weight block (config.json quantization_config.weight_block_size;
 * ModelOpt quant_algo FP8_BLOCK_SCALES / FP8_PB_WO; compressed-tensors strategy "block"): DeepGEMM
 * or CUTLASS/Triton block-scaled kernels that rescale inside the K loop. 'tensor' = one scale per
 * tensor (or per output channel / token), applied once in the GEMM epilogue: ModelOpt quant_algo
 * FP8 ("FP8: per-tensor weight scale", vLLM docs/features/quantization/modelopt.md) and
 * compressed-tensors tensor/channel strategies. Undefined: the checkpoint's file was not read.
 */
export type Fp8Scaling = 'tensor' | 'block';

export interface MoeInfo {
  numExperts: number;
  expertsPerTok: number;
  moeIntermediateSize: number;
  /** Shared experts per MoE layer, each of moeIntermediateSize (or sharedIntermediateSize). */
  sharedExperts: number;
  sharedIntermediateSize: number;
  /** Leading layers that use a dense MLP (DeepSeek/GLM first_k_dense_replace). */
  denseLayers: number;
}

export interface MlaInfo {
  kvLoraRank: number;
  qLoraRank: number | null;
  qkRopeHeadDim: number;
  qkNopeHeadDim: number;
  vHeadDim: number;
}

export interface ModelInfo {
  /** HF id or local path as given. */
  id: string;
  architecture: string;
  hiddenSize: number;
  numLayers: number;
  numHeads: number;
  numKvHeads: number;
  headDim: number;
  /** Dense MLP width (dense models, and the dense layers of MoE models). */
  intermediateSize: number;
  vocabSize: number;
  maxPositionEmbeddings: number;
  tieEmbeddings: boolean;
  /** Dtype of the checkpoint's linear weights. */
  weightDtype: WeightDtype;
  /** FP8 checkpoints: how the weights are scaled, from the checkpoint's files; undefined when not read. */
  fp8Scaling?: Fp8Scaling;
  moe?: MoeInfo;
  mla?: MlaInfo;
  /** Multi-token-prediction layers shipped with the checkpoint (DeepSeek/GLM MTP). */
  mtpLayers: number;
}

type Json = Record<string, unknown>;
const num = (j: Json, k: string): number | undefined => (typeof j[k] === 'number' ? (j[k] as number) : undefined);

function need(j: Json, k: string): number {
  const v = num(j, k);
  if (v === undefined) throw new Error(`config.json has no numeric '${k}'`);
  return v;
}

function weightDtypeOf(j: Json): WeightDtype {
  const q = j.quantization_config as Json | undefined;
  if (!q) return 'bf16';
  const method = String(q.quant_method ?? '').toLowerCase();
  const bits = num(q, 'bits');
  if (method === 'fp8' || method === 'fbgemm_fp8' || method === 'modelopt') return 'fp8';
  if (bits !== undefined && bits <= 4) return 'int4';
  if (method === 'compressed-tensors') {
    // compressed-tensors FP8 checkpoints describe 8-bit float weights in their config groups.
    const text = JSON.stringify(q).toLowerCase();
    if (text.includes('"num_bits":4')) return 'int4';
    return 'fp8';
  }
  if (method === 'awq' || method === 'gptq') return 'int4';
  return 'bf16';
}

/**
 * FP8 scaling from a quantization description: config.json's quantization_config, or the
 * "quantization" object of a ModelOpt hf_quant_config.json (quant_algo). Undefined when the text
 * says nothing about it.
 */
export function fp8ScalingOf(q: Json | undefined): Fp8Scaling | undefined {
  if (!q) return undefined;
  if (Array.isArray(q.weight_block_size)) return 'block';
  const algo = String(q.quant_algo ?? '').toUpperCase();
  // ModelOpt names: FP8 (per-tensor), FP8_PER_CHANNEL_PER_TOKEN, FP8_BLOCK_SCALES, FP8_PB_WO (vLLM modelopt.md).
  if (algo === 'FP8' || algo === 'FP8_PER_CHANNEL_PER_TOKEN') return 'tensor';
  if (algo === 'FP8_BLOCK_SCALES' || algo === 'FP8_PB_WO') return 'block';
  if (String(q.quant_method ?? '').toLowerCase() === 'compressed-tensors') {
    const text = JSON.stringify(q).toLowerCase();
    if (!text.includes('"type":"float"')) return undefined;
    return text.includes('"strategy":"block"') ? 'block' : /"strategy":"(tensor|channel)"/.test(text) ? 'tensor' : undefined;
  }
  return undefined;
}

/** Read the fields the estimate needs from a Hugging Face config.json object. */
export function parseHfConfig(json: unknown, id = 'local'): ModelInfo {
  if (!json || typeof json !== 'object') throw new Error('config.json is not a JSON object');
  // Multimodal wrappers keep the language model under text_config.
  const outer = json as Json;
  const j = (outer.text_config && typeof outer.text_config === 'object' ? { ...outer, ...(outer.text_config as Json) } : outer) as Json;
  const hiddenSize = need(j, 'hidden_size');
  const numHeads = need(j, 'num_attention_heads');
  const numLayers = need(j, 'num_hidden_layers');
  const numKvHeads = num(j, 'num_key_value_heads') ?? numHeads;
  const headDim = num(j, 'head_dim') ?? Math.floor(hiddenSize / numHeads);
  const numExperts = num(j, 'n_routed_experts') ?? num(j, 'num_experts') ?? num(j, 'num_local_experts');
  let moe: MoeInfo | undefined;
  if (numExperts && numExperts > 1) {
    const moeInter = num(j, 'moe_intermediate_size') ?? need(j, 'intermediate_size');
    const sharedInter = num(j, 'shared_expert_intermediate_size');
    moe = {
      numExperts,
      expertsPerTok: num(j, 'num_experts_per_tok') ?? num(j, 'num_experts_per_token') ?? 2,
      moeIntermediateSize: moeInter,
      sharedExperts: num(j, 'n_shared_experts') ?? (sharedInter ? 1 : 0),
      sharedIntermediateSize: sharedInter ?? moeInter,
      denseLayers: num(j, 'first_k_dense_replace') ?? 0,
    };
  }
  const kvLoraRank = num(j, 'kv_lora_rank');
  const mla: MlaInfo | undefined = kvLoraRank
    ? {
        kvLoraRank,
        qLoraRank: num(j, 'q_lora_rank') ?? null,
        qkRopeHeadDim: need(j, 'qk_rope_head_dim'),
        qkNopeHeadDim: need(j, 'qk_nope_head_dim'),
        vHeadDim: need(j, 'v_head_dim'),
      }
    : undefined;
  const arch = Array.isArray(j.architectures) ? String(j.architectures[0]) : String(j.model_type ?? 'unknown');
  const weightDtype = weightDtypeOf(j);
  const fp8Scaling = weightDtype === 'fp8' ? fp8ScalingOf(j.quantization_config as Json | undefined) : undefined;
  return {
    id,
    architecture: arch,
    hiddenSize,
    numLayers,
    numHeads,
    numKvHeads,
    headDim,
    intermediateSize: num(j, 'intermediate_size') ?? 4 * hiddenSize,
    vocabSize: need(j, 'vocab_size'),
    maxPositionEmbeddings: num(j, 'max_position_embeddings') ?? num(j, 'seq_length') ?? 4096,
    tieEmbeddings: j.tie_word_embeddings === true,
    weightDtype,
    ...(fp8Scaling ? { fp8Scaling } : {}),
    moe,
    mla,
    mtpLayers: num(j, 'num_nextn_predict_layers') ?? 0,
  };
}

/** Ids of the built-in models (without -FP8 variants). */
export function builtinModelIds(): string[] {
  return Object.keys(BUILTIN_CONFIGS);
}

function builtin(id: string): ModelInfo | undefined {
  const key = Object.keys(BUILTIN_CONFIGS).find((k) => k.toLowerCase() === id.toLowerCase());
  return key ? parseHfConfig(BUILTIN_CONFIGS[key], id) : undefined;
}

/** A checkpoint's JSON file; a broken one is the user's to fix, so it is a one-line error (exit 2), not a crash. */
function readJsonFile(path: string): Json {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Json;
  } catch (e) {
    throw new UserError(
      `${path} is not valid JSON (${(e as Error).message}): fix or replace the checkpoint's file, or pass a Hugging Face model id`,
    );
  }
}

/** A user's config.json: a missing field is theirs to fix, a one-line error naming the file. */
function parseUserConfig(j: Json, path: string, id: string): ModelInfo {
  try {
    return parseHfConfig(j, id);
  } catch (e) {
    throw new UserError(
      `${path}: ${(e as Error).message.replace(/^config\.json /, '')}; servelab needs a Hugging Face config.json (or pass a model id it knows)`,
    );
  }
}

/**
 * A ModelOpt checkpoint folder describes its quantization in hf_quant_config.json ("quantization":
 * {"quant_algo": ..., "kv_cache_quant_algo": ...}) rather than in config.json.
 */
function withModelOptQuant(m: ModelInfo, folder: string): ModelInfo {
  const p = join(folder, 'hf_quant_config.json');
  if (!existsSync(p)) return m;
  const q = (readJsonFile(p) as Json).quantization as Json | undefined;
  const scaling = fp8ScalingOf(q);
  return scaling ? { ...m, weightDtype: 'fp8', fp8Scaling: scaling } : m;
}

/** A published FP8 checkpoint of a built-in model (model-configs.ts FP8_CHECKPOINTS). */
function fp8Checkpoint(id: string): ModelInfo | undefined {
  const key = Object.keys(FP8_CHECKPOINTS).find((k) => k.toLowerCase() === id.toLowerCase());
  if (!key) return undefined;
  const c = FP8_CHECKPOINTS[key]!;
  const base = builtin(c.base);
  if (!base) return undefined;
  return { ...base, id, weightDtype: 'fp8', ...(c.scaling ? { fp8Scaling: c.scaling } : {}) };
}

/**
 * Model metadata for an HF id or a local folder holding config.json. A known FP8 checkpoint
 * (FP8_CHECKPOINTS) carries its scaling; any other '-FP8' id of a built-in model resolves to its
 * base with fp8 weights of unknown scaling. Undefined when nothing is known.
 */
export function getModel(idOrPath: string): ModelInfo | undefined {
  const id = idOrPath.trim();
  if (!id) return undefined;
  const cfgPath = join(id, 'config.json');
  if (existsSync(cfgPath) && statSync(cfgPath).isFile()) {
    return withModelOptQuant(parseUserConfig(readJsonFile(cfgPath), cfgPath, id), id);
  }
  const direct = builtin(id) ?? fp8Checkpoint(id);
  if (direct) return direct;
  const fp8 = /[-_]FP8(-dynamic)?$/i.exec(id);
  if (fp8) {
    const base = builtin(id.slice(0, fp8.index));
    if (base) return { ...base, id, weightDtype: 'fp8' };
  }
  return undefined;
}
