// Storage faults on a real small tmpfs (mounted by the test; root only, skipped otherwise) and on
// errors as node raises them: a full disk or a read-only folder gives one error naming the path
// and what is already journalled, and leaves every journalled entry intact.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asStorageError } from '../../../../src/core/storage.js';
import type { VariantResult } from '../../../../src/core/events.js';
import { saveProfile } from '../../../../src/profiles/store/store.js';
import { qwen3Study } from '../../../../scripts/studies.js';
import { Journal } from '../../../../src/tune/context/journal.js';
import { removeDir, runCli, survivors, launchedPorts, tempDir } from '../../../helpers/e2e/cli.js';
import { skipNote } from '../../../helpers/skip.js';
import { testPort } from '../../../helpers/ports.js';

const root = process.getuid?.() === 0;
const mounts: string[] = [];
const dirs: string[] = [];
afterAll(() => {
  for (const m of mounts) execFileSync('umount', ['-l', m]);
  for (const d of [...mounts, ...dirs]) rmSync(d, { recursive: true, force: true });
});

const NOT_ROOT = 'mounting a tmpfs needs root';
/** Why a root test skips anyway: a container's root often lacks the right to mount. */
const NO_TMPFS = 'cannot mount a tmpfs here (root without mount rights)';

/** A fresh tmpfs of `kib` KiB; undefined where it cannot be mounted. */
function tmpfs(kib: number): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'servelab-tmpfs-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${kib}k`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  mounts.push(dir);
  return dir;
}

function result(i: number, pad: number): VariantResult {
  return {
    variantId: `v${i}`,
    stage: 'engine',
    scenario: 's',
    status: 'ok',
    variant: { id: `v${i}`, note: 'x'.repeat(pad) } as never,
    argv: [],
    startedAt: '',
    finishedAt: '',
  };
}

describe('storage errors', () => {
  it('names the path and the cause; other errors pass through', () => {
    const e = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(asStorageError(e, '/runs/x/results/0001.json', 'the journal entry')!.message).toBe(
      'cannot write the journal entry /runs/x/results/0001.json: the disk is full (ENOSPC); free space or choose another folder',
    );
    expect(asStorageError(Object.assign(new Error('x'), { code: 'EROFS' }), '/p', 'the profile')!.message).toMatch(/read-only \(EROFS\)/);
    expect(asStorageError(new TypeError('bug'), '/p', 'x')).toBeUndefined();
  });

  const title0 = `a full disk while journalling: one error, earlier entries intact, no temp files${skipNote(!root && NOT_ROOT)}`;
  it.skipIf(!root)(title0, (ctx) => {
    const dir = tmpfs(64);
    if (!dir) return ctx.skip(NO_TMPFS);
    const j = Journal.create(join(dir, 'run'), { model: 'm' });
    let err: Error | undefined;
    let n = 0;
    try {
      for (; n < 100; n++) j.record('tune', 0, result(n, 6000));
    } catch (e) {
      err = e as Error;
    }
    expect(n).toBeGreaterThan(0);
    expect(err?.message).toMatch(
      new RegExp(`^cannot write the journal entry ${join(dir, 'run', 'results')}/\\S+: the disk is full \\(ENOSPC\\)`),
    );
    expect(err?.message).toContain(`${n} finished measurement(s) journalled in ${join(dir, 'run', 'results')} are intact`);
    expect(err?.message).toContain(`--resume ${join(dir, 'run')}`);
    expect(readdirSync(join(dir, 'run', 'results')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(
      Journal.open(join(dir, 'run'))
        .entries()
        .map((e) => e.result.variantId),
    ).toEqual(Array.from({ length: n }, (_, i) => `v${i}`));
  });

  const title1 = `a folder made read-only mid-run, and a profile saved into one${skipNote(!root && NOT_ROOT)}`;
  it.skipIf(!root)(title1, (ctx) => {
    const dir = tmpfs(1024);
    if (!dir) return ctx.skip(NO_TMPFS);
    const j = Journal.create(join(dir, 'run'), { model: 'm' });
    j.record('tune', 0, result(0, 10));
    execFileSync('mount', ['-o', 'remount,ro', dir]);
    expect(() => j.record('tune', 0, result(1, 10))).toThrow(
      /cannot write the journal entry .*read-only \(EROFS\).*\. 1 finished measurement/,
    );
    expect(() => saveProfile(qwen3Study(), join(dir, 'profiles'))).toThrow(
      new RegExp(`^cannot write the profile folder ${join(dir, 'profiles')}: the file system is read-only`),
    );
    expect(Journal.open(join(dir, 'run')).entries()).toHaveLength(1);
  });

  const title2 = `servelab --auto with a read-only run folder or a full --out: one line, servers stopped${skipNote(!root && NOT_ROOT)}`;
  it.skipIf(!root)(title2, async (ctx) => {
    const ro = tmpfs(256);
    const full = tmpfs(16);
    if (!ro || !full) return ctx.skip(NO_TMPFS);
    execFileSync('mount', ['-o', 'remount,ro', ro]);
    const cwd = tempDir('storage');
    dirs.push(cwd);
    const base = [
      '--auto',
      '--sim',
      '--model',
      'Qwen/Qwen3-14B',
      '--stages',
      'engine',
      '--engines',
      'vllm',
      '--scale',
      '0.02',
      '--validation',
      'sharegpt-like',
      '--port',
      String(testPort()),
    ];
    const a = await runCli([...base, '--run-dir', join(ro, 'run')], cwd);
    expect(a.code, a.stderr).toBe(2);
    expect(a.stderr.trim().split('\n')).toEqual([
      `servelab: cannot write the run folder ${join(ro, 'run')}: the file system is read-only (EROFS); choose another folder`,
    ]);
    // A full --out: the profile does not fit; the measurements are in the run folder.
    try {
      writeFileSync(join(full, 'pad'), Buffer.alloc(64 * 1024));
    } catch {
      // full now
    }
    const runDir = join(cwd, 'run');
    const b = await runCli([...base, '--run-dir', runDir, '--out', full, '--json'], cwd);
    const last = b.stderr.trim().split('\n').at(-1)!;
    expect(b.code, b.stderr.slice(-1500)).toBe(1);
    expect(last).toMatch(
      new RegExp(
        `^servelab: cannot write the profile( folder)? ${full}/profiles\\S*: the disk is full \\(ENOSPC\\).* [1-9]\\d* finished measurement\\(s\\) journalled in ${runDir}/results are intact`,
      ),
    );
    expect(survivors(launchedPorts(b.events))).toEqual([]);
    expect(Journal.open(runDir).entries().length).toBe(Number(/ (\d+) finished/.exec(last)![1]));
    removeDir(runDir);
  });
});
