// The `tui` command module: help, and bad flags refused with one line before anything renders.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import main, { resumeHint } from '../../../src/commands/tui.js';
import { isUserError } from '../../../src/core/errors.js';

let conf: string;
beforeAll(() => {
  // Never the user's own settings store.
  conf = mkdtempSync(join(tmpdir(), 'servelab-conf-'));
  process.env.SERVELAB_CONFIG_DIR = conf;
});
afterAll(() => {
  delete process.env.SERVELAB_CONFIG_DIR;
  rmSync(conf, { recursive: true, force: true });
});

describe('servelab (tui command)', () => {
  it('prints its usage for --help and exits 0', async () => {
    const out: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => {
      out.push(String(s));
      return true;
    });
    try {
      expect(await main(['--help'])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(out.join('')).toContain("takes the flags of 'servelab --auto'");
  });

  it('refuses an unknown flag or a bad GPU count with a one-line UserError (exit 2)', async () => {
    for (const argv of [['--frobnicate'], ['--gpus', 'x'], ['--sim', '--gpu', 'Z100']]) {
      const err = await main(argv).then(
        () => null,
        (e: unknown) => e,
      );
      expect(isUserError(err)).toBe(true);
      expect((err as Error).message.split('\n')).toHaveLength(1);
      expect((err as { code: number }).code).toBe(2);
    }
    // A flag no screen asks for is checked by --auto's rules before the screens open: only quitting could fix it there.
    for (const [argv, words] of [
      [['--sim', '--scale', 'abc'], /^--scale must be a number > 0/],
      [['--margin', 'x'], /^--margin must be a number/],
      [['--image', 'i'], /^--image is the container of --runtime docker/],
    ] as const) {
      const e = await main([...argv]).catch((x: unknown) => x);
      expect(isUserError(e), String(e)).toBe(true);
      expect((e as Error).message).toMatch(words);
    }
    // The same words as --auto for the same flag (the screens cannot pick a GPU the catalog lacks).
    const gpu = await main(['--sim', '--gpu', 'Z100']).catch((e: unknown) => e);
    expect((gpu as Error).message).toMatch(/^unknown GPU 'Z100' for --gpu: use one of H100, /);
  });
});

describe('leaving the workbench', () => {
  const said = async (session: Promise<unknown> | null) => {
    const out: string[] = [];
    await resumeHint(session, (t) => out.push(t));
    return out.join('');
  };
  it('after an interrupted run, says where its variants are and how to continue (as --auto does)', async () => {
    const text = await said(Promise.resolve({ interrupted: true, runDir: '/runs/r1', exitCode: 130 }));
    expect(text).toBe('interrupted; finished variants are in /runs/r1. Continue with: servelab --auto --resume /runs/r1\n');
  });
  it('says nothing after a finished run, without a run, or when the session never settled', async () => {
    expect(await said(Promise.resolve({ interrupted: false, runDir: '/runs/r1', exitCode: 0 }))).toBe('');
    expect(await said(null)).toBe('');
    expect(await said(Promise.reject(new Error('crashed')))).toBe('');
    expect(await said(new Promise(() => {}))).toBe('');
  });
});
