// One ShareGPT shape everywhere: the calibration's lengths, the tuning stand-in's JSONL and what
// servelab's benchmark reads back from it (vLLM's custom dataset format) are the same lengths.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadWorkload } from '../../../src/bench/datasets/datasets.js';
import { sharegptLike } from '../../../src/sim/predict/workload.js';
import { writeSharegptLikeJsonl } from '../../../src/sim/predict/sharegpt-jsonl.js';
import { SHAREGPT_FILTER } from '../../../src/model/data/sharegpt-lengths.js';

const dir = mkdtempSync(path.join(os.tmpdir(), 'sl-shape-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

describe('the ShareGPT length table', () => {
  it("draws lengths inside vLLM's filter with means near the published 1000-prompt totals", () => {
    const r = sharegptLike(20_000, 7);
    for (const x of r) {
      expect(x.promptLen).toBeGreaterThanOrEqual(SHAREGPT_FILTER.minLen);
      expect(x.promptLen).toBeLessThanOrEqual(SHAREGPT_FILTER.maxPrompt);
      expect(x.promptLen + x.outputLen).toBeLessThanOrEqual(SHAREGPT_FILTER.maxTotal);
    }
    const meanIn = r.reduce((s, x) => s + x.promptLen, 0) / r.length;
    const meanOut = r.reduce((s, x) => s + x.outputLen, 0) / r.length;
    // Published (the seed studies; docs/calibration.md, The ShareGPT shape): 217,393 / 201,648 tokens for 1000 prompts; the table's derivation says ~226 / ~199.
    expect(meanIn).toBeGreaterThan(205);
    expect(meanIn).toBeLessThan(240);
    expect(meanOut).toBeGreaterThan(185);
    expect(meanOut).toBeLessThan(215);
  });

  it('the JSONL servelab writes is read back (custom dataset) with the same lengths, shuffled as vLLM does', async () => {
    const file = writeSharegptLikeJsonl(300, 42, dir);
    const w = await loadWorkload({ dataset: 'custom', path: file, numPrompts: 300 });
    const want = sharegptLike(300, 42);
    expect(sorted(w.requests.map((r) => r.promptLen))).toEqual(sorted(want.map((r) => r.promptLen)));
    expect(sorted(w.requests.map((r) => r.expectedOutputLen))).toEqual(sorted(want.map((r) => r.outputLen)));
    // random.seed(0); random.shuffle(data): not the file's order.
    expect(w.requests.map((r) => r.promptLen)).not.toEqual(want.map((r) => r.promptLen));
  });

  it("--custom-output-len N overrides each line's output_tokens; bad lines name the line", async () => {
    const file = writeSharegptLikeJsonl(5, 1, dir);
    const w = await loadWorkload({ dataset: 'custom', path: file, numPrompts: 8, customOutputLen: 64 });
    expect(w.requests).toHaveLength(8); // oversampled, as vLLM's random.choices
    expect(new Set(w.requests.map((r) => r.expectedOutputLen))).toEqual(new Set([64]));
    const bad = path.join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"prompt": "a b c"}\n{"text": "x"}\n');
    await expect(loadWorkload({ dataset: 'custom', path: bad, numPrompts: 2 })).rejects.toThrow(
      /bad\.jsonl:2: each line needs a string "prompt"/,
    );
  });
});
