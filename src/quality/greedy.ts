// The quality check's requests: the same prompts, greedy (temperature 0) with a fixed max_tokens,
// to any OpenAI-compatible base URL, through the benchmark client (src/bench), so what is sent is
// what `servelab bench` sends. Also the user's eval file (JSONL of prompt and expected answer),
// and which variants change numerics against the baseline (the ones worth checking).
import { readFileSync } from 'node:fs';
import { runBenchmark } from '../bench/load/run.js';
import { UserError } from '../core/errors.js';
import type { Variant } from '../core/variant.js';
import { countWords } from '../bench/datasets/tokenizer.js';

/** Output tokens each quality prompt asks for: enough to see drift, short enough to cost little. */
export const QUALITY_MAX_TOKENS = 64;

export interface GreedyTarget {
  baseUrl: string;
  /** The model name to send. */
  model: string;
  backend?: 'openai-chat' | 'openai';
  signal?: AbortSignal;
}

/** Each prompt's greedy output, in prompt order; a request that failed reads as ''. */
export async function greedyOutputs(
  t: GreedyTarget,
  prompts: readonly string[],
  maxTokens = QUALITY_MAX_TOKENS,
): Promise<{ texts: string[]; failed: number }> {
  const res = await runBenchmark({
    baseUrl: t.baseUrl,
    model: t.model,
    ...(t.backend ? { backend: t.backend } : {}),
    requests: prompts.map((prompt) => ({ prompt, promptLen: countWords(prompt), expectedOutputLen: maxTokens })),
    temperature: 0,
    maxConcurrency: 8,
    ...(t.signal ? { signal: t.signal } : {}),
  });
  return { texts: res.outputs.map((o) => (o.success ? o.generatedText : '')), failed: res.outputs.filter((o) => !o.success).length };
}

export interface EvalItem {
  prompt: string;
  expected: string;
}

/** `--quality-eval FILE`: one JSON object a line, {"prompt": ..., "expected": ...}. */
export function readQualityEval(file: string): EvalItem[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UserError(`--quality-eval ${file}: no such file`);
  }
  const items: EvalItem[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    let o: unknown;
    try {
      o = JSON.parse(line);
    } catch {
      throw new UserError(`--quality-eval ${file}:${i + 1}: not JSON; each line is {"prompt": "...", "expected": "..."}`);
    }
    const { prompt, expected } = (o ?? {}) as Record<string, unknown>;
    if (typeof prompt !== 'string' || typeof expected !== 'string')
      throw new UserError(`--quality-eval ${file}:${i + 1}: needs a string "prompt" and a string "expected"`);
    items.push({ prompt, expected });
  }
  if (!items.length) throw new UserError(`--quality-eval ${file}: no items`);
  return items;
}

const fp8 = (s: string | undefined) => /fp8|int8|int4|awq|gptq|nvfp4|mxfp4/i.test(s ?? '');

/** How `v` changes numerics against `base` (FP8 weights or activations, KV dtype, speculative decoding, attention backend); empty when it does not. */
export function numericsChanges(base: Pick<Variant, 'model' | 'knobs'>, v: Pick<Variant, 'model' | 'knobs'>): string[] {
  const out: string[] = [];
  const b = base.knobs;
  const k = v.knobs;
  // Another checkpoint (an FP8 one; for llama.cpp another GGUF, i.e. another quantization) changes the weights too.
  if ((k.quantization ?? '') !== (b.quantization ?? '') || (fp8(v.model) && !fp8(base.model)) || v.model !== base.model)
    out.push(`weights ${k.quantization ?? v.model}`);
  const kv = (x: string | undefined) => (x && x !== 'auto' ? x : 'auto');
  if (kv(k.kvCacheDtype) !== kv(b.kvCacheDtype)) out.push(`KV cache ${kv(k.kvCacheDtype)}`);
  if (kv(k.vCacheDtype) !== kv(b.vCacheDtype)) out.push(`V cache ${kv(k.vCacheDtype)}`);
  if (k.speculative && k.speculative.method !== b.speculative?.method) out.push(`speculative ${k.speculative.method}`);
  if ((k.attentionBackend ?? '') !== (b.attentionBackend ?? '')) out.push(`attention ${k.attentionBackend ?? 'default'}`);
  return out;
}

/** What the agreement measures when the weights are random (dummy weights, a random-weight model): drift, not quality. */
export function randomWeightsNote(randomWeights: boolean): string | null {
  return randomWeights ? 'the model has random weights: agreement here measures numerical drift against the baseline, not quality' : null;
}
