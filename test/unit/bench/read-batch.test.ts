import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { ReadBatch } from '../../../src/bench/http/read-batch.js';

describe('read batch: stamps first, parsing after', () => {
  it('stamps every read when it is queued and delivers them later, in order, as copies', async () => {
    const batch = new ReadBatch();
    const got: { who: string; text: string; ts: number; at: number }[] = [];
    const target = (who: string) => ({
      deliver: (b: Buffer, ts: number) => got.push({ who, text: b.toString(), ts, at: performance.now() / 1000 }),
    });
    const shared = Buffer.from('one');
    batch.add(target('a'), shared);
    shared.write('two'); // the read buffer is reused: what was queued must not change
    batch.add(target('b'), shared);
    expect(got).toEqual([]);
    expect(batch.pending).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(got.map((g) => [g.who, g.text])).toEqual([
      ['a', 'one'],
      ['b', 'two'],
    ]);
    // b's stamp was taken before a was handed over (no parsing of a in b's stamp).
    expect(got[1]!.ts).toBeLessThanOrEqual(got[0]!.at);
    expect(batch.pending).toBe(false);
  });

  it('flush hands over what is queued at once (before a connection end is handled), and only once', async () => {
    const batch = new ReadBatch();
    const got: string[] = [];
    batch.add({ deliver: (b) => got.push(b.toString()) }, Buffer.from('last bytes'));
    batch.flush();
    expect(got).toEqual(['last bytes']);
    await new Promise((r) => setImmediate(r));
    expect(got).toEqual(['last bytes']);
  });
});
