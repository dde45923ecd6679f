// The shared-prefix and trace workloads: vLLM's prefix_repetition, the Mooncake trace format
// with its hash blocks, sessions and timestamps, servelab's own trace generator, and the reuse
// each workload makes possible, computed from the prompts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWorkload } from '../../../src/bench/datasets/datasets.js';
import { generateTrace, traceJsonl } from '../../../src/bench/datasets/trace-gen.js';
import { markReuse, possibleReuse } from '../../../src/bench/datasets/reuse.js';
import { approximateCounter } from '../../../src/bench/datasets/tokenizer.js';
import { PyRandom } from '../../../src/bench/datasets/rng.js';
import { scheduleDelays } from '../../../src/bench/load/arrivals.js';
import { UserError } from '../../../src/core/errors.js';

const SAMPLE = fileURLToPath(new URL('../../fixtures/bench/mooncake-small.jsonl', import.meta.url));
const tmp = mkdtempSync(path.join(os.tmpdir(), 'servelab-wl-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = path.join(tmp, name);
  writeFileSync(p, text);
  return p;
};
const words = (s: string) => s.split(' ');

describe('prefix_repetition (vLLM)', () => {
  it("sends (n // prefixes) x prefixes requests of prefix + suffix tokens, vLLM's defaults 256/256/10/128", async () => {
    const w = await loadWorkload({ dataset: 'prefix_repetition', numPrompts: 25 });
    expect(w.requests).toHaveLength(20);
    for (const r of w.requests) {
      expect(r.promptLen).toBe(512);
      expect(r.expectedOutputLen).toBe(128);
    }
    const prefixes = new Set(w.requests.map((r) => words(r.prompt).slice(0, 256).join(' ')));
    expect(prefixes.size).toBe(10);
  });

  it('marks the reuse: the first request of each prefix has none, the others at least the prefix', async () => {
    const w = await loadWorkload({
      dataset: 'prefix_repetition',
      numPrompts: 12,
      prefixRepetitionPrefixLen: 40,
      prefixRepetitionSuffixLen: 10,
      prefixRepetitionNumPrefixes: 3,
      disableShuffle: true,
    });
    expect(w.requests.map((r) => r.reusableLen! >= 40)).toEqual([
      false,
      true,
      true,
      true,
      false,
      true,
      true,
      true,
      false,
      true,
      true,
      true,
    ]);
    expect(w.requests[0]!.reusableLen).toBe(0);
    // 9 of 12 requests reuse their 40-token prefix (a suffix word may also match by chance).
    expect(possibleReuse(w.requests)).toBeGreaterThanOrEqual((9 * 40) / (12 * 50));
    expect(possibleReuse(w.requests)).toBeLessThan((9 * 42) / (12 * 50));
  });

  it('is deterministic by seed, and another seed gives other prompts', async () => {
    const spec = { dataset: 'prefix_repetition' as const, numPrompts: 10, prefixRepetitionPrefixLen: 8, prefixRepetitionSuffixLen: 4 };
    const a = await loadWorkload({ ...spec, seed: 1 });
    const b = await loadWorkload({ ...spec, seed: 1 });
    const c = await loadWorkload({ ...spec, seed: 2 });
    expect(a.requests).toEqual(b.requests);
    expect(a.requests.map((r) => r.prompt)).not.toEqual(c.requests.map((r) => r.prompt));
  });

  it('refuses fewer prompts than prefixes, as vLLM does, with a one-line error', async () => {
    await expect(loadWorkload({ dataset: 'prefix_repetition', numPrompts: 3, prefixRepetitionNumPrefixes: 5 })).rejects.toThrow(
      new UserError('--num-prompts (3) must be at least --prefix-repetition-num-prefixes (5)'),
    );
  });
});

describe('possible reuse', () => {
  it('is the longest common prefix with any earlier prompt, as a brute force finds it', () => {
    const rng = new PyRandom(7);
    const base = Array.from({ length: 80 }, () => `w${rng.randbelow(5)}`);
    const prompts = Array.from({ length: 60 }, () => {
      const keep = rng.randbelow(80);
      return base.slice(0, keep).concat(Array.from({ length: rng.randbelow(40) + 1 }, () => `w${rng.randbelow(5)}`));
    });
    const reqs = markReuse(
      prompts.map((p) => ({ prompt: p.join(' '), promptLen: p.length, expectedOutputLen: 1 })),
      approximateCounter,
    );
    prompts.forEach((p, i) => {
      let best = 0;
      for (const q of prompts.slice(0, i)) {
        let k = 0;
        while (k < p.length && k < q.length && p[k] === q[k]) k++;
        best = Math.max(best, k);
      }
      // Exact below 16 tokens; beyond, a longer match with another prompt is missed by under 16.
      expect(reqs[i]!.reusableLen!).toBeLessThanOrEqual(best);
      expect(reqs[i]!.reusableLen!).toBeGreaterThan(best - 16);
      if (best < 16) expect(reqs[i]!.reusableLen).toBe(best);
    });
  });
});

describe('random --random-prefix-len: its shared prefix is reuse too', () => {
  it('every request after the first can reuse the prefix', async () => {
    const w = await loadWorkload({ dataset: 'random', numPrompts: 5, randomInputLen: 20, randomPrefixLen: 30 });
    expect(w.requests[0]!.reusableLen).toBe(0);
    for (const r of w.requests.slice(1)) expect(r.reusableLen).toBeGreaterThanOrEqual(30);
    const none = await loadWorkload({ dataset: 'random', numPrompts: 5, randomInputLen: 20 });
    expect(possibleReuse(none.requests)).toBeLessThan(0.1);
  });
});

describe('mooncake_trace', () => {
  it('equal hash ids are equal token blocks; lengths follow input_length; times follow timestamps', async () => {
    const p = file(
      'a.jsonl',
      [
        '{"timestamp": 1000, "input_length": 10, "output_length": 3, "hash_ids": [7, 8, 9]}',
        '{"timestamp": 1500, "input_length": 9, "output_length": 4, "hash_ids": [7, 8, 5]}',
        '{"timestamp": 3000, "input_length": 14, "output_length": 5, "hash_ids": [1]}',
      ].join('\n'),
    );
    const w = await loadWorkload({ dataset: 'mooncake_trace', path: p, numPrompts: 100, traceBlockSize: 4 });
    const [a, b, c] = w.requests.map((r) => words(r.prompt));
    expect([a!.length, b!.length, c!.length]).toEqual([10, 9, 14]);
    expect(b!.slice(0, 8)).toEqual(a!.slice(0, 8));
    expect(b![8]).toBeDefined();
    expect(w.requests.map((r) => r.reusableLen)).toEqual([0, 8, 0]);
    expect(w.requests.map((r) => r.expectedOutputLen)).toEqual([3, 4, 5]);
    expect(w.requests.map((r) => r.arrivalS)).toEqual([0, 0.5, 2]);
    expect(scheduleDelays(w.requests, Infinity)).toEqual([0, 0.5, 2]);
    const fast = await loadWorkload({ dataset: 'mooncake_trace', path: p, numPrompts: 2, traceBlockSize: 4, traceSpeedup: 2 });
    expect(fast.requests.map((r) => r.arrivalS)).toEqual([0, 0.25]);
  });

  it('a session entry leaves after the previous entry of its session, its delay later', async () => {
    const p = file(
      'b.jsonl',
      [
        '{"session_id": "x", "input_length": 4, "hash_ids": [1]}',
        '{"session_id": "y", "input_length": 4, "hash_ids": [2]}',
        '{"session_id": "x", "input_length": 8, "hash_ids": [1, 3], "delay": 250}',
      ].join('\n'),
    );
    const w = await loadWorkload({ dataset: 'mooncake_trace', path: p, numPrompts: 10, traceBlockSize: 4 });
    expect(w.requests[2]).toMatchObject({ after: 0, afterDelayS: 0.25, reusableLen: 4 });
    expect(w.requests[1]!.after).toBeUndefined();
  });

  it('the shipped sample replays with sessions and shared system prompts', async () => {
    const w = await loadWorkload({ dataset: 'mooncake_trace', path: SAMPLE, numPrompts: 1000, traceBlockSize: 64 });
    expect(w.requests).toHaveLength(16);
    expect(w.requests.filter((r) => r.after !== undefined).length).toBeGreaterThan(0);
    expect(possibleReuse(w.requests)).toBeGreaterThan(0.5);
  });

  it('bad lines are one-line user errors naming the line', async () => {
    const p = file('c.jsonl', '{"timestamp": 0, "input_length": 4}\n{"timestamp": 5, "output_length": 4}\n');
    await expect(loadWorkload({ dataset: 'mooncake_trace', path: p, numPrompts: 10 })).rejects.toThrow(
      /c\.jsonl:2: each line needs "input_length"/,
    );
    await expect(loadWorkload({ dataset: 'mooncake_trace', path: SAMPLE, numPrompts: 10, traceSpeedup: 0 })).rejects.toThrow(
      '--trace-speedup must be a number > 0, got 0',
    );
  });
});

describe('trace-gen', () => {
  it('is deterministic by seed; sessions grow their context over the shared system prompt', () => {
    const spec = { requests: 30, rate: 5, turns: 3, prefixes: 2, prefixBlocks: 2, blockSize: 16 };
    const a = traceJsonl(generateTrace({ ...spec, seed: 4 }));
    expect(traceJsonl(generateTrace({ ...spec, seed: 4 }))).toBe(a);
    expect(traceJsonl(generateTrace({ ...spec, seed: 5 }))).not.toBe(a);
    const lines = generateTrace({ ...spec, seed: 4 });
    expect(lines).toHaveLength(30);
    for (let i = 1; i < lines.length; i++) expect(lines[i]!.timestamp).toBeGreaterThanOrEqual(lines[i - 1]!.timestamp);
    const s0 = lines.filter((l) => l.session_id === lines[0]!.session_id);
    expect(s0.map((l) => l.hash_ids.length)).toEqual([3, 4, 5]);
    expect(s0[2]!.hash_ids.slice(0, 4)).toEqual(s0[1]!.hash_ids);
    expect(s0.every((l) => l.hash_ids[0]! < 4 && l.input_length === l.hash_ids.length * 16)).toBe(true);
  });

  it('reads back as a workload whose reuse is large', async () => {
    const p = file('gen.jsonl', traceJsonl(generateTrace({ requests: 40, turns: 4, blockSize: 8, seed: 1 })));
    const w = await loadWorkload({ dataset: 'mooncake_trace', path: p, numPrompts: 40, traceBlockSize: 8 });
    expect(possibleReuse(w.requests)).toBeGreaterThan(0.6);
  });
});
