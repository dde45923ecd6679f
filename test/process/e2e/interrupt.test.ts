// Acceptance: SIGINT, SIGTERM or SIGHUP mid-run stops the current server, records the partial
// state, exits 128+n; the journal holds every finished variant and --resume finishes the run
// without re-running them.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TuneEvent } from '../../../src/core/events.js';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { launchedIds, launchedPorts, leftBehind, removeDir, runCli, survivors, tempDir } from '../../helpers/e2e/cli.js';
import { testPort } from '../../helpers/ports.js';

const dirs: string[] = [];
const ports: number[] = [];
afterAll(() => {
  for (const pid of survivors(ports)) process.kill(pid, 'SIGKILL');
  for (const d of dirs) removeDir(d);
});

const CASES: { signal: NodeJS.Signals; code: number; at: TuneEvent['type'] }[] = [
  { signal: 'SIGINT', code: 130, at: 'bench-started' },
  { signal: 'SIGTERM', code: 143, at: 'variant-launching' },
  { signal: 'SIGHUP', code: 129, at: 'server-ready' },
];

describe('interrupting servelab --auto', () => {
  it.each(CASES)('$signal at $at: exit $code, journal kept, --resume finishes without re-running', async ({ signal, code, at }) => {
    const cwd = tempDir(`e2e-${signal}`);
    dirs.push(cwd);
    const runDir = join(cwd, 'run');
    const port = String(testPort());
    let sent = false;
    const first = await runCli(
      [
        '--auto',
        '--sim',
        '--model',
        'Qwen/Qwen3-14B',
        '--stages',
        'engine',
        '--engines',
        'vllm,sglang',
        '--scale',
        '0.02',
        '--validation',
        'sharegpt-like',
        '--run-dir',
        runDir,
        '--port',
        port,
        '--json',
        // (both measured in full: early stop would stop vLLM against SGLang, which runs first)
        '--no-early-stop',
        // (one run each: the journal is under test here; a tied pair's confirmation runs would add launches)
        '--repeats-max',
        '1',
      ],
      cwd,
      (e, child) => {
        // Interrupt the second variant (vllm: SGLang, predicted faster, runs first) once the first has finished.
        const id = 'variantId' in e ? e.variantId : undefined;
        if (!sent && e.type === at && id === 'vllm') {
          sent = true;
          child.kill(signal);
        }
      },
    );
    ports.push(...launchedPorts(first.events));
    expect(sent, first.stderr.slice(-2000)).toBe(true);
    expect(first.code, first.stderr.slice(-2000)).toBe(code);
    expect(first.stderr).toContain(`--resume ${runDir}`);

    // The partial state: sglang finished and journaled; the run marked interrupted by this signal.
    const state = JSON.parse(readFileSync(join(runDir, 'session.json'), 'utf8'));
    expect(state).toMatchObject({ status: 'interrupted', signal, exitCode: code });
    expect(state.current?.variantId).toBe('vllm');
    const files = readdirSync(join(runDir, 'results'));
    expect(files).toHaveLength(1);
    const entry = JSON.parse(readFileSync(join(runDir, 'results', files[0]!), 'utf8'));
    expect(entry.result).toMatchObject({ variantId: 'sglang', status: 'ok' });
    expect(readdirSync(join(runDir, 'results')).some((f) => f.endsWith('.tmp'))).toBe(false);
    // The interrupted server is gone.
    expect(await leftBehind(first.events)).toEqual([]);
    expect(survivors(launchedPorts(first.events))).toEqual([]);
    expect(existsSync(join(cwd, 'profiles'))).toBe(false);

    const resumed = await runCli(['--auto', '--resume', runDir, '--json'], cwd);
    ports.push(...launchedPorts(resumed.events));
    expect(resumed.code, resumed.stderr.slice(-2000)).toBe(0);
    expect(launchedIds(resumed.events)).toEqual(['vllm']);
    expect(resumed.stderr).toMatch(/1 finished measurement\(s\) are reused/);
    const done = resumed.events.at(-1) as Extract<TuneEvent, { type: 'session-finished' }>;
    const p = loadProfile(done.profilePath!);
    const sglang = p.stages[0]!.results.find((r) => r.variantId === 'sglang')!;
    // The journaled measurement is the one in the profile, not a new one.
    expect(sglang.startedAt).toBe(entry.result.startedAt);
    expect(sglang.metrics!.total_token_throughput).toBe(entry.result.metrics.total_token_throughput);
    expect(p.stages[0]!.results.map((r) => r.status)).toEqual(['ok', 'ok']);
    expect(JSON.parse(readFileSync(join(runDir, 'session.json'), 'utf8')).status).toBe('finished');
    expect(await leftBehind(resumed.events)).toEqual([]);
  });
});
