// Parallel variants: GPU sets never overlap and ports never collide within a wave, the stage's
// order is kept, --parallel auto is held back by the client CPU; the executor keeps going past a
// failure and stops everything on abort.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../src/core/errors.js';
import { parallelLimit, parseParallel, planWaves, runParallel, type ParallelVariant } from '../../../../src/tune/stage/parallel.js';

const host8 = [0, 1, 2, 3, 4, 5, 6, 7];

// A small deterministic generator, so the property check is reproducible.
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

describe('planWaves', () => {
  it('Qwen3-14B at TP1 on 8 GPUs: 8 at once, one GPU each, CUDA_VISIBLE_DEVICES and docker --gpus', () => {
    const vs = Array.from({ length: 10 }, (_, i) => ({ id: `v${i}`, gpus: 1 }));
    const waves = planWaves(vs, host8, 8, { base: 8100 });
    expect(waves.map((w) => w.length)).toEqual([8, 2]);
    expect(waves[0]![3]).toEqual({
      id: 'v3',
      gpuIds: [3],
      port: 8130,
      env: { CUDA_VISIBLE_DEVICES: '3' },
      dockerGpus: ['--gpus', '"device=3"'],
    });
  });

  it('two TP4 variants share 8 GPUs; a TP8 one runs alone; the order is kept', () => {
    const waves = planWaves(
      [
        { id: 'a', gpus: 4 },
        { id: 'b', gpus: 4 },
        { id: 'c', gpus: 8 },
        { id: 'd', gpus: 2 },
      ],
      host8,
      8,
      { base: 9000 },
    );
    expect(waves.map((w) => w.map((s) => `${s.id}:${s.gpuIds.join('')}`))).toEqual([['a:0123', 'b:4567'], ['c:01234567'], ['d:01']]);
    expect(waves[0]![1]!.env.CUDA_VISIBLE_DEVICES).toBe('4,5,6,7');
  });

  it('property: over random stages, GPU sets never overlap and ports never collide within a wave; every variant once, in order', () => {
    const rnd = lcg(16);
    for (let trial = 0; trial < 300; trial++) {
      const n = 1 + Math.floor(rnd() * 12);
      const hostGpus = [1, 2, 4, 8][Math.floor(rnd() * 4)]!;
      const ids = Array.from({ length: hostGpus }, (_, i) => i);
      const vs: ParallelVariant[] = Array.from({ length: n }, (_, i) => ({
        id: `v${i}`,
        gpus: [1, 2, 4, 8].filter((g) => g <= hostGpus)[Math.floor(rnd() * 4) % [1, 2, 4, 8].filter((g) => g <= hostGpus).length]!,
      }));
      const avoid = new Set([8000 + 10 * Math.floor(rnd() * 5)]);
      const limit = 1 + Math.floor(rnd() * 8);
      const waves = planWaves(vs, ids, limit, { base: 8000, avoid });
      expect(waves.flat().map((s) => s.id)).toEqual(vs.map((v) => v.id));
      for (const w of waves) {
        expect(w.length).toBeLessThanOrEqual(limit);
        const gpus = w.flatMap((s) => s.gpuIds);
        expect(new Set(gpus).size).toBe(gpus.length);
        expect(gpus.every((g) => ids.includes(g))).toBe(true);
        const ports = w.map((s) => s.port);
        expect(new Set(ports).size).toBe(ports.length);
        expect(ports.some((p) => avoid.has(p))).toBe(false);
        for (const s of w) expect(s.gpuIds).toHaveLength(vs.find((v) => v.id === s.id)!.gpus);
      }
    }
  });

  it('a variant larger than the host is refused', () => {
    expect(() => planWaves([{ id: 'x', gpus: 16 }], host8, 8, { base: 8000 })).toThrow(/needs 16 GPUs; the host has 8/);
  });
});

describe('--parallel', () => {
  it('parses auto, off and N; anything else is a one-line user error', () => {
    expect(parseParallel('auto')).toBe('auto');
    expect(parseParallel('OFF')).toBe('off');
    expect(parseParallel('3')).toBe(3);
    expect(() => parseParallel('0')).toThrow(UserError);
    expect(() => parseParallel('many')).toThrow("--parallel must be auto, off or a positive integer, got 'many'");
  });

  it('auto: the GPUs allow 8 TP1 variants; 2 client cores hold it back to 2 and say so', () => {
    const vs = [
      { id: 'a', gpus: 1 },
      { id: 'b', gpus: 1 },
    ];
    const held = parallelLimit('auto', vs, 8, { cores: 2, coresPerClient: 1 });
    expect(held.limit).toBe(2);
    expect(held.heldBack).toBe('parallel: held back to 2 at a time by the client CPU (2 cores, 1 per client); the GPUs allow 8');
    const free = parallelLimit('auto', vs, 8, { cores: 16, coresPerClient: 1 });
    expect(free).toMatchObject({ limit: 8 });
    expect(free.heldBack).toBeUndefined();
    expect(parallelLimit('off', vs, 8, { cores: 16, coresPerClient: 1 }).limit).toBe(1);
    expect(parallelLimit(3, vs, 8, { cores: 1, coresPerClient: 4 }).limit).toBe(3);
  });
});

describe('runParallel', () => {
  const tick = () => new Promise((r) => setTimeout(r, 5));

  it('runs at most `limit` at once; a failure does not stop the others', async () => {
    let running = 0;
    let peak = 0;
    const task = (i: number) => async () => {
      running++;
      peak = Math.max(peak, running);
      await tick();
      running--;
      if (i === 1) throw new Error('oom');
      return i * 10;
    };
    const out = await runParallel([0, 1, 2, 3, 4].map(task), 2);
    expect(peak).toBe(2);
    expect(out.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
    expect(out[1]).toMatchObject({ status: 'rejected', reason: new Error('oom') });
    expect(out[4]).toEqual({ status: 'fulfilled', value: 40 });
  });

  it('abort (Ctrl-C) stops every running task and starts no new one', async () => {
    const ac = new AbortController();
    const stopped: number[] = [];
    const started: number[] = [];
    const task = (i: number) => (signal: AbortSignal) =>
      new Promise<number>((resolve, reject) => {
        started.push(i);
        signal.addEventListener('abort', () => {
          stopped.push(i);
          reject(new Error('aborted'));
        });
        if (i === 1) setTimeout(() => ac.abort(), 5);
      });
    const out = await runParallel([0, 1, 2, 3].map(task), 2, ac.signal);
    expect(started).toEqual([0, 1]);
    expect(stopped.sort()).toEqual([0, 1]);
    expect(out.map((o) => o.status)).toEqual(['rejected', 'rejected', 'not-started', 'not-started']);
  });
});
