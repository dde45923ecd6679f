// Workloads as vLLM's datasets.py builds them: ShareGPT (first turn, seeded CPython shuffle,
// is_valid_sequence filter, oversampling), random (lengths around a target, shared prefix),
// custom (a JSONL of prompts, custom-dataset.ts), prefix_repetition (prefix-repetition.ts), and a
// Mooncake-format trace with arrival times (mooncake-trace.ts). Every workload's possible prefix
// reuse is marked from its prompts (reuse.ts).
import { log } from '../../core/logger.js';
import { UserError } from '../../core/errors.js';
import { PyRandom } from './rng.js';
import { readShareGpt } from './sharegpt-file.js';
import { sampleCustom } from './custom-dataset.js';
import { resolveTokenCounter, type TokenCounter } from './tokenizer.js';
import { samplePrefixRepetition } from './prefix-repetition.js';
import { sampleTrace } from './mooncake-trace.js';
import { markReuse } from './reuse.js';
import { APPROX_RUN_IDS, approxRunWord } from './synthetic-text.js';
import type { SampledRequest, Workload } from '../types.js';
import type { DatasetName } from '../../core/dataset-names.js';

export interface WorkloadSpec {
  dataset: DatasetName;
  /** ShareGPT JSON file, or the custom JSONL (--dataset-path). */
  path?: string;
  /** --num-prompts (vLLM default 1000). */
  numPrompts: number;
  /** --random-input-len (1024), --random-output-len (128), --random-range-ratio (0), --random-prefix-len (0). */
  randomInputLen?: number;
  randomOutputLen?: number;
  randomRangeRatio?: number;
  randomPrefixLen?: number;
  /** --seed (0). */
  seed?: number;
  /** --tokenizer: tokenizer.json, a folder holding one, or a model id in the HF cache. */
  tokenizer?: string;
  /** --model: its HF-cache tokenizer is used when --tokenizer is not given. */
  model?: string;
  /** --sharegpt-output-len: fixed output length instead of the reference completion's. */
  sharegptOutputLen?: number;
  /** --custom-output-len: fixed output tokens for the custom dataset; -1 = each line's output_tokens (vLLM default 256). */
  customOutputLen?: number;
  /** --no-oversample */
  noOversample?: boolean;
  /** --prefix-repetition-prefix-len, -suffix-len, -num-prefixes, -output-len (vLLM: 256, 256, 10, 128). */
  prefixRepetitionPrefixLen?: number;
  prefixRepetitionSuffixLen?: number;
  prefixRepetitionNumPrefixes?: number;
  prefixRepetitionOutputLen?: number;
  /** --disable-shuffle (vLLM): prefix_repetition keeps its prefixes in order. */
  disableShuffle?: boolean;
  /** mooncake_trace: tokens per hash id (--trace-block-size, 512) and replay speed-up (--trace-speedup, 1). */
  traceBlockSize?: number;
  traceSpeedup?: number;
}

let warnedApprox = false;

/** Say once per process that counts are approximate. */
export function warnApproximate(lookedFor?: string): void {
  if (warnedApprox) return;
  warnedApprox = true;
  const where = lookedFor ? ` for '${lookedFor}' (not a file, and not in the Hugging Face cache)` : '';
  log.warn(
    `no tokenizer.json found${where}: token counts are approximate (one word = one token) and totals come from ` +
      'the server usage reports. Give --tokenizer PATH, or cache the model with huggingface-cli, for exact counts.',
  );
}

export async function loadWorkload(spec: WorkloadSpec): Promise<Workload> {
  if (!Number.isInteger(spec.numPrompts) || spec.numPrompts < 1) {
    throw new UserError(`--num-prompts must be a positive integer, got ${spec.numPrompts}`);
  }
  const counter = await resolveTokenCounter(spec.tokenizer, spec.model);
  if (counter.mode === 'approximate') warnApproximate(spec.tokenizer ?? spec.model);
  const requests = markReuse(sampleDataset(spec, counter), counter);
  return {
    requests,
    tokenCounts: counter.mode,
    datasetName: spec.dataset,
    ...(counter.path ? { tokenizerPath: counter.path } : {}),
  };
}

function sampleDataset(spec: WorkloadSpec, counter: TokenCounter): SampledRequest[] {
  switch (spec.dataset) {
    case 'sharegpt':
      return sampleShareGpt(spec, counter);
    case 'custom':
      return sampleCustom(
        {
          path: spec.path,
          numPrompts: spec.numPrompts,
          ...(spec.customOutputLen !== undefined ? { customOutputLen: spec.customOutputLen } : {}),
          ...(spec.noOversample ? { noOversample: true } : {}),
        },
        counter,
      );
    case 'prefix_repetition':
      return samplePrefixRepetition(
        {
          numPrompts: spec.numPrompts,
          ...(spec.prefixRepetitionPrefixLen !== undefined ? { prefixLen: spec.prefixRepetitionPrefixLen } : {}),
          ...(spec.prefixRepetitionSuffixLen !== undefined ? { suffixLen: spec.prefixRepetitionSuffixLen } : {}),
          ...(spec.prefixRepetitionNumPrefixes !== undefined ? { numPrefixes: spec.prefixRepetitionNumPrefixes } : {}),
          ...(spec.prefixRepetitionOutputLen !== undefined ? { outputLen: spec.prefixRepetitionOutputLen } : {}),
          ...(spec.seed !== undefined ? { seed: spec.seed } : {}),
          ...(spec.disableShuffle ? { disableShuffle: true } : {}),
        },
        counter,
      );
    case 'mooncake_trace':
      return sampleTrace(
        {
          ...(spec.path !== undefined ? { path: spec.path } : {}),
          numPrompts: spec.numPrompts,
          ...(spec.traceBlockSize !== undefined ? { blockSize: spec.traceBlockSize } : {}),
          ...(spec.traceSpeedup !== undefined ? { speedup: spec.traceSpeedup } : {}),
          ...(spec.seed !== undefined ? { seed: spec.seed } : {}),
        },
        counter,
      );
    case 'random':
      return sampleRandom(spec, counter);
    default:
      throw new UserError(`the ${spec.dataset} workload is not a list of requests: it has its own driver`);
  }
}

/** vLLM is_valid_sequence. */
export function isValidSequence(promptLen: number, outputLen: number, skipMinOutputLenCheck: boolean): boolean {
  const minLen = 4;
  return !(promptLen < minLen || (!skipMinOutputLenCheck && outputLen < minLen) || promptLen > 1024 || promptLen + outputLen > 2048);
}

function sampleShareGpt(spec: WorkloadSpec, counter: TokenCounter): SampledRequest[] {
  if (!spec.path) throw new UserError('the sharegpt dataset needs --dataset-path FILE (a ShareGPT JSON file)');
  const seed = spec.seed ?? 0;
  const data = readShareGpt(spec.path);
  const rng = new PyRandom(seed);
  rng.shuffle(data);
  const fixed = spec.sharegptOutputLen;
  const out: SampledRequest[] = [];
  for (const entry of data) {
    if (out.length >= spec.numPrompts) break;
    const promptLen = counter.count(entry.prompt, true);
    const outputLen = fixed ?? counter.count(entry.completion, true);
    if (!isValidSequence(promptLen, outputLen, fixed !== undefined)) continue;
    out.push({ prompt: entry.prompt, promptLen, expectedOutputLen: outputLen });
  }
  if (out.length === 0)
    throw new UserError(`${spec.path}: no conversation passes vLLM's length filter (prompt 4..1024 tokens, total <= 2048)`);
  if (out.length < spec.numPrompts && !spec.noOversample) {
    const again = new PyRandom(seed);
    out.push(...again.choices(out, spec.numPrompts - out.length).map((r) => ({ ...r })));
  }
  return out;
}

function sampleRandom(spec: WorkloadSpec, counter: TokenCounter): SampledRequest[] {
  const n = spec.numPrompts;
  const inputLen = spec.randomInputLen ?? 1024;
  const outputLen = spec.randomOutputLen ?? 128;
  const r = spec.randomRangeRatio ?? 0;
  const prefixLen = spec.randomPrefixLen ?? 0;
  if (!(r >= 0 && r < 1)) throw new UserError(`--random-range-ratio must be in [0, 1), got ${r}`);
  if (!(inputLen >= 0) || !(outputLen >= 1) || !(prefixLen >= 0)) {
    throw new UserError('--random-input-len and --random-prefix-len must be >= 0 and --random-output-len >= 1');
  }
  const rng = new PyRandom(spec.seed ?? 0);
  const realIn = Math.max(0, inputLen - counter.numSpecial);
  const inLo = Math.floor(realIn * (1 - r));
  const inHi = Math.ceil(realIn * (1 + r));
  const outLo = Math.max(1, Math.floor(outputLen * (1 - r)));
  const outHi = Math.ceil(outputLen * (1 + r));
  const exact = counter.mode === 'exact' && counter.encode && counter.decode && counter.sampleIds?.length;
  const vocab = exact ? counter.sampleIds!.length : APPROX_RUN_IDS;
  const inLens = Array.from({ length: n }, () => rng.intBetween(inLo, inHi));
  const outLens = Array.from({ length: n }, () => rng.intBetween(outLo, outHi));
  const offsets = Array.from({ length: n }, () => rng.randbelow(vocab));
  const prefix = Array.from({ length: prefixLen }, () => rng.randbelow(vocab));
  const out: SampledRequest[] = [];
  for (let i = 0; i < n; i++) {
    const ids = prefix.slice();
    for (let k = 0; k < inLens[i]!; k++) ids.push((offsets[i]! + i + k) % vocab);
    if (exact) {
      // Decode, re-encode and truncate, as vLLM does, so promptLen is what the tokenizer sees.
      const text = counter.decode!(ids.map((k) => counter.sampleIds![k]!));
      const reEncoded = counter.encode!(text, false).slice(0, prefixLen + inLens[i]!);
      out.push({ prompt: counter.decode!(reEncoded), promptLen: reEncoded.length, expectedOutputLen: outLens[i]! });
    } else {
      out.push({ prompt: ids.map(approxRunWord).join(' '), promptLen: ids.length, expectedOutputLen: outLens[i]! });
    }
  }
  return out;
}
