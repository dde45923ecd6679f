import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWorkload } from '../../../src/bench/datasets/datasets.js';
import { countWords, findTokenizerFile, loadTokenizer, resolveTokenCounter } from '../../../src/bench/datasets/tokenizer.js';
import { UserError } from '../../../src/core/errors.js';

const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/bench/${name}`, import.meta.url));
const SHAREGPT = fixture('sharegpt-small.json');
const TOKENIZER = fixture('tiny-tokenizer/tokenizer.json');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'servelab-ds-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const idOf = (prompt: string) => /^p(\d+)_0\b/.exec(prompt)?.[1];

describe('ShareGPT (approximate counts: one word = one token)', () => {
  // Expected orders computed with CPython's random.seed/shuffle/choices on the same file,
  // following vLLM's ShareGPTDataset (filter, shuffle, walk, is_valid_sequence, oversample).
  it('same filter, seeded shuffle and output-length rule as vLLM', async () => {
    const w = await loadWorkload({ dataset: 'sharegpt', path: SHAREGPT, numPrompts: 5 });
    expect(w.tokenCounts).toBe('approximate');
    expect(w.requests.map((r) => [idOf(r.prompt), r.promptLen, r.expectedOutputLen])).toEqual([
      ['1', 8, 6],
      ['11', 38, 26],
      ['10', 35, 24],
      ['6', 23, 16],
      ['12', 41, 28],
    ]);
  });
  it('oversamples with random.choices when too few pass', async () => {
    const w = await loadWorkload({ dataset: 'sharegpt', path: SHAREGPT, numPrompts: 14 });
    expect(w.requests.map((r) => idOf(r.prompt))).toEqual(['1', '11', '10', '6', '12', '2', '4', '8', '0', '13', '0', '8', '12', '10']);
    const no = await loadWorkload({ dataset: 'sharegpt', path: SHAREGPT, numPrompts: 14, noOversample: true });
    expect(no.requests).toHaveLength(10);
  });
  it('--sharegpt-output-len fixes the output and skips the min-output check', async () => {
    const w = await loadWorkload({ dataset: 'sharegpt', path: SHAREGPT, numPrompts: 5, sharegptOutputLen: 7, seed: 3 });
    expect(w.requests.map((r) => [idOf(r.prompt), r.promptLen, r.expectedOutputLen])).toEqual([
      ['13', 44, 7],
      ['12', 41, 7],
      ['1', 8, 7],
      ['7', 26, 7],
      ['0', 5, 7],
    ]);
  });
  it('clear errors for a missing file and the wrong shape', async () => {
    await expect(loadWorkload({ dataset: 'sharegpt', path: path.join(tmp, 'nope.json'), numPrompts: 1 })).rejects.toThrow(
      /^dataset file not found: .*nope\.json \(check --dataset-path\)$/,
    );
    await expect(loadWorkload({ dataset: 'sharegpt', numPrompts: 1 })).rejects.toThrow(/needs --dataset-path/);
    const cases: [string, RegExp][] = [
      ['{"conversations": []}', /:1: expected a JSON array of/],
      ['[\n{"conversations": [{"value": "a b c d"}, {"value": 5}]}\n]', /:2: entry 0: turns need a string "value"/],
      ['[{"conversations": "x"}]', /:1: entry 0: "conversations" is not an array/],
      ['[{"id": 1}, {"conversations": [{"value": "a"}]}]', /no entry has two or more conversation turns/],
      ['[\n  {"conversations": [}\n]', /:2: invalid JSON in entry 0/],
      ['[{"conversations": []}', /unexpected end of file/],
      ['[1, 2]', /:1: entry 0 is not an object/],
    ];
    for (const [i, [text, re]] of cases.entries()) {
      const f = path.join(tmp, `bad${i}.json`);
      writeFileSync(f, text);
      const p = loadWorkload({ dataset: 'sharegpt', path: f, numPrompts: 1 });
      await expect(p, text).rejects.toThrow(UserError);
      await expect(p, text).rejects.toThrow(re);
    }
  });
});

describe('random dataset', () => {
  it('approximate: exact word counts, shared prefix, seeded', async () => {
    const spec = { dataset: 'random' as const, numPrompts: 20, randomInputLen: 50, randomOutputLen: 10, randomPrefixLen: 5, seed: 7 };
    const w = await loadWorkload(spec);
    expect(w.tokenCounts).toBe('approximate');
    for (const r of w.requests) {
      expect(r.promptLen).toBe(55);
      expect(countWords(r.prompt)).toBe(55);
      expect(r.expectedOutputLen).toBe(10);
    }
    const prefix = w.requests[0]!.prompt.split(' ').slice(0, 5).join(' ');
    expect(w.requests.every((r) => r.prompt.startsWith(prefix + ' '))).toBe(true);
    expect(new Set(w.requests.map((r) => r.prompt)).size).toBe(20);
    expect((await loadWorkload(spec)).requests).toEqual(w.requests);
    expect((await loadWorkload({ ...spec, seed: 8 })).requests).not.toEqual(w.requests);
  });
  it('range ratio bounds the lengths as vLLM does', async () => {
    const w = await loadWorkload({ dataset: 'random', numPrompts: 200, randomInputLen: 100, randomOutputLen: 20, randomRangeRatio: 0.5 });
    const ins = w.requests.map((r) => r.promptLen);
    const outs = w.requests.map((r) => r.expectedOutputLen);
    expect(Math.min(...ins)).toBeGreaterThanOrEqual(50);
    expect(Math.max(...ins)).toBeLessThanOrEqual(150);
    expect(Math.min(...outs)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...outs)).toBeLessThanOrEqual(30);
    expect(new Set(ins).size).toBeGreaterThan(20);
    await expect(loadWorkload({ dataset: 'random', numPrompts: 1, randomRangeRatio: 1 })).rejects.toThrow(
      /--random-range-ratio must be in \[0, 1\)/,
    );
    await expect(loadWorkload({ dataset: 'random', numPrompts: 0 })).rejects.toThrow(/--num-prompts must be a positive integer/);
  });
});

describe('exact token counts with a tokenizer.json', () => {
  it('loads the hand-written BPE tokenizer and counts like HF (BOS included)', async () => {
    const t = await loadTokenizer(TOKENIZER);
    expect(t.mode).toBe('exact');
    expect(t.numSpecial).toBe(1);
    // ▁the ▁cat ▁s at ▁on ▁the ▁ m a t  -> hand-tokenized with the fixture's merges
    expect(t.encode!('the cat sat on the mat', false)).toHaveLength(10);
    expect(t.count('the cat sat on the mat')).toBe(11);
  });
  it('ShareGPT lengths are the tokenizer lengths', async () => {
    const t = await loadTokenizer(TOKENIZER);
    const w = await loadWorkload({ dataset: 'sharegpt', path: SHAREGPT, numPrompts: 4, tokenizer: TOKENIZER });
    expect(w.tokenCounts).toBe('exact');
    expect(w.tokenizerPath).toBe(TOKENIZER);
    for (const r of w.requests) {
      expect(r.promptLen).toBe(t.count(r.prompt, true));
      expect(r.promptLen).toBeGreaterThan(countWords(r.prompt)); // sub-word pieces + BOS
    }
  });
  it('random prompts re-encode to exactly promptLen tokens (<= target minus BOS)', async () => {
    const t = await loadTokenizer(TOKENIZER);
    const w = await loadWorkload({
      dataset: 'random',
      numPrompts: 10,
      randomInputLen: 40,
      randomOutputLen: 5,
      tokenizer: path.dirname(TOKENIZER),
    });
    for (const r of w.requests) {
      expect(t.count(r.prompt, false)).toBe(r.promptLen);
      expect(r.promptLen).toBeLessThanOrEqual(39);
      expect(r.promptLen).toBeGreaterThan(20);
    }
  });
  it("finds a model's tokenizer in the Hugging Face cache", async () => {
    const hub = path.join(tmp, 'hub');
    const snap = path.join(hub, 'models--acme--tiny', 'snapshots', 'abc123');
    mkdirSync(snap, { recursive: true });
    mkdirSync(path.join(hub, 'models--acme--tiny', 'refs'), { recursive: true });
    writeFileSync(path.join(hub, 'models--acme--tiny', 'refs', 'main'), 'abc123');
    cpSync(TOKENIZER, path.join(snap, 'tokenizer.json'));
    expect(findTokenizerFile('acme/tiny', true, { HF_HUB_CACHE: hub })).toBe(path.join(snap, 'tokenizer.json'));
    expect(findTokenizerFile('acme/other', true, { HF_HUB_CACHE: hub })).toBeUndefined();
    expect(findTokenizerFile('acme/tiny', true, { HF_HOME: tmp })).toBe(path.join(snap, 'tokenizer.json'));
    const old = process.env.HF_HUB_CACHE;
    process.env.HF_HUB_CACHE = hub;
    try {
      expect((await resolveTokenCounter(undefined, 'acme/tiny')).mode).toBe('exact');
      expect((await resolveTokenCounter(undefined, 'acme/unknown')).mode).toBe('approximate');
    } finally {
      if (old === undefined) delete process.env.HF_HUB_CACHE;
      else process.env.HF_HUB_CACHE = old;
    }
    await expect(resolveTokenCounter('./missing/tokenizer.json', undefined)).rejects.toThrow(/tokenizer not found: \.\/missing/);
  });
});
