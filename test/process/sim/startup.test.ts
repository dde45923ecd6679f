// The start-up model's terms and the caches a second launch finds: pure figures, then real
// sim-serve processes sharing one session cache folder (marker files, as the engines' caches).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cacheMarkers, compileKey, defaultLoadTime, startupBreakdown, STARTUP_TERMS } from '../../../src/sim/imitation/startup.js';
import { reapAll, spawnSim } from '../../helpers/sim/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(reapAll);

describe('startupBreakdown', () => {
  const w = 31e9; // 31 GB of weights per GPU
  it('cold: process + weights from disk + CUDA graphs + torch.compile with an empty cache', () => {
    const b = startupBreakdown(w, true);
    expect(b).toEqual({ processS: 10, weightsS: w / 2e9, cudaGraphS: 10, compileS: 25, totalS: 10 + w / 2e9 + 10 + 25 });
    expect(defaultLoadTime(w, false)).toBeCloseTo(10 + w / 2e9 + 10, 9);
  });
  it('warm: page-cached weights and cached compile artefacts; dummy weights read nothing; eager captures no graphs', () => {
    const b = startupBreakdown(w, true, { weightsPageCached: true, compileCached: true });
    expect(b.weightsS).toBeCloseTo(w / 3.1e9, 9);
    expect(b.compileS).toBe(9);
    expect(startupBreakdown(w, true, { dummyWeights: true }).weightsS).toBe(0);
    expect(startupBreakdown(w, false, { cudaGraph: false }).cudaGraphS).toBe(0);
    // A cached compile does nothing when torch.compile is off.
    expect(startupBreakdown(w, false, { compileCached: true }).compileS).toBe(0);
  });
  it('every term names its source or says it is an assumption', () => {
    for (const t of Object.values(STARTUP_TERMS)) expect(t.source).toMatch(/assumption|vllm|vLLM/);
  });
});

describe('cache keys and markers', () => {
  it('the compile key follows the compile-relevant knobs only', () => {
    const k = compileKey('vllm', 'm', { tp: 1, maxBatchedTokens: 8192 });
    expect(compileKey('vllm', 'm', { tp: 1, maxBatchedTokens: 8192, maxRunningSeqs: 64 })).toBe(k);
    expect(compileKey('vllm', 'm', { tp: 1, maxBatchedTokens: 4096 })).not.toBe(k);
    expect(compileKey('sglang', 'm', { tp: 1, maxBatchedTokens: 8192 })).not.toBe(k);
  });
  it('markers live under the engine cache variables; no folder, no marker', () => {
    expect(cacheMarkers('vllm', 'Qwen/Qwen3-14B', {}, {})).toEqual({});
    const m = cacheMarkers('vllm', 'Qwen/Qwen3-14B', {}, { VLLM_CACHE_ROOT: '/c/vllm', SERVELAB_SIM_PAGE_CACHE: '/c/pc' });
    expect(m.compile).toMatch(/^\/c\/vllm\/torch_compile_cache\/servelab-sim-[0-9a-f]{10}$/);
    expect(m.pageCache).toBe('/c/pc/Qwen_Qwen3-14B');
    expect(cacheMarkers('sglang', 'x', {}, { TORCHINDUCTOR_CACHE_DIR: '/c/ti' }).compile).toMatch(/^\/c\/ti\/servelab-sim-/);
  });
});

async function startupOf(args: string[], env: Record<string, string>) {
  const p = spawnSim(['--engine', 'vllm', '--gpu', 'H100', '--model', 'Qwen/Qwen3-14B', '--port', '0', '--load-time', '0', ...args], env);
  const m = await p.waitFor(/Starting vLLM API server 0 on (http:\/\/[\d.:]+)/);
  await p.waitFor(/Application startup complete\./);
  const info = (await (await fetch(`${m[1]}/sim/info`)).json()) as {
    startup: { totalS: number; compileS: number; weightsS: number; compileCached: boolean; weightsPageCached: boolean };
  };
  p.kill();
  await p.exited;
  return info.startup;
}

describe('sim-serve reuses the session caches', () => {
  it('a second launch with the same compile config finds the compile cache and the page-cached weights', async () => {
    const env = { VLLM_CACHE_ROOT: join(dir, 'vllm'), SERVELAB_SIM_PAGE_CACHE: join(dir, 'pc') };
    const first = await startupOf(['--torch-compile'], env);
    const second = await startupOf(['--torch-compile', '--max-running-seqs', '64'], env);
    const other = await startupOf(['--torch-compile', '--max-batched-tokens', '4096'], env);
    expect(first).toMatchObject({ compileCached: false, weightsPageCached: false, compileS: 25 });
    expect(second).toMatchObject({ compileCached: true, weightsPageCached: true, compileS: 9 });
    expect(second.totalS).toBeLessThan(first.totalS - 16);
    // Another compile range compiles again; the checkpoint is still page-cached.
    expect(other).toMatchObject({ compileCached: false, weightsPageCached: true });
    // Without the folders nothing is cached, however often it starts.
    expect(await startupOf(['--torch-compile'], {})).toMatchObject({ compileCached: false, weightsPageCached: false });
  }, 60_000);
});
