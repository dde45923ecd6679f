// A GGUF's byte-level BPE vocabulary as a Hugging Face tokenizer.json object, so the benchmark
// client counts and sizes prompts with the tokenizer llama-server itself uses (the GGUF is the
// only tokenizer file a llama.cpp user has). Byte-level BPE only (tokenizer.ggml.model "gpt2",
// which covers GPT-2, Llama 3, Qwen2/3 vocabularies); the pre-tokenizer regex is llama.cpp's for
// the file's tokenizer.ggml.pre (src/llama-vocab.cpp at 80fb11a, llm_tokenizer_bpe regex_exprs).
import { plain, type GgufHeader } from './format.js';

/** llama.cpp's split regex for each pre-tokenizer type servelab knows (src/llama-vocab.cpp@80fb11a). */
const PRE_REGEX: Readonly<Record<string, string>> = {
  'gpt-2': "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)",
  qwen2:
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| ?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+",
};

const TOKEN_NORMAL = 1;

/** tokenizer.json for the GGUF's vocabulary; an Error saying why when it is not one servelab can express. */
export function hfTokenizerJson(h: GgufHeader): Record<string, unknown> {
  const model = plain(h.metadata.get('tokenizer.ggml.model'));
  const pre = String(plain(h.metadata.get('tokenizer.ggml.pre')) ?? 'gpt-2');
  if (model !== 'gpt2') throw new Error(`its tokenizer is '${String(model)}', not byte-level BPE ('gpt2')`);
  const regex = PRE_REGEX[pre];
  if (!regex) throw new Error(`its pre-tokenizer '${pre}' is not one servelab knows (${Object.keys(PRE_REGEX).join(', ')})`);
  const tokens = plain(h.metadata.get('tokenizer.ggml.tokens')) as string[];
  const types = (plain(h.metadata.get('tokenizer.ggml.token_type')) as number[] | undefined) ?? [];
  const merges = (plain(h.metadata.get('tokenizer.ggml.merges')) as string[] | undefined) ?? [];
  const vocab: Record<string, number> = {};
  tokens.forEach((t, i) => (vocab[t] = i));
  const added = tokens.flatMap((t, i) =>
    (types[i] ?? TOKEN_NORMAL) === TOKEN_NORMAL
      ? []
      : [{ id: i, content: t, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
  );
  const bos = plain(h.metadata.get('tokenizer.ggml.bos_token_id'));
  const addBos = plain(h.metadata.get('tokenizer.ggml.add_bos_token')) === true && typeof bos === 'number';
  const byteLevel = { type: 'ByteLevel', add_prefix_space: false, trim_offsets: false, use_regex: false };
  return {
    version: '1.0',
    added_tokens: added,
    normalizer: null,
    pre_tokenizer: {
      type: 'Sequence',
      pretokenizers: [{ type: 'Split', pattern: { Regex: regex }, behavior: 'Isolated', invert: false }, byteLevel],
    },
    post_processor: addBos
      ? {
          type: 'TemplateProcessing',
          single: [{ SpecialToken: { id: tokens[bos as number], type_id: 0 } }, { Sequence: { id: 'A', type_id: 0 } }],
          pair: [],
          special_tokens: { [tokens[bos as number]!]: { id: tokens[bos as number], ids: [bos], tokens: [tokens[bos as number]] } },
        }
      : null,
    decoder: byteLevel,
    model: {
      type: 'BPE',
      dropout: null,
      unk_token: null,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      vocab,
      merges,
    },
  };
}
