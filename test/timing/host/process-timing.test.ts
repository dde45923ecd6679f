// Start-up failures of real child processes (a stand-in HTTP engine) end at the time-out, at once
// on death, or after the fatal grace, never at the long time-out. Those are bounds on the wall
// clock, so this file runs in the timing pass.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { vllm } from '../../../src/engines/vllm/adapter.js';
import { allGone, fakeSpec, serverLauncher, workerPid } from '../../helpers/host/helpers.js';
import { freeTestPort } from '../../helpers/ports.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'servelab-proc-'));
let n = 0;
const { launch, stopAll } = serverLauncher(() => path.join(root, `run${n++}`));
const port = freeTestPort;

afterEach(stopAll);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('launchServer', () => {
  it('a server that never becomes ready is stopped at the time-out and reported', async () => {
    const p = await port();
    const h = await launch(fakeSpec(p, ['--never-ready', '--worker']));
    const t0 = Date.now();
    const r = await h.waitReady(1500);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(r.ready).toBe(false);
    if (r.ready) return;
    expect(r.failure.kind).toBe('startup-timeout');
    expect(r.failure.evidence?.join('\n')).toContain('still loading');
    expect(r.exit.timedOut).toBe(true);
    expect(h.exit).toBeDefined();
    expect(allGone([h.pid, workerPid(h.tail())])).toBe(true);
  });

  it('a server that dies is classified from its log at once, not at the time-out', async () => {
    const p = await port();
    const msg = "ValueError: Invalid repository ID or local directory specified: 'nope/nope'. Please verify";
    const h = await launch(fakeSpec(p, ['--fail', msg, '--code', '1', '--delay-ms', '100']), {
      classify: (lines, exit) => vllm.classifyFailure(lines, exit),
    });
    const r = await h.waitReady(60_000);
    expect(r.ready).toBe(false);
    if (r.ready) return;
    expect(r.startupS).toBeLessThan(30);
    expect(r.exit).toEqual({ code: 1, signal: null });
    expect(r.failure.kind).toBe('model-not-found');
    expect(r.failure.evidence).toContain(msg);
  });

  it('a server that logs a fatal error and hangs is stopped after the fatal grace, not the time-out', async () => {
    const p = await port();
    const h = await launch(fakeSpec(p, ['--never-ready', '--say', '[TRT-LLM] [E] torch.OutOfMemoryError: CUDA out of memory.']), {
      fatalGraceMs: 300,
    });
    const t0 = Date.now();
    const r = await h.waitReady(60_000);
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(r.ready).toBe(false);
    if (!r.ready) expect(r.failure.kind).toBe('oom');
    expect(allGone([h.pid])).toBe(true);
  });
});
