// A host whose vLLM is newer than every knob table: a stand-in `vllm` on PATH prints the
// reconstructed `vllm serve --help=all` of a 2026 release (fixture header says where it comes
// from), a stand-in `python3` reports 0.34.0, and a faked nvidia-smi shows one H100. servelab reads
// the help once before planning, refuses the plan flag the help lacks with one line naming the
// flag and the release, launches nothing, and keeps the help in the run folder.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, runCli, tempDir } from '../../helpers/e2e/cli.js';

const ROOT = join(import.meta.dirname, '../../..');
const HELP = join(ROOT, 'test/fixtures/engines/vllm-serve-help-2026-05.txt');
const cwd = tempDir('e2e-help');
afterAll(() => removeDir(cwd));

function standIns(): string {
  writeFileSync(
    join(cwd, 'vllm'),
    `#!/bin/sh\nif [ "$1 $2" = "serve --help=all" ]; then cat '${HELP}'; exit 0; fi\necho "stand-in vllm: only serve --help=all" >&2\nexit 3\n`,
  );
  writeFileSync(join(cwd, 'python3'), '#!/bin/sh\necho 0.34.0\n');
  for (const f of ['vllm', 'python3']) chmodSync(join(cwd, f), 0o755);
  return [cwd, join(ROOT, 'test/fixtures/nvidia-smi/1xH100'), process.env.PATH].join(':');
}

describe('servelab --auto on a vLLM newer than every table', () => {
  it('refuses the flag its own help does not list, before launching anything', async () => {
    const runDir = join(cwd, 'run');
    const PATH = standIns();
    const r = await runCli(
      [
        '--auto',
        '--model',
        'Qwen/Qwen3-14B',
        '--engines',
        'vllm',
        '--stages',
        'engine',
        '--extra-args',
        'vllm:--max-seq-len-to-capture 8192',
        '--json',
        '--run-dir',
        runDir,
      ],
      cwd,
      undefined,
      120_000,
      { PATH },
    );
    expect(r.events.filter((e) => e.type === 'variant-launching')).toEqual([]);
    const warnings = r.events.filter((e) => e.type === 'warning').map((e) => (e as { message: string }).message);
    expect(warnings).toContainEqual(
      expect.stringMatching(
        /^vllm: vLLM 0\.34\.0 is newer than every release servelab has read \(newest: 0\.33\.0\): every planned flag is checked against its own help/,
      ),
    );
    const line =
      'vLLM 0.34.0 does not list --max-seq-len-to-capture in its own help (`vllm serve --help=all`): servelab will not launch a plan that uses it';
    const finished = r.events
      .filter((e) => e.type === 'variant-finished')
      .map((e) => (e as { result: { status: string; failure?: { kind: string; reason: string } } }).result);
    expect(finished.map((x) => [x.status, x.failure?.kind, x.failure?.reason])).toEqual([['pruned', 'bad-flag', line]]);
    expect(r.stderr.split('\n').filter((l) => l.includes('--max-seq-len-to-capture'))).toHaveLength(1);
    expect(r.code).toBe(1);
    // The help is the session's source for the flags: kept in the run folder.
    const kept = join(runDir, 'engine-help', 'vllm-0.34.0.txt');
    expect(existsSync(kept)).toBe(true);
    expect(readFileSync(kept, 'utf8')).toContain('--performance-mode');
  });
});
