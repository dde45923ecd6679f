// vLLM's prefix_repetition workload (vllm/benchmarks/datasets/prefix_repetition.py and the flags
// in vllm/benchmarks/datasets/arg_utils.py, vllm-project/vllm@237145ea): num_prefixes random
// prefixes of prefix_len tokens, each followed by num_prompts // num_prefixes random suffixes of
// suffix_len tokens, output_len tokens asked of each, then shuffled (unless --disable-shuffle).
import { UserError } from '../../core/errors.js';
import { PyRandom } from './rng.js';
import { idsToText, textLen, textVocab } from './synthetic-text.js';
import type { TokenCounter } from './tokenizer.js';
import type { SampledRequest } from '../types.js';

export interface PrefixRepetitionSpec {
  numPrompts: number;
  /** vLLM defaults (arg_utils.py): prefix 256, suffix 256, 10 prefixes, output 128. */
  prefixLen?: number;
  suffixLen?: number;
  numPrefixes?: number;
  outputLen?: number;
  seed?: number;
  disableShuffle?: boolean;
}

export const PREFIX_REPETITION_DEFAULTS = { prefixLen: 256, suffixLen: 256, numPrefixes: 10, outputLen: 128 } as const;

function checkInt(name: string, v: number, min: number): void {
  if (!Number.isInteger(v) || v < min) throw new UserError(`--prefix-repetition-${name} must be an integer >= ${min}, got ${v}`);
}

/** The spec with vLLM's defaults filled, or a one-line UserError (also run before anything loads). */
export function checkPrefixRepetition(
  spec: PrefixRepetitionSpec,
): Required<Omit<PrefixRepetitionSpec, 'seed' | 'disableShuffle'>> & { perPrefix: number } {
  const d = PREFIX_REPETITION_DEFAULTS;
  const prefixLen = spec.prefixLen ?? d.prefixLen;
  const suffixLen = spec.suffixLen ?? d.suffixLen;
  const numPrefixes = spec.numPrefixes ?? d.numPrefixes;
  const outputLen = spec.outputLen ?? d.outputLen;
  checkInt('prefix-len', prefixLen, 0);
  checkInt('suffix-len', suffixLen, 0);
  checkInt('num-prefixes', numPrefixes, 1);
  checkInt('output-len', outputLen, 1);
  if (prefixLen + suffixLen < 1) throw new UserError('--prefix-repetition-prefix-len plus -suffix-len must be at least 1 token');
  // vLLM raises when there are fewer prompts than prefixes, and sends (n // prefixes) * prefixes.
  const perPrefix = Math.floor(spec.numPrompts / numPrefixes);
  if (perPrefix === 0)
    throw new UserError(`--num-prompts (${spec.numPrompts}) must be at least --prefix-repetition-num-prefixes (${numPrefixes})`);
  return { numPrompts: spec.numPrompts, prefixLen, suffixLen, numPrefixes, outputLen, perPrefix };
}

export function samplePrefixRepetition(spec: PrefixRepetitionSpec, counter: TokenCounter): SampledRequest[] {
  const { prefixLen, suffixLen, numPrefixes, outputLen, perPrefix } = checkPrefixRepetition(spec);
  const rng = new PyRandom(spec.seed ?? 0);
  const vocab = textVocab(counter);
  const draw = (n: number) => Array.from({ length: n }, () => rng.randbelow(vocab));
  const out: SampledRequest[] = [];
  for (let p = 0; p < numPrefixes; p++) {
    const prefix = draw(prefixLen);
    for (let j = 0; j < perPrefix; j++) {
      const ids = prefix.concat(draw(suffixLen));
      const prompt = idsToText(ids, counter);
      out.push({ prompt, promptLen: textLen(prompt, ids, counter), expectedOutputLen: outputLen });
    }
  }
  if (!spec.disableShuffle) rng.shuffle(out);
  return out;
}
