// The host's noise prior: pooled with bounded weight, kept in the state folder (a temporary one per
// test file: test/setup.ts), never for a simulated host.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { pooledNoise, PRIOR_DF_MAX } from '../../../../src/core/noise-rule.js';
import type { HostInfo } from '../../../../src/host/gpus.js';
import { stateDir } from '../../../../src/host/xdg.js';
import { keepSessionNoise, noisePriorKey, readNoisePrior } from '../../../../src/tune/stage/noise-prior.js';

const cpuHost = { gpus: [], simulated: false, cpu: { threads: 2, memAvailMiB: 4096, model: 'Test CPU' } } as unknown as HostInfo;
const simHost = { gpus: [], simulated: true } as unknown as HostInfo;
const config = { scenario: { name: 'random-128-32', numPrompts: 24 }, objective: 'total' } as never;

afterEach(() => rmSync(join(stateDir(), 'noise-prior.json'), { force: true }));

describe('pooled noise with the host prior', () => {
  const lucky = [{ label: 'a', values: [100, 101] }]; // one df at about ±0.7% sd: agreement by chance

  it('a lucky session cannot narrow the noise below what the host showed before', () => {
    const alone = pooledNoise(lucky)!;
    const pooled = pooledNoise(lucky, { sdPct: 8, df: 12, sessions: 3 })!;
    expect(alone.sdPct!).toBeLessThan(1);
    expect(pooled.sdPct!).toBeGreaterThan(6);
    expect(pooled.df).toBe(1 + PRIOR_DF_MAX);
    expect(pooled.source).toBe("2 runs of a + this host's last 3 sessions");
  });

  it("the session's own runs outweigh the prior once they are many", () => {
    const many = [{ label: 'b', values: Array.from({ length: 25 }, (_, i) => 100 + (i % 2 ? 10 : -10)) }];
    const own = pooledNoise(many)!;
    const pooled = pooledNoise(many, { sdPct: 1, df: 50, sessions: 5 })!;
    expect(Math.abs(pooled.sdPct! - own.sdPct!) / own.sdPct!).toBeLessThan(0.15);
  });

  it('a prior alone is a noise before any repeat', () => {
    const n = pooledNoise([], { sdPct: 5, df: 4, sessions: 2 })!;
    expect(n.runs).toBe(0);
    expect(n.source).toBe("this host's last 2 sessions");
    expect(pooledNoise([])).toBeUndefined();
  });
});

describe('the prior kept between sessions', () => {
  it('is written per host, workload and objective, pooled from the last sessions, read back', () => {
    const key = noisePriorKey(cpuHost, config)!;
    expect(key).toContain('CPU Test CPU x 2');
    expect(readNoisePrior(key)).toBeUndefined();
    keepSessionNoise(key, { pct: 10, runs: 4, source: 's1', sdPct: 3, df: 2 });
    keepSessionNoise(key, { pct: 20, runs: 4, source: 's2', sdPct: 6, df: 2 });
    expect(existsSync(join(stateDir(), 'noise-prior.json'))).toBe(true);
    const p = readNoisePrior(key)!;
    expect(p.sessions).toBe(2);
    expect(p.df).toBe(4);
    expect(p.sdPct).toBeCloseTo((3 + 6) / 2, 6);
    expect(readNoisePrior(noisePriorKey(cpuHost, { ...(config as object), objective: 'output' } as never)!)).toBeUndefined();
  });

  it('keeps only the last five sessions', () => {
    const key = noisePriorKey(cpuHost, config)!;
    for (let i = 0; i < 7; i++) keepSessionNoise(key, { pct: 1, runs: 2, source: '', sdPct: i + 1, df: 1 });
    const p = readNoisePrior(key)!;
    expect(p.sessions).toBe(5);
    expect(p.sdPct).toBe(5);
  });

  it('one wild session does not set the prior: the median session does', () => {
    const key = noisePriorKey(cpuHost, config)!;
    for (const sd of [4, 80, 5]) keepSessionNoise(key, { pct: 1, runs: 2, source: '', sdPct: sd, df: 2 });
    expect(readNoisePrior(key)!.sdPct).toBe(5);
  });

  it('a simulated host has none', () => {
    expect(noisePriorKey(simHost, config)).toBeUndefined();
  });
});
