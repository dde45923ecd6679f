// The GGUF writer refuses a header that disagrees with its tensors, and the random-weight layouts
// agree with themselves for every head count random-gguf can make (odd ones included: 5 heads used
// to give "2.5" KV heads, written as 2 in the header and 160 columns in the K matrix).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ggufProblems } from '../../../src/gguf/check.js';
import { plain, u32 } from '../../../src/gguf/format.js';
import { archLayout } from '../../../src/gguf/random.js';
import { writeGguf } from '../../../src/gguf/write.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-gguf-check-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('random layouts', () => {
  it('agree with themselves for every hidden size from 64 to 4096, both architectures', () => {
    for (const arch of ['qwen3', 'llama'] as const)
      for (let hidden = 64; hidden <= 4096; hidden += 64) {
        const { metadata, tensors } = archLayout({ arch, hidden, layers: 2 }, 100);
        expect(ggufProblems(metadata, tensors), `${arch} ${hidden}`).toEqual([]);
        const heads = plain(metadata.get(`${arch}.attention.head_count`)) as number;
        const kv = plain(metadata.get(`${arch}.attention.head_count_kv`)) as number;
        expect(Number.isInteger(kv) && heads % kv === 0, `${arch} ${hidden}: ${heads}/${kv}`).toBe(true);
      }
  });

  it('the shape of the report: 5 heads keep 5 KV heads, the K matrix 320 columns', () => {
    const { metadata, tensors } = archLayout({ arch: 'qwen3', hidden: 320, layers: 5 }, 100);
    expect(plain(metadata.get('qwen3.attention.head_count_kv'))).toBe(5);
    expect(tensors.find((t) => t.name === 'blk.0.attn_k.weight')!.dims).toEqual([320, 320]);
  });

  it('refuses KV heads that do not divide the heads', () => {
    expect(() => archLayout({ arch: 'llama', hidden: 384, layers: 1, kvHeads: 4 }, 100)).toThrow(
      '6 attention heads cannot be grouped over 4 KV heads',
    );
  });
});

describe('writeGguf', () => {
  it('writes nothing when the header disagrees with a tensor', () => {
    const { metadata, tensors } = archLayout({ arch: 'qwen3', hidden: 256, layers: 1 }, 100);
    metadata.set('qwen3.attention.head_count_kv', u32(1));
    const file = path.join(dir, 'bad.gguf');
    expect(() => writeGguf(file, { metadata, tensors }, () => Buffer.alloc(0))).toThrow(
      'blk.0.attn_k.weight is 256x128, the header makes it 256x64',
    );
    expect(fs.existsSync(file)).toBe(false);
  });

  it('writes nothing when an integer value is not an integer', () => {
    const { metadata, tensors } = archLayout({ arch: 'llama', hidden: 128, layers: 1 }, 100);
    metadata.set('llama.attention.head_count_kv', u32(2.5));
    expect(ggufProblems(metadata, tensors)).toContain('llama.attention.head_count_kv = 2.5 is not an integer of its type');
  });

  it('names a layer past the header block count', () => {
    const { metadata, tensors } = archLayout({ arch: 'llama', hidden: 128, layers: 2 }, 100);
    metadata.set('llama.block_count', u32(1));
    expect(ggufProblems(metadata, tensors).some((p) => p.startsWith('blk.1.attn_norm.weight lies past'))).toBe(true);
  });
});
