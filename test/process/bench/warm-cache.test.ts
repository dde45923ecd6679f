// Two benchmarks in a row on one sim-serve, as a user runs them: the second finds the first's
// prompts in the server's prefix cache, so its hit rate is above what the workload can reuse by
// itself. The output says the cache was warm before the run (text and JSON) and leaves the hit
// rate as measured; a first run on a fresh server says nothing of the kind.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../../helpers/bin.js';
import { reapAll, startReady } from '../../helpers/sim/helpers.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-warm-'));
});
afterAll(async () => {
  await reapAll();
  rmSync(dir, { recursive: true, force: true });
});

const bench = async (url: string, name: string, dataset: string[]) => {
  const r = await execa(
    process.execPath,
    [
      BIN,
      'bench',
      '--base-url',
      url,
      '--model',
      'Qwen/Qwen3-14B',
      ...dataset,
      '--save-result',
      '--result-dir',
      dir,
      '--result-filename',
      name,
    ],
    { reject: false, timeout: 120_000, env: { NO_COLOR: '1' } },
  );
  expect(r.exitCode, r.stderr).toBe(0);
  return { text: r.stdout, json: JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as Record<string, unknown> };
};

const WARM = "Cache warm before the run:               yes (hit rate above this workload's own reuse)";

describe('servelab bench on a server whose cache is warm', () => {
  it('prefix_repetition twice: the second run says its cache was warm, with the hit rate as measured', async () => {
    const { url } = await startReady(['--engine', 'vllm', '--model', 'Qwen/Qwen3-14B', '--speed', '50']);
    const shape = ['--dataset-name', 'prefix_repetition', '--num-prompts', '40', '--prefix-repetition-num-prefixes', '4'];
    const cold = await bench(url, 'cold.json', shape);
    expect(cold.text).not.toContain('Cache warm before the run');
    expect(cold.json).toMatchObject({ cache_warm_before_run: false });
    expect(cold.json.cache_hit_rate as number).toBeLessThanOrEqual((cold.json.cache_possible_reuse as number) + 0.01);

    const warm = await bench(url, 'warm.json', shape);
    // Impossible for this workload alone: the first run's prompts were in the cache.
    expect(warm.json.cache_hit_rate as number).toBeGreaterThan((warm.json.cache_possible_reuse as number) + 0.2);
    expect(warm.text).toContain(WARM);
    expect(warm.text).toMatch(/Hits cached before the run \(%\):\s+\d+\.\d\d/);
    expect(warm.json).toMatchObject({ cache_warm_before_run: true });
    expect(warm.json.cache_hit_before_run as number).toBeGreaterThan(0.2);
  });

  it('multi_turn: a fresh server is cold though replies lift the hit rate above the possible reuse; the rerun is warm', async () => {
    const { url } = await startReady(['--engine', 'vllm', '--model', 'Qwen/Qwen3-14B', '--speed', '50']);
    const shape = ['--dataset-name', 'multi_turn', '--max-concurrency', '4', '--multi-turn-turns', '4'];
    const cold = await bench(url, 'mt-cold.json', shape);
    // The server caches the replies it generated and the system prompt another user sent: the run's own reuse.
    expect(cold.json.cache_hit_rate as number).toBeGreaterThan(cold.json.cache_possible_reuse as number);
    expect(cold.json).toMatchObject({ cache_warm_before_run: false });
    expect(cold.text).not.toContain('Cache warm before the run');
    const warm = await bench(url, 'mt-warm.json', shape);
    expect(warm.json).toMatchObject({ cache_warm_before_run: true });
    expect(warm.text).toContain(WARM);
  });
});
