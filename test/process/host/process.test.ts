// Launch, readiness, failure and teardown of real child processes (a stand-in HTTP engine).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { engineLaunchHooks } from '../../../src/engines/launch-hooks.js';
import { waitGpuReleased } from '../../../src/host/gpu-procs.js';
import { findFreePort, isListening, PortInUseError } from '../../../src/host/ports.js';
import { launchServer } from '../../../src/host/process.js';
import { pidAlive } from '../../../src/host/procgroup.js';
import { liveServers, stopAllServers } from '../../../src/host/registry.js';
import { allGone, fakeSpec, serverLauncher, waitFor, workerPid } from '../../helpers/host/helpers.js';
import { freeTestPort } from '../../helpers/ports.js';
import { vllm } from '../../../src/engines/vllm/adapter.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'servelab-proc-'));
let n = 0;
const runDir = () => path.join(root, `run${n++}`);
const port = freeTestPort;
const { launch, stopAll } = serverLauncher(runDir);

afterEach(stopAll);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('launchServer', () => {
  it('launches, becomes ready on /health, logs, and stops the whole group', async () => {
    const p = await port();
    const lines: string[] = [];
    const h = await launch(fakeSpec(p, ['--delay-ms', '200', '--worker']), { onLine: (l) => lines.push(l) });
    expect(liveServers()).toContain(h);
    const r = await h.waitReady(20_000);
    expect(r.ready).toBe(true);
    expect(await isListening(p)).toBe(true);
    const worker = workerPid(h.tail());
    expect(pidAlive(worker)).toBe(true);
    expect(lines).toContain('INFO:     Application startup complete.');
    const exit = await h.stop();
    expect(exit.signal).toBe('SIGTERM');
    expect(await isListening(p)).toBe(false);
    expect(allGone([h.pid, worker])).toBe(true);
    expect(liveServers()).not.toContain(h);
    expect(readFileSync(h.logPath, 'utf8')).toContain('Application startup complete.');
  });

  it('is not ready while /health answers 503 (SGLang warm-up)', async () => {
    const p = await port();
    const h = await launch(fakeSpec(p, ['--health-503-ms', '800']));
    const r = await h.waitReady(20_000);
    expect(r.ready).toBe(true);
    expect(r.startupS).toBeGreaterThanOrEqual(0.8);
  });

  it('escalates to SIGKILL when SIGTERM is ignored, and takes the workers with it', async () => {
    const p = await port();
    const h = await launch(fakeSpec(p, ['--ignore-term', '--worker']));
    expect((await h.waitReady(20_000)).ready).toBe(true);
    const worker = workerPid(h.tail());
    const exit = await h.stop({ graceMs: 400 });
    expect(exit.signal).toBe('SIGKILL');
    expect(allGone([h.pid, worker])).toBe(true);
    expect(h.tail()).toContain('ignoring SIGTERM');
  });

  it('a server that dies on its own leaves no worker behind', async () => {
    const p = await port();
    const h = await launch(fakeSpec(p, ['--worker', '--fail', 'boom', '--delay-ms', '300']));
    await h.exited;
    const worker = workerPid(h.tail());
    expect(await waitFor(() => allGone([worker]), 10_000)).toBe(true);
  });

  it('an abort signal stops the server', async () => {
    const p = await port();
    const ac = new AbortController();
    const h = await launch(fakeSpec(p, ['--never-ready']), { signal: ac.signal });
    setTimeout(() => ac.abort(), 300);
    const r = await h.waitReady(30_000);
    expect(r.ready).toBe(false);
    if (!r.ready) expect(r.failure.kind).toBe('aborted');
    expect(allGone([h.pid])).toBe(true);
  });

  it('writes the spec files before launch (TRT-LLM YAML)', async () => {
    const p = await port();
    const dir = runDir();
    const spec = { ...fakeSpec(p), files: [{ path: path.join(dir, 'extra.yaml'), content: 'enable_iter_perf_stats: true\n' }] };
    const h = await launch(spec, { runDir: dir });
    expect(readFileSync(path.join(dir, 'extra.yaml'), 'utf8')).toBe('enable_iter_perf_stats: true\n');
    await h.stop({ graceMs: 500 });
  });

  it('keeps only a bounded tail in memory but the whole log on disk', async () => {
    const p = await port();
    let seen = 0;
    const h = await launch(fakeSpec(p, ['--never-ready']), { tailLines: 5, onLine: (l) => void (l === 'still loading...' && seen++) });
    await waitFor(() => seen >= 8, 10_000);
    await h.stop({ graceMs: 500 });
    expect(h.tail()).toHaveLength(5);
    expect(
      readFileSync(h.logPath, 'utf8')
        .split('\n')
        .filter((l) => l === 'still loading...').length,
    ).toBeGreaterThan(5);
  });

  it('stopAllServers stops every live server', async () => {
    const [p1, p2] = [await port(), await port()];
    const a = await launch(fakeSpec(p1));
    const b = await launch(fakeSpec(p2 === p1 ? p1 + 1 : p2));
    await stopAllServers({ graceMs: 1000 });
    expect(allGone([a.pid, b.pid])).toBe(true);
    expect(liveServers()).not.toContain(a);
  });
});

describe('bad input', () => {
  it('a busy port is refused before launch', async () => {
    const p = await port();
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(p, '127.0.0.1', r));
    try {
      await expect(launchServer(fakeSpec(p), { runDir: runDir(), ...engineLaunchHooks() })).rejects.toThrow(PortInUseError);
    } finally {
      await new Promise((r) => s.close(r));
    }
  });

  it('a busy internal port of the engine is refused too', async () => {
    const p = await port();
    const extra = await findFreePort({ from: p + 1 });
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(extra, '127.0.0.1', r));
    try {
      await expect(launchServer({ ...fakeSpec(p), extraPorts: [extra] }, { runDir: runDir(), ...engineLaunchHooks() })).rejects.toThrow(
        `port ${extra} on 127.0.0.1 is already in use`,
      );
    } finally {
      await new Promise((r) => s.close(r));
    }
  });

  it('an engine that is not installed is a one-line UserError', async () => {
    const p = await port();
    const spec = { ...fakeSpec(p), argv: ['trtllm-serve-not-installed', 'model'] };
    const err = await launchServer(spec, { runDir: runDir(), ...engineLaunchHooks() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe("cannot start 'trtllm-serve-not-installed': not found (is the engine installed and on PATH?)");
  });
});

describe('docker runtime', () => {
  const ORIGINAL_PATH = process.env.PATH;
  afterEach(() => {
    process.env.PATH = ORIGINAL_PATH;
  });

  it('an image that does not exist is refused before launch, in one line', async () => {
    const bin = path.join(root, 'fake-docker');
    mkdirSync(bin, { recursive: true });
    writeFileSync(path.join(bin, 'docker'), '#!/bin/sh\necho "Error: No such image: $5" >&2\nexit 1\n');
    chmodSync(path.join(bin, 'docker'), 0o755);
    process.env.PATH = bin;
    const p = await port();
    const spec = vllm.command(
      { id: 'd', engine: 'vllm', model: 'Qwen/Qwen3-14B', knobs: {} },
      { host: '127.0.0.1', port: p, runDir: runDir(), runtime: { kind: 'docker', image: 'vllm/vllm-openai:nope' } },
    );
    const err = await launchServer(spec, { runDir: runDir(), ...engineLaunchHooks() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UserError);
    expect((err as Error).message).toBe(
      "docker image 'vllm/vllm-openai:nope' was not found locally; pull it first with: docker pull vllm/vllm-openai:nope",
    );
  });
});

describe('GPU memory release', () => {
  const FIX = fileURLToPath(new URL('../../fixtures/nvidia-smi/compute-apps', import.meta.url));
  const ORIGINAL = { PATH: process.env.PATH, APPS: process.env.FAKE_SMI_APPS };
  afterEach(() => {
    process.env.PATH = ORIGINAL.PATH;
    if (ORIGINAL.APPS === undefined) delete process.env.FAKE_SMI_APPS;
    else process.env.FAKE_SMI_APPS = ORIGINAL.APPS;
  });

  it('waits for our PIDs only, until they hold no GPU memory', async () => {
    const apps = path.join(root, 'apps.csv');
    process.env.PATH = `${FIX}${path.delimiter}${ORIGINAL.PATH}`;
    process.env.FAKE_SMI_APPS = apps;
    writeFileSync(apps, '1, 5000, GPU-x\n424242, 70000, GPU-x\n');
    // Someone else's process (PID 1) holding memory does not block us.
    expect(await waitGpuReleased([999999], 2000, 50)).toBe(true);
    // Ours does, until it lets go.
    const waiting = waitGpuReleased([424242], 10_000, 50);
    setTimeout(() => writeFileSync(apps, '1, 5000, GPU-x\n'), 300);
    expect(await waiting).toBe(true);
    writeFileSync(apps, '424242, 70000, GPU-x\n');
    expect(await waitGpuReleased([424242], 300, 50)).toBe(false);
  });
});
