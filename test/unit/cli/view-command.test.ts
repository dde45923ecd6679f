// `servelab view RUN_DIR`: an interrupted run shows what it measured, marked interrupted, as text
// and as JSON; a folder that is not a run is a one-line error.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import view from '../../../src/commands/view.js';
import type { SessionView } from '../../../src/core/session-view.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { AbortedError } from '../../../src/core/aborted.js';
import { runSession } from '../../../src/tune/session/session.js';
import { scriptedRunner } from '../../helpers/tune/scripted-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-view-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function stdoutOf(argv: string[]): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    return { code: await view(argv), out };
  } finally {
    spy.mockRestore();
  }
}

describe('servelab view', () => {
  it('shows an interrupted run: what was measured, marked interrupted', async () => {
    const runDir = join(dir, 'run');
    const { config } = parseAutoArgs([
      '--sim',
      '--model',
      'Qwen/Qwen3-14B',
      '--engines',
      'sglang,vllm',
      '--stages',
      'engine,attention',
      '--scale',
      '0.02',
      '--validation',
      'none',
      '--out',
      dir,
      '--run-dir',
      runDir,
    ]);
    const ac = new AbortController();
    const { run } = scriptedRunner({ sglang: 1200, vllm: 1000 }, 1100, (v) => {
      if (v.id === 'sglang-attn-flashinfer') {
        ac.abort('SIGTERM');
        throw new AbortedError();
      }
    });
    const o = await runSession(config!, { runner: run, signal: ac.signal });
    expect(o.interrupted).toBe(true);

    const text = await stdoutOf([runDir, '--auto']);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^INTERRUPTED/);
    expect(text.out).toMatch(/sglang \*\s+ok\s+1200\.0/);
    expect(text.out).toContain('stage gain: +20.0% vs the baseline vllm; kept sglang');
    expect(text.out).toMatch(/sglang-attn-triton\s+ok\s+1100\.0/);
    // fa3 is SGLang 0.5.5's default on this H100: the carried winner's server, filed and not launched.
    expect(text.out).toMatch(/sglang-attn-fa3\s+same server\s+-/);
    expect(text.out).not.toContain('Winner: sglang-attn');

    const json = await stdoutOf([runDir, '--json']);
    const v = JSON.parse(json.out) as SessionView;
    expect(v.status).toBe('interrupted');
    expect(v.stages.map((s) => [s.name, s.rows.map((r) => r.result.variantId)])).toEqual([
      ['engine', ['sglang', 'vllm']],
      // (run predicted fastest first: triton before flashinfer, where the session was stopped)
      ['attention', ['sglang-attn-fa3', 'sglang-attn-triton']],
    ]);
    expect(v.outcome?.exitCode).toBe(143);
  });

  it('says in one line when the folder is not a run', async () => {
    await expect(view([dir])).rejects.toThrow(/has no events\.jsonl: not a servelab run folder/);
    await expect(view([join(dir, 'nope')])).rejects.toThrow(/no such run folder/);
  });
});
