// What the planner reads from a GGUF file for llama.cpp: the shapes that size its KV cache and
// the weights' type, taken from the header alone (readGgufHeader, src/gguf/read.ts), once
// per file. KV bytes per token = 2 (K and V) x layers x KV heads x head dim x bytes per element of
// the cache type; the element sizes are ggml's block sizes (GGML_TYPES, ggml's GGML_QUANT_SIZES):
// q8_0 stores 32 values in 34 bytes, q4_0 in 18.
import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { GGML_TYPES, ggmlTypeName, plain, tensorBytes } from '../../gguf/format.js';
import { readGgufHeader } from '../../gguf/read.js';
import type { PlanSession } from '../kit/plan-types.js';

export interface GgufFacts {
  file: string;
  arch: string;
  layers: number;
  kvHeads: number;
  keyDim: number;
  valueDim: number;
  /** The context the model was trained for (llama-server's -c 0 takes it). */
  ctxTrain?: number;
  /** The type holding most weight bytes ('F16', 'Q8_0', ...). */
  weightType: string;
  /** Bytes of the tensor data (what is loaded). */
  weightBytes: number;
}

const cache = new Map<string, GgufFacts | null>();

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The facts of a GGUF file, or null when it does not exist (yet: a file llama-quantize will make) or is not readable. */
export function ggufFacts(file: string): GgufFacts | null {
  const key = existsSync(file) ? `${file}|${statSync(file).mtimeMs}` : file;
  if (cache.has(key)) return cache.get(key)!;
  let facts: GgufFacts | null = null;
  try {
    const h = readGgufHeader(file);
    const meta = (k: string) => plain(h.metadata.get(k));
    const arch = String(meta('general.architecture') ?? 'unknown');
    const a = (k: string) => num(meta(`${arch}.${k}`));
    const heads = a('attention.head_count') ?? 1;
    const embd = a('embedding_length') ?? 0;
    const keyDim = a('attention.key_length') ?? (heads ? embd / heads : 0);
    const bytesByType = new Map<string, number>();
    let weightBytes = 0;
    for (const t of h.tensors) {
      const b = tensorBytes(t);
      weightBytes += b;
      const name = ggmlTypeName(t.type);
      bytesByType.set(name, (bytesByType.get(name) ?? 0) + b);
    }
    const weightType = [...bytesByType].sort((x, y) => y[1] - x[1])[0]?.[0] ?? 'unknown';
    facts = {
      file,
      arch,
      layers: a('block_count') ?? 0,
      kvHeads: a('attention.head_count_kv') ?? heads,
      keyDim,
      valueDim: a('attention.value_length') ?? keyDim,
      ...(a('context_length') ? { ctxTrain: a('context_length')! } : {}),
      weightType,
      weightBytes,
    };
  } catch {
    facts = null;
  }
  cache.set(key, facts);
  return facts;
}

/** Bytes per element of a KV-cache type ('f16', 'q8_0', ...); undefined for a type ggml does not list. */
export function cacheTypeBytes(type: string): number | undefined {
  const row = GGML_TYPES[type.toUpperCase()];
  return row ? row[2] / row[1] : undefined;
}

/** KV-cache bytes per token of context for K and V cache types. */
export function kvBytesPerToken(f: GgufFacts, kType = 'f16', vType = kType): number {
  return f.layers * f.kvHeads * (f.keyDim * (cacheTypeBytes(kType) ?? 2) + f.valueDim * (cacheTypeBytes(vType) ?? 2));
}

/** Weight types llama-quantize makes from a 16/32-bit file when only that file is given. */
export const QUANTIZE_TYPES = ['Q8_0', 'Q4_0'] as const;

export const FULL_PRECISION = new Set(['F16', 'BF16', 'F32']);

export interface QuantizedGguf {
  type: string;
  /** Where llama-quantize writes it: <run folder>/gguf/<stem>-<TYPE>.gguf. */
  path: string;
  from: string;
}

/**
 * The files the quantization stage makes with llama-quantize: one per QUANTIZE_TYPES, when the
 * session has a single GGUF and its weights are F16, BF16 or F32. One owner: the planner names
 * them, the runner makes them before the launch (quantize.ts).
 */
export function quantizedGgufs(gguf: readonly string[], runDir: string): QuantizedGguf[] {
  if (gguf.length !== 1) return [];
  const from = gguf[0]!;
  const f = ggufFacts(from);
  if (!f || !FULL_PRECISION.has(f.weightType)) return [];
  const stem = basename(from)
    .replace(/\.gguf$/i, '')
    .replace(/[-_.](f16|bf16|f32)$/i, '');
  return QUANTIZE_TYPES.map((type) => ({ type, path: join(runDir, 'gguf', `${stem}-${type}.gguf`), from }));
}

/** A short name for a GGUF in tables: its file name and weight type. */
export function ggufLabel(file: string): string {
  const f = ggufFacts(file);
  return f ? `${basename(file)} (${f.weightType})` : basename(file);
}

/** Every GGUF a llama.cpp session's launches may load: the given files, those llama-quantize makes, the draft model. */
export function sessionGgufs(c: PlanSession): { path: string; type?: string }[] {
  const given = c.llamacpp?.gguf.length ? c.llamacpp.gguf : [c.model];
  const made = c.stages.includes('quantization') ? quantizedGgufs(given, c.runDir ?? `${c.runsDir}/RUN`) : [];
  const draft = c.llamacpp?.draftModel && c.stages.includes('speculative') ? [c.llamacpp.draftModel] : [];
  return [...given, ...draft].map((path) => ({ path })).concat(made.map((q) => ({ path: q.path, type: q.type })));
}
