// `servelab random-gguf --out FILE [--like FILE.gguf | --arch qwen3 --hidden N --layers N]
// [--vocab FILE] [--seed N]`: write a GGUF with random weights for llama.cpp, to measure it
// without a download (llama.cpp's counterpart of vLLM's `--load-format dummy`). Its outputs are
// meaningless and its speeds are real; the command, the file's general.name and its
// general.description all say so. The default vocabulary is GPT-2's, from the source clone that
// `servelab engines build llamacpp` keeps (models/ggml-vocab-gpt-2.gguf).
import fs from 'node:fs';
import { UserError } from '../core/errors.js';
import { optionalNumberArg } from '../core/number-arg.js';
import { llamaCppPaths } from '../host/llamacpp-build.js';
import { makeRandomGguf } from '../gguf/make.js';
import { RANDOM_NOTE, type ArchShape } from '../gguf/random.js';
import { parseRandomGgufArgs, RANDOM_GGUF_USAGE } from '../cli/random-gguf-args.js';

function defaultVocab(): string {
  const file = llamaCppPaths().vocab('gpt-2');
  if (!fs.existsSync(file)) {
    throw new UserError(
      'random-gguf: no vocabulary file: give --vocab FILE.gguf, or run `servelab engines build llamacpp` (its source clone has models/ggml-vocab-*.gguf)',
    );
  }
  return file;
}

export default async function main(argv: string[]): Promise<number> {
  const parsed = parseRandomGgufArgs(argv);
  if (!parsed) return 0;
  const v = parsed.values;
  if (!v.out) throw new UserError(`random-gguf: --out FILE is required; ${RANDOM_GGUF_USAGE.split('\n')[0]}`);
  if (v.like && (v.arch || v.hidden || v.layers))
    throw new UserError('random-gguf: give --like FILE or --arch/--hidden/--layers, not both');
  if (v.arch && v.arch !== 'qwen3' && v.arch !== 'llama')
    throw new UserError(`random-gguf: --arch must be qwen3 or llama, got '${v.arch}'`);
  const hidden = optionalNumberArg('--hidden', v.hidden, { integer: true, min: 64 }) ?? 256;
  if (hidden % 64) throw new UserError(`--hidden must be a multiple of 64 (the head size), got '${hidden}'`);
  const layers = optionalNumberArg('--layers', v.layers, { integer: true, min: 1 }) ?? 4;
  const seed = optionalNumberArg('--seed', v.seed, { integer: true, min: 0 });
  const shape: ArchShape = { arch: (v.arch as ArchShape['arch'] | undefined) ?? 'qwen3', hidden, layers };
  const vocab = v.vocab ?? (v.like ? undefined : defaultVocab());
  const r = makeRandomGguf({
    out: v.out,
    ...(vocab ? { vocab } : {}),
    ...(v.like ? { like: v.like } : { shape }),
    ...(seed !== undefined ? { seed } : {}),
  });
  const mb = (r.bytes / 2 ** 20).toFixed(1);
  process.stderr.write(
    `servelab: ${RANDOM_NOTE}\n` +
      `  ${r.arch}, ${(r.params / 1e6).toFixed(1)}M parameters in ${r.tensors} tensors, ${mb} MiB\n` +
      `  vocabulary of ${r.vocabSize} tokens, ${r.emittable} of them emittable (special tokens and incomplete UTF-8 pieces are never sampled)\n` +
      (r.converted
        ? `  ${r.converted} quantized or BF16 tensors of the source are F16 here: its speeds are F16's (llama-quantize makes other types)\n`
        : ''),
  );
  process.stdout.write(`${r.out}\n`);
  return 0;
}
