// Put a random-weight GGUF together: layout (named architecture or another file's header),
// tokenizer keys from a vocabulary file, the label saying its outputs are meaningless, and the
// tensor data. Used by `servelab random-gguf` and by tests that need a model for llama-server.
import { UserError } from '../core/errors.js';
import { ggufProblems } from './check.js';
import { GGML_TYPES, plain } from './format.js';
import { archLayout, labelRandom, likeLayout, Normal, safeTokens, tensorData, type ArchShape } from './random.js';
import { readGgufHeader } from './read.js';
import { tokenizerMetadata } from './vocab.js';
import { writeGguf } from './write.js';

const F32_ID = GGML_TYPES.F32![0];
const F16_ID = GGML_TYPES.F16![0];

export interface RandomGgufOptions {
  out: string;
  /** A vocabulary GGUF (tokenizer.* keys); with `like`, absent means the like file's own vocabulary. */
  vocab?: string;
  like?: string;
  shape?: ArchShape;
  seed?: number;
}

export interface RandomGgufResult {
  out: string;
  bytes: number;
  tensors: number;
  params: number;
  vocabSize: number;
  /** Tokens the model can emit (normal tokens that are complete UTF-8 on their own). */
  emittable: number;
  arch: string;
  /** With `like`: tensors of another type (quantized, BF16) written as F16 instead. */
  converted: number;
}

export function makeRandomGguf(o: RandomGgufOptions): RandomGgufResult {
  const like = o.like ? readGgufHeader(o.like) : undefined;
  const vocabFile = o.vocab ?? o.like;
  if (!vocabFile) throw new UserError('random-gguf: give --vocab FILE (a GGUF with tokenizer.* keys)');
  const vocab = vocabFile === o.like && like ? like : readGgufHeader(vocabFile);
  const tok = tokenizerMetadata(vocab);
  const tokens = plain(tok.get('tokenizer.ggml.tokens'));
  if (!Array.isArray(tokens)) throw new UserError(`${vocabFile}: no vocabulary in it (tokenizer.ggml.tokens is missing)`);
  const vocabSize = tokens.length;
  let layout: ReturnType<typeof archLayout>;
  try {
    layout = like ? likeLayout(like) : archLayout(o.shape ?? { arch: 'qwen3', hidden: 256, layers: 4 }, vocabSize);
  } catch (e) {
    throw new UserError(`random-gguf: ${(e as Error).message}`);
  }
  for (const t of layout.tensors) if (t.name === 'token_embd.weight' || t.name === 'output.weight') t.dims[1] = vocabSize;
  for (const [k, v] of tok) layout.metadata.set(k, v);
  const arch = String(plain(layout.metadata.get('general.architecture')) ?? '?');
  labelRandom(layout.metadata, like ? `shapes of ${arch} from ${o.like!.split('/').at(-1)}` : arch);
  let safe: { safe: boolean[]; count: number };
  try {
    safe = safeTokens(vocab, vocabSize);
  } catch (e) {
    throw new UserError(`${vocabFile}: ${(e as Error).message}`);
  }
  const rng = new Normal(o.seed ?? 1);
  const problems = ggufProblems(layout.metadata, layout.tensors);
  if (problems.length) throw new UserError(`random-gguf: ${problems[0]}; nothing written (a shape llama-server would refuse)`);
  const bytes = writeGguf(o.out, layout, (t) => tensorData(t, rng, safe.safe));
  const params = layout.tensors.reduce((a, t) => a + t.dims.reduce((x, y) => x * y, 1), 0);
  const converted = like ? like.tensors.filter((t) => t.type !== F32_ID && t.type !== F16_ID).length : 0;
  return { out: o.out, bytes, tensors: layout.tensors.length, params, vocabSize, emittable: safe.count, arch, converted };
}
