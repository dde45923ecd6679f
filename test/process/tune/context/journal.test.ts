import { afterEach, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal, defaultRunDir } from '../../../../src/tune/context/journal.js';
import { writeFileAtomic } from '../../../../src/core/atomic-write.js';
import type { VariantResult } from '../../../../src/core/events.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'servelab-journal-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function res(id: string): VariantResult {
  return {
    variantId: id,
    stage: 'engine',
    scenario: 'sharegpt-like',
    status: 'ok',
    variant: { id, engine: 'vllm', model: 'm', knobs: {} },
    argv: ['x'],
    startedAt: 'a',
    finishedAt: 'b',
  };
}

describe('journal', () => {
  it('records each result as its own complete file and reads them back on open', () => {
    const dir = join(tmp(), 'run');
    const j = Journal.create(dir, { model: 'm' });
    j.record('tune', 0, res('vllm-defaults'));
    j.record('tune', 0, res('sglang-defaults'));
    const files = readdirSync(join(dir, 'results'));
    expect(files).toHaveLength(2);
    expect(files.every((f) => f.endsWith('.json'))).toBe(true);
    const again = Journal.open<{ model: string }>(dir);
    expect(again.config).toEqual({ model: 'm' });
    expect(again.entries().map((e) => e.result.variantId)).toEqual(['vllm-defaults', 'sglang-defaults']);
    expect(again.find('sglang-defaults', 'sharegpt-like', 0)?.seq).toBe(2);
    expect(again.find('sglang-defaults', 'sharegpt-like', 1)).toBeUndefined();
    // New records continue the sequence.
    expect(again.record('tune', 0, res('trtllm-defaults')).seq).toBe(3);
  });

  it('ignores leftovers of an interrupted write (temp files, truncated JSON)', () => {
    const dir = join(tmp(), 'run');
    const j = Journal.create(dir, {});
    j.record('tune', 0, res('a'));
    writeFileSync(join(dir, 'results', '0002-engine-b.json.123.1.tmp'), '{"seq":2,"key":"b@s#0","resu');
    writeFileSync(join(dir, 'results', '0003-engine-c.json'), '{"seq":3,"key":"c@');
    const again = Journal.open(dir);
    expect(again.entries().map((e) => e.result.variantId)).toEqual(['a']);
  });

  it('writeFileAtomic never exposes a partial file under the final name', () => {
    const dir = tmp();
    const file = join(dir, 'x.json');
    writeFileAtomic(file, 'old');
    writeFileAtomic(file, JSON.stringify({ big: 'y'.repeat(1 << 20) }));
    expect(JSON.parse(readFileSync(file, 'utf8')).big).toHaveLength(1 << 20);
    expect(readdirSync(dir)).toEqual(['x.json']);
  });

  it('a writer killed mid-write leaves only complete result files, all of which resume reads', async () => {
    const dir = join(tmp(), 'run');
    const writer = fileURLToPath(new URL('../../../helpers/tune/context/fixtures/journal-writer.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', writer, dir], { stdio: 'ignore' });
    try {
      // Kill it once it is well into writing (each result is 256 KiB, so writes are in flight).
      const deadline = Date.now() + 30_000;
      for (;;) {
        let n = 0;
        try {
          n = readdirSync(join(dir, 'results')).length;
        } catch {
          n = 0;
        }
        if (n >= 25) break;
        if (Date.now() > deadline) throw new Error('the writer did not write');
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    const files = readdirSync(join(dir, 'results'));
    const complete = files.filter((f) => f.endsWith('.json'));
    for (const f of complete) expect(() => JSON.parse(readFileSync(join(dir, 'results', f), 'utf8'))).not.toThrow();
    // Resume sees exactly the complete ones, numbered without gaps.
    const seqs = Journal.open(dir)
      .entries()
      .map((e) => e.seq);
    expect(seqs).toHaveLength(complete.length);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
  });

  it('refuses to create over an existing run and to open a folder that is not one', () => {
    const dir = join(tmp(), 'run');
    Journal.create(dir, {});
    expect(() => Journal.create(dir, {})).toThrow(/already holds a run/);
    expect(() => Journal.open(tmp())).toThrow(/not a servelab run folder/);
    const bad = tmp();
    writeFileSync(join(bad, 'session.json'), '{oops');
    expect(() => Journal.open(bad)).toThrow(/not valid JSON/);
  });

  it('keeps the session state across updates', () => {
    const dir = join(tmp(), 'run');
    const j = Journal.create(dir, { a: 1 });
    j.update({ status: 'interrupted', signal: 'SIGINT' });
    const s = JSON.parse(readFileSync(join(dir, 'session.json'), 'utf8'));
    expect(s.status).toBe('interrupted');
    expect(s.signal).toBe('SIGINT');
    expect(s.config).toEqual({ a: 1 });
  });

  it('names run folders by date, model and GPU, never reusing one', () => {
    const base = tmp();
    const now = new Date('2026-11-30T07:34:00Z');
    const a = defaultRunDir(base, 'Qwen/Qwen3-14B', 'H100x1', now);
    expect(a).toBe(join(base, '2026-11-30T0734-Qwen3-14B-H100x1'));
    Journal.create(a, {});
    expect(defaultRunDir(base, 'Qwen/Qwen3-14B', 'H100x1', now)).toBe(`${a}-2`);
  });
});
