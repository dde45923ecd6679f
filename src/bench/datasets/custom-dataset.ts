// vLLM's `--dataset-name custom`: a JSONL file, one {"prompt": ..., "output_tokens": N} per line
// (vllm/benchmarks/datasets.py, CustomDataset and get_samples). vLLM builds it without a seed, so
// its shuffle always uses random.seed(0) (BenchmarkDataset.DEFAULT_SEED), whatever --seed says;
// the first --num-prompts lines of the shuffled file are taken, then oversampled with
// random.choices. `--custom-output-len` (vLLM default 256) fixes the output length; -1 uses each
// line's `output_tokens`. With --skip-chat-template the prompt is counted as written (servelab
// never applies a chat template client-side, so it always counts that way).
import { readFileSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { PyRandom } from './rng.js';
import type { TokenCounter } from './tokenizer.js';
import type { SampledRequest } from '../types.js';

export const CUSTOM_OUTPUT_LEN_DEFAULT = 256;

export interface CustomSpec {
  path?: string;
  numPrompts: number;
  /**
   * --custom-output-len: fixed output tokens; -1 = each line's output_tokens. The CLI passes vLLM's
   * default 256; a library caller that passes nothing gets each line's output_tokens when the line
   * has one (the tuner's ShareGPT-shaped file), else 256.
   */
  customOutputLen?: number;
  noOversample?: boolean;
}

interface Line {
  prompt: string;
  outputTokens?: number;
}

function readLines(path: string): Line[] {
  if (!path.endsWith('.jsonl'))
    throw new UserError(`${path}: the custom dataset must be a .jsonl file (one {"prompt": ...} per line), as vLLM requires`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UserError(`${path}: cannot read the custom dataset (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const out: Line[] = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let o: unknown;
    try {
      o = JSON.parse(raw);
    } catch {
      throw new UserError(`${path}:${i + 1}: not a JSON object`);
    }
    const rec = o as { prompt?: unknown; output_tokens?: unknown };
    if (typeof rec.prompt !== 'string') throw new UserError(`${path}:${i + 1}: each line needs a string "prompt"`);
    const ot = rec.output_tokens;
    if (ot !== undefined && !(Number.isInteger(ot) && (ot as number) > 0))
      throw new UserError(`${path}:${i + 1}: "output_tokens" must be a positive whole number`);
    out.push({ prompt: rec.prompt, ...(ot !== undefined ? { outputTokens: ot as number } : {}) });
  });
  if (out.length === 0) throw new UserError(`${path}: the custom dataset has no lines`);
  return out;
}

export function sampleCustom(spec: CustomSpec, counter: TokenCounter): SampledRequest[] {
  if (!spec.path) throw new UserError('the custom dataset needs --dataset-path FILE.jsonl');
  const data = readLines(spec.path);
  new PyRandom(0).shuffle(data);
  const fixed = spec.customOutputLen;
  const out: SampledRequest[] = [];
  for (const [i, line] of data.entries()) {
    if (out.length >= spec.numPrompts) break;
    const outputLen = fixed === -1 ? line.outputTokens : fixed === undefined ? (line.outputTokens ?? CUSTOM_OUTPUT_LEN_DEFAULT) : fixed;
    if (outputLen === undefined)
      throw new UserError(`${spec.path}: line ${i + 1} of the shuffled file has no "output_tokens"; give --custom-output-len N`);
    out.push({ prompt: line.prompt, promptLen: counter.count(line.prompt, true), expectedOutputLen: outputLen });
  }
  if (out.length < spec.numPrompts && !spec.noOversample)
    out.push(...new PyRandom(0).choices(out, spec.numPrompts - out.length).map((r) => ({ ...r })));
  return out;
}
