// Which tokens of a GGUF vocabulary a random-weight model may emit: only normal tokens whose
// text is complete UTF-8 on its own. A completion built from such tokens can never end in half
// a character, which llama-server aborts ("The model produced output that does not match the
// expected Content-only format", see docs in reference/llamacpp.md and unslothai/llama.cpp#202),
// and never contains special tokens. Token types: gguf-py/gguf/constants.py TokenType; the
// byte-level BPE alphabet: gguf-py/gguf/vocab.py bytes_to_unicode (llama.cpp 80fb11a).
import { plain, type GgufHeader, type GgufValue } from './format.js';

const TOKEN_NORMAL = 1;

/** bytes_to_unicode inverted: the BPE alphabet's code point -> the byte it stands for. */
function byteDecoder(): Map<number, number> {
  const bs: number[] = [];
  const add = (a: number, b: number) => {
    for (let i = a; i <= b; i++) bs.push(i);
  };
  add(0x21, 0x7e);
  add(0xa1, 0xac);
  add(0xae, 0xff);
  const cs = [...bs];
  let n = 0;
  for (let b = 0; b < 256; b++) {
    if (!bs.includes(b)) {
      bs.push(b);
      cs.push(256 + n++);
    }
  }
  return new Map(cs.map((c, i) => [c, bs[i]!]));
}

const STRICT = new TextDecoder('utf-8', { fatal: true });

/** Bytes of a byte-level BPE token, or undefined when a character is outside the alphabet. */
function bpeBytes(text: string, dec: Map<number, number>): Uint8Array | undefined {
  const out: number[] = [];
  for (const ch of text) {
    const b = dec.get(ch.codePointAt(0)!);
    if (b === undefined) return undefined;
    out.push(b);
  }
  return Uint8Array.from(out);
}

function completeUtf8(bytes: Uint8Array): boolean {
  try {
    STRICT.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

export interface VocabSafety {
  model: string;
  size: number;
  /** safe[i]: token i may be emitted. */
  safe: boolean[];
}

/** The tokenizer keys of a vocabulary file (everything under `tokenizer.`). */
export function tokenizerMetadata(h: GgufHeader): Map<string, GgufValue> {
  return new Map([...h.metadata].filter(([k]) => k.startsWith('tokenizer.')));
}

export function vocabSafety(h: GgufHeader): VocabSafety {
  const tokens = plain(h.metadata.get('tokenizer.ggml.tokens')) as string[] | undefined;
  if (!Array.isArray(tokens) || !tokens.length) throw new Error('GGUF: no tokenizer.ggml.tokens');
  const types = plain(h.metadata.get('tokenizer.ggml.token_type')) as number[] | undefined;
  const model = String(plain(h.metadata.get('tokenizer.ggml.model')) ?? 'llama');
  const dec = model === 'gpt2' ? byteDecoder() : undefined;
  const safe = tokens.map((text, i) => {
    if ((types?.[i] ?? TOKEN_NORMAL) !== TOKEN_NORMAL || text.length === 0) return false;
    if (dec) {
      const bytes = bpeBytes(text, dec);
      return bytes !== undefined && completeUtf8(bytes);
    }
    // Other tokenizers store the text itself; a lone surrogate or U+FFFD marks a broken piece.
    return !text.includes('\uFFFD') && completeUtf8(Buffer.from(text, 'utf8'));
  });
  return { model, size: tokens.length, safe };
}
