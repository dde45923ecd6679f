// The GGUF writer and reader, and the random-weight model's promise: no token that is not complete
// UTF-8 on its own (nor a special token) can win. Real files: the vocabulary of llama.cpp's source
// clone when present, else a small vocabulary written here.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GGML_TYPES, plain, str, u32, ValueType, type GgufValue } from '../../../src/gguf/format.js';
import { makeRandomGguf } from '../../../src/gguf/make.js';
import { toHalf } from '../../../src/gguf/random.js';
import { readGgufHeader } from '../../../src/gguf/read.js';
import { vocabSafety } from '../../../src/gguf/vocab.js';
import { writeGguf } from '../../../src/gguf/write.js';
import { llamaCppPaths } from '../../../src/host/llamacpp-build.js';
import { skipNote } from '../../helpers/skip.js';

const VOCAB_GPT2 = fs.existsSync(llamaCppPaths().vocab('gpt-2')) ? llamaCppPaths().vocab('gpt-2') : undefined;
const NO_VOCAB = 'no GPT-2 vocabulary: the llama.cpp source clone of `servelab engines build llamacpp` is missing';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-gguf-test-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// GPT-2 byte-level tokens: 'Ġ' is a space, 'Ã©' is "é" (0xC3 0xA9), 'Ã' alone is 0xC3 (half of it).
const TOKENS = ['<|endoftext|>', 'hello', 'Ġworld', 'Ã©', 'Ã', 'Ċ'];
const TYPES = [3, 1, 1, 1, 1, 1];

function vocabFile(): string {
  const file = path.join(dir, 'vocab.gguf');
  const meta = new Map<string, GgufValue>([
    ['general.architecture', str('gpt2')],
    ['tokenizer.ggml.model', str('gpt2')],
    ['tokenizer.ggml.tokens', { type: ValueType.ARRAY, elemType: ValueType.STRING, value: TOKENS }],
    ['tokenizer.ggml.token_type', { type: ValueType.ARRAY, elemType: ValueType.INT32, value: TYPES }],
    ['tokenizer.ggml.eos_token_id', u32(0)],
  ]);
  writeGguf(file, { metadata: meta, tensors: [] }, () => Buffer.alloc(0));
  return file;
}

describe('GGUF v3 files', () => {
  it('reads back what it wrote: metadata of every kind, tensor shapes, aligned offsets', () => {
    const file = path.join(dir, 'round.gguf');
    const meta = new Map<string, GgufValue>([
      ['a.str', str('héllo')],
      ['a.u32', u32(7)],
      ['a.f32', { type: ValueType.FLOAT32, value: 0.5 }],
      ['a.bool', { type: ValueType.BOOL, value: true }],
      ['a.i64', { type: ValueType.INT64, value: -3n }],
      ['a.arr', { type: ValueType.ARRAY, elemType: ValueType.INT32, value: [1, -2, 3] }],
    ]);
    const tensors = [
      { name: 'x', dims: [3], type: GGML_TYPES.F32![0] },
      { name: 'y', dims: [4, 2], type: GGML_TYPES.F16![0] },
    ];
    writeGguf(file, { metadata: meta, tensors }, (t) => Buffer.alloc(t.name === 'x' ? 12 : 16, 1));
    const h = readGgufHeader(file);
    expect(h.version).toBe(3);
    expect(plain(h.metadata.get('a.str'))).toBe('héllo');
    expect(plain(h.metadata.get('a.u32'))).toBe(7);
    expect(plain(h.metadata.get('a.bool'))).toBe(true);
    expect(plain(h.metadata.get('a.i64'))).toBe(-3);
    expect(plain(h.metadata.get('a.arr'))).toEqual([1, -2, 3]);
    expect(h.tensors.map((t) => [t.name, t.dims, t.offset])).toEqual([
      ['x', [3], 0],
      ['y', [4, 2], 32],
    ]);
    expect(h.dataOffset! % 32).toBe(0);
    expect(fs.statSync(file).size).toBe(h.dataOffset! + 32 + 32);
  });

  it('refuses a file that is not GGUF in one line', () => {
    const file = path.join(dir, 'not.gguf');
    fs.writeFileSync(file, 'PK\x03\x04 definitely a zip');
    expect(() => readGgufHeader(file)).toThrow(/not a GGUF file \(it starts with "PK\\u0003\\u0004", not "GGUF"\)/);
  });

  it('converts floats to IEEE half precision', () => {
    expect(toHalf(1)).toBe(0x3c00);
    expect(toHalf(-8)).toBe(0xc800);
    expect(toHalf(0)).toBe(0);
    expect(toHalf(0.02)).toBe(0x251f);
  });
});

describe('which tokens a random model may emit', () => {
  it('only normal tokens whose bytes are complete UTF-8 on their own', () => {
    const v = vocabSafety(readGgufHeader(vocabFile()));
    expect(v.safe).toEqual([false, true, true, true, false, true]);
  });

  const title0 = `in the real GPT-2 vocabulary: the special token and the split-character pieces are out${skipNote(!VOCAB_GPT2 && NO_VOCAB)}`;
  it.skipIf(!VOCAB_GPT2)(title0, () => {
    const v = vocabSafety(readGgufHeader(VOCAB_GPT2!));
    expect(v.size).toBe(50257);
    expect(v.safe[50256]).toBe(false); // <|endoftext|>
    const out = v.safe.filter((s) => !s).length;
    expect(out).toBeGreaterThan(100);
    expect(out).toBeLessThan(1000);
  });

  it('the output weights put every other token far below the emittable ones', () => {
    const out = path.join(dir, 'model.gguf');
    const r = makeRandomGguf({ out, vocab: vocabFile(), shape: { arch: 'qwen3', hidden: 64, layers: 1 } });
    expect(r).toMatchObject({ vocabSize: 6, emittable: 4, arch: 'qwen3' });
    const h = readGgufHeader(out);
    expect(String(plain(h.metadata.get('general.name')))).toMatch(/outputs meaningless, speeds real/);
    expect(String(plain(h.metadata.get('general.description')))).toMatch(/meaningless/);
    const o = h.tensors.find((t) => t.name === 'output.weight')!;
    expect(o.dims).toEqual([64, 6]);
    const data = Buffer.alloc(64 * 6 * 2);
    const fd = fs.openSync(out, 'r');
    fs.readSync(fd, data, 0, data.length, h.dataOffset! + o.offset!);
    fs.closeSync(fd);
    const dim0 = [0, 1, 2, 3, 4, 5].map((row) => data.readUInt16LE(row * 64 * 2));
    expect(dim0).toEqual([0xc800, 0, 0, 0, 0xc800, 0]);
  });
});

describe('a GGUF vocabulary as a tokenizer', () => {
  const title1 = `encodes as GPT-2 does (ids of the real vocabulary) and decodes back${skipNote(!VOCAB_GPT2 && NO_VOCAB)}`;
  it.skipIf(!VOCAB_GPT2)(title1, async () => {
    const { loadTokenizer } = await import('../../../src/bench/datasets/tokenizer.js');
    const tok = await loadTokenizer(VOCAB_GPT2!);
    expect(tok.mode).toBe('exact');
    // llama-server 80fb11a /tokenize {"content":"hello world"} -> {"tokens":[31373,995]} on this vocabulary
    expect(tok.encode!('hello world', true)).toEqual([31373, 995]);
    expect(tok.decode!(tok.encode!("naïve café, it's 12345 東京 🎉\n\tend", true))).toBe("naïve café, it's 12345 東京 🎉\n\tend");
    expect(tok.numSpecial).toBe(0);
  });

  it('refuses a vocabulary that is not byte-level BPE, in one line', async () => {
    const { loadTokenizer } = await import('../../../src/bench/datasets/tokenizer.js');
    const file = path.join(dir, 'spm.gguf');
    writeGguf(
      file,
      {
        metadata: new Map([
          ['tokenizer.ggml.model', str('llama')],
          ['tokenizer.ggml.tokens', { type: ValueType.ARRAY, elemType: ValueType.STRING, value: ['a'] }],
        ]),
        tensors: [],
      },
      () => Buffer.alloc(0),
    );
    await expect(loadTokenizer(file)).rejects.toThrow(
      `cannot use ${file} as a tokenizer: its tokenizer is 'llama', not byte-level BPE ('gpt2')`,
    );
  });
});
