// The installed engine's own help, for releases servelab has not read: a stand-in `vllm` (a small
// script on PATH) prints a reconstructed `vllm serve --help=all` of a 2026 release
// (test/fixtures/engines/vllm-serve-help-2026-05.txt, its header says where it comes from), and a
// plan flag it does not list is refused with one line naming the flag and the release.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import type { Variant } from '../../../src/core/variant.js';
import { detectGpuEngine } from '../../../src/engines/kit/detect.js';
import { forgetEngineHelp, helpCheckReason, parseHelpFlags, writeEngineHelp } from '../../../src/engines/kit/help-check.js';
import { getAdapter } from '../../../src/engines/index.js';

export const VLLM_HELP = path.join(import.meta.dirname, '../../fixtures/engines/vllm-serve-help-2026-05.txt');
const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-help-'));
const ORIGINAL_PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = ORIGINAL_PATH;
  forgetEngineHelp();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** PATH = a folder with a stand-in `vllm` (prints the help for `serve --help=all`) and a `python3` that reports `version`. */
function standIn(name: string, version: string, help: string): void {
  const bin = path.join(dir, name);
  mkdirSync(bin, { recursive: true });
  const tools = {
    vllm: `if [ "$1 $2" = "serve --help=all" ]; then ${help}; exit $?; fi\necho "stand-in vllm: only serve --help=all" >&2; exit 2`,
    python3: `echo ${version}`,
  };
  for (const [tool, body] of Object.entries(tools)) {
    writeFileSync(path.join(bin, tool), `#!/bin/sh\n${body}\n`);
    chmodSync(path.join(bin, tool), 0o755);
  }
  process.env.PATH = `${bin}:${ORIGINAL_PATH}`;
}

const ctx = { host: '127.0.0.1', port: 8000, runDir: '/run', runtime: { kind: 'native' as const } };
const variant = (knobs: Variant['knobs'], engineVersion = '0.34.0'): Variant => ({
  id: 'v',
  engine: 'vllm',
  model: 'Qwen/Qwen3-32B',
  knobs,
  engineVersion,
});

describe('which releases get their help read', () => {
  it('a release newer than every table, and a table read at neighbouring releases; not a release read at itself', () => {
    expect(helpCheckReason('vllm', '0.34.0')).toMatch(/newer than every release servelab has read \(newest: 0\.33\.0\)/);
    expect(helpCheckReason('vllm', '0.33.0')).toMatch(/0\.33\.0 table was read at/);
    expect(helpCheckReason('vllm', '0.11.0')).toBeUndefined();
    expect(helpCheckReason('vllm', undefined)).toBeUndefined();
    expect(helpCheckReason('sglang', 'simulated')).toBeUndefined();
    // SGLang 0.5.13 was read at its own tag; 0.5.23 at the 0.5.13 and 0.5.15 tags.
    expect(helpCheckReason('sglang', '0.5.13')).toBeUndefined();
    expect(helpCheckReason('sglang', '0.5.23')).toMatch(/0\.5\.23 table was read at the v0\.5\.13 and v0\.5\.15 tags/);
  });

  it('reads every flag spelling of the help text', () => {
    const flags = parseHelpFlags(readFileSync(VLLM_HELP, 'utf8'));
    for (const f of ['--performance-mode', '--attention-backend', '-tp', '--tensor-parallel-size', '--no-enable-lora', '-cc', '--host'])
      expect(flags.has(f), f).toBe(true);
    expect(flags.has('--max-seq-len-to-capture')).toBe(false);
  });
});

describe('a stand-in vllm newer than every table', () => {
  it('detection reads its help once, and a plan flag it lacks is refused with one line', async () => {
    standIn('newer', '0.34.0', `cat '${VLLM_HELP}'`);
    const info = await detectGpuEngine('vllm');
    expect(info).toMatchObject({ installed: true, version: '0.34.0', knobTable: '0.33.0' });
    expect(info.helpCheck).toMatch(/newer than every release .* every planned flag is checked against its own help \(\d+ flags\)/);
    const adapter = getAdapter('vllm');
    // What the tables spell for today's engine is all listed: the command builds.
    const ok = adapter.command(variant({ tp: 2, attentionBackend: 'fa3', performanceMode: 'throughput', torchCompile: false }), ctx);
    expect(ok.engineArgv).toEqual(
      expect.arrayContaining([
        '--attention-backend',
        'FLASH_ATTN',
        '--attention-config.flash_attn_version',
        '3',
        '--performance-mode',
        'throughput',
      ]),
    );
    // A flag of an older vLLM (an --extra-args carried from an old profile) is not in this help.
    let err: unknown;
    try {
      adapter.command(variant({ extraArgs: ['--max-seq-len-to-capture', '8192'] }), ctx);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      'vLLM 0.34.0 does not list --max-seq-len-to-capture in its own help (`vllm serve --help=all`): servelab will not launch a plan that uses it',
    );
    expect((err as Error).message.split('\n')).toHaveLength(1);
    // The help is the session's source, kept in the run folder.
    const runDir = path.join(dir, 'run');
    const [file] = writeEngineHelp(runDir);
    expect(file).toBe(path.join(runDir, 'engine-help', 'vllm-0.34.0.txt'));
    expect(readFileSync(file!, 'utf8')).toContain('--performance-mode');
  });

  it('a help that cannot be run is said, and nothing is refused on its account', async () => {
    standIn('broken', '0.34.0', 'echo "ImportError: libcudart.so.13: cannot open shared object file" >&2; exit 1');
    const info = await detectGpuEngine('vllm');
    expect(info.helpCheck).toMatch(
      /its help could not be read, so flags are not checked: `vllm serve --help=all` failed \(exit 1\): ImportError: libcudart/,
    );
    expect(() => getAdapter('vllm').command(variant({ extraArgs: ['--max-seq-len-to-capture', '8192'] }), ctx)).not.toThrow();
    expect(writeEngineHelp(path.join(dir, 'run-broken'))).toEqual([]);
    expect(existsSync(path.join(dir, 'run-broken'))).toBe(false);
  });

  it('a release with a table read at itself runs no help', async () => {
    standIn('exact', '0.11.1', 'echo "should not run" >&2; exit 3');
    expect((await detectGpuEngine('vllm')).helpCheck).toBeUndefined();
  });
});
