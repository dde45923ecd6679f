// `servelab random-gguf`'s flags and usage: the strict dialect's table (flags.ts).
import { parseCommandArgs } from './command-args.js';

export const RANDOM_GGUF_USAGE = [
  'usage: servelab random-gguf --out FILE [--like FILE.gguf | --arch qwen3|llama --hidden N --layers N] [--vocab FILE] [--seed N]',
  '  Writes a GGUF with random weights: its outputs are meaningless, its speeds are real.',
  '  --like FILE     take the tensor names and shapes (and the vocabulary) of another GGUF',
  '  --arch NAME     qwen3 (default) or llama; --hidden (default 256, a multiple of 64: hidden/64 heads), --layers (default 4)',
  '                  KV heads: half the heads when their number is even, one per head when it is odd',
  '  --vocab FILE    a GGUF with tokenizer.* keys (default: ggml-vocab-gpt-2.gguf of `servelab engines build llamacpp`)',
].join('\n');

export const RANDOM_GGUF_FLAGS = {
  out: { kind: 'string' },
  like: { kind: 'string' },
  vocab: { kind: 'string' },
  arch: { kind: 'string' },
  hidden: { kind: 'string' },
  layers: { kind: 'string' },
  seed: { kind: 'string' },
} as const;

/** random-gguf's flags, or null when --help was given (the usage is already printed). */
export function parseRandomGgufArgs(argv: string[]) {
  return parseCommandArgs(argv, RANDOM_GGUF_FLAGS, RANDOM_GGUF_USAGE);
}
