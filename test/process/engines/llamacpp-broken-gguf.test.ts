// llama-server on broken GGUF files, for real: each model-loading error is named by its class with
// llama.cpp's own line quoted, never "the server exited with code 1". The files are a good
// random-weight GGUF with one thing broken in its bytes, as a bad conversion or download leaves them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readGgufHeader } from '../../../src/gguf/read.js';
import { Normal, tensorData } from '../../../src/gguf/random.js';
import { writeGguf } from '../../../src/gguf/write.js';
import type { ServerHandle } from '../../../src/host/server-handle.js';
import { LLAMA_SKIP, startLlamaServer, testGguf } from '../../helpers/llamacpp-fixture.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-broken-gguf-'));
const handles: ServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop({ graceMs: 2000 })));
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

/** The test model with the first occurrence of `from` overwritten by `to` (same length). */
function patched(name: string, from: Buffer, to: Buffer): string {
  const b = fs.readFileSync(testGguf());
  const i = b.indexOf(from);
  if (i < 0 || from.length !== to.length) throw new Error(`${name}: nothing to patch`);
  to.copy(b, i);
  const file = path.join(root, `${name}.gguf`);
  fs.writeFileSync(file, b);
  return file;
}

const u32le = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
};
const kvKey = Buffer.from('qwen3.attention.head_count_kv');

const BROKEN: Record<string, () => string> = {
  // The header says 1 KV head while the K/V matrices hold 2 (the test model is qwen3 256: 4 heads, 2 KV).
  'wrong tensor shape': () => patched('shape', Buffer.concat([kvKey, u32le(4), u32le(2)]), Buffer.concat([kvKey, u32le(4), u32le(1)])),
  'unknown architecture': () =>
    patched('arch', Buffer.from('\u0005\0\0\0\0\0\0\0qwen3', 'latin1'), Buffer.from('\u0005\0\0\0\0\0\0\0qwenx', 'latin1')),
  'missing tensor': () => patched('tensor', Buffer.from('blk.1.ffn_up.weight'), Buffer.from('blk.1.ffn_XX.weight')),
  'missing header key': () => patched('key', Buffer.from('qwen3.block_count'), Buffer.from('qwen3.block_kount')),
  'truncated file': () => {
    const file = path.join(root, 'truncated.gguf');
    fs.writeFileSync(file, fs.readFileSync(testGguf()).subarray(0, 3_000_000));
    return file;
  },
  'one tensor too many': () => {
    const h = readGgufHeader(testGguf());
    const tensors = [
      ...h.tensors.map((t) => ({ name: t.name, dims: [...t.dims], type: t.type })),
      { name: 'blk.0.extra.weight', dims: [256], type: 0 },
    ];
    const file = path.join(root, 'extra.gguf');
    const rng = new Normal(1);
    writeGguf(file, { metadata: h.metadata, tensors }, (t) => tensorData(t, rng, []));
    return file;
  },
};

describe.skipIf(LLAMA_SKIP !== undefined)(`llama-server on broken GGUFs${LLAMA_SKIP ? ` (skipped: ${LLAMA_SKIP})` : ''}`, () => {
  it.each([
    [
      'wrong tensor shape',
      'bad-model',
      /blk\.0\.attn_k\.weight should be 256x64 by the header, the file holds 256x128/,
      /check_tensor_dims: tensor 'blk\.0\.attn_k\.weight' has wrong shape/,
    ],
    ['unknown architecture', 'unsupported', /does not know the model architecture 'qwenx'/, /unknown model architecture: 'qwenx'/],
    [
      'missing tensor',
      'bad-model',
      /lacks the tensor blk\.1\.ffn_up\.weight/,
      /check_tensor_dims: tensor 'blk\.1\.ffn_up\.weight' not found/,
    ],
    ['missing header key', 'bad-model', /lacks the key qwen3\.block_count/, /key not found in model: qwen3\.block_count/],
    ['truncated file', 'model-not-found', /truncated or corrupt/, /data is not within the file bounds/],
    [
      'one tensor too many',
      'bad-model',
      /could not load the model: done_getting_tensors: wrong number of tensors/,
      /wrong number of tensors/,
    ],
  ] as const)(
    '%s: named, with the line quoted',
    async (name, kind, reason, line) => {
      const { h, ready } = await startLlamaServer(
        { threads: 1, ctxSize: 1024 },
        path.join(root, name.replace(/\W+/g, '-')),
        BROKEN[name]!(),
      );
      handles.push(h);
      expect(ready.ready).toBe(false);
      if (ready.ready) return;
      expect(ready.failure.kind, JSON.stringify(ready.failure)).toBe(kind);
      expect(ready.failure.reason).toMatch(reason);
      expect(
        ready.failure.evidence?.some((l) => line.test(l)),
        JSON.stringify(ready.failure.evidence),
      ).toBe(true);
    },
    120_000,
  );

  it('--spec-type draft-mtp goes without -md, and a model without MTP layers is named', async () => {
    const { h, ready } = await startLlamaServer({ threads: 1, ctxSize: 1024, speculative: { method: 'mtp' } }, path.join(root, 'mtp'));
    handles.push(h);
    expect(ready.ready).toBe(false);
    if (ready.ready) return;
    expect(ready.failure.kind, JSON.stringify(ready.failure)).toBe('spec-failed');
    expect(ready.failure.reason).toMatch(/has no MTP layers/);
    expect(ready.failure.evidence?.some((l) => /model doesn't contain MTP layers/.test(l))).toBe(true);
  }, 120_000);
});
