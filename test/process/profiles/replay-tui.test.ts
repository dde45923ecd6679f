// `servelab replay` on a terminal: the replay screen is chosen only without --auto, --json and
// --yes; whatever the screen returns is recorded and turned into an exit code as headless does.
// The last test drives the real command in a pseudo-terminal (util-linux `script`), keys and all.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import replay from '../../../src/commands/replay.js';
import { liveServers, stopAllServers } from '../../../src/host/registry.js';
import { shellQuote } from '../../../src/core/shell-quote.js';
import type { Profile } from '../../../src/profiles/schema/profile.js';
import { serializeProfile } from '../../../src/profiles/store/store.js';
import { qwen3Study } from '../../../scripts/studies.js';
import { openSettings } from '../../../src/core/settings.js';
import type { ReplayOutcome } from '../../../src/tune/replay/replay.js';
import type { ReplayTuiInput, ReplayTuiResult } from '../../../src/screens/ReplayScreen.js';
import { skipNote } from '../../helpers/skip.js';
import { testPort } from '../../helpers/ports.js';
import { BIN as bin } from '../../helpers/bin.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const PORT_BASE = testPort();

let dir: string;
const children = new Set<ChildProcess>();
const savedConfigDir = process.env.SERVELAB_CONFIG_DIR;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'servelab-replay-tui-cmd-'));
  process.env.SERVELAB_CONFIG_DIR = join(dir, 'config');
});
afterEach(async () => {
  await stopAllServers({ graceMs: 500 });
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  if (savedConfigDir === undefined) delete process.env.SERVELAB_CONFIG_DIR;
  else process.env.SERVELAB_CONFIG_DIR = savedConfigDir;
  rmSync(dir, { recursive: true, force: true });
});

/** The Qwen3 winner as a user's own profile, measured on a small random workload. */
function smallProfile(): Profile {
  const p = qwen3Study();
  p.source = 'session';
  p.workload = {
    scenario: 'random-1024-8',
    label: 'random 1024/8',
    dataset: 'random',
    inputLen: 1024,
    outputLen: 8,
    numPrompts: 64,
    seed: 42,
    maxConcurrency: 16,
    requestRate: null,
  };
  return p;
}

function write(name: string, p: Profile = smallProfile()): string {
  const f = join(dir, name);
  writeFileSync(f, serializeProfile(p));
  return f;
}

const read = (f: string) => JSON.parse(readFileSync(f, 'utf8')) as Profile;
const args = (f: string, port: number, ...more: string[]) => [
  f,
  '--sim',
  '--speed',
  '10',
  '--port',
  String(port),
  '--runs-dir',
  dir,
  ...more,
];

/** A stand-in for the screen that records what it was given and answers as a user would. */
function fakeScreen(answer: (input: ReplayTuiInput) => Promise<ReplayTuiResult>) {
  const calls: ReplayTuiInput[] = [];
  return {
    calls,
    tui: async (input: ReplayTuiInput & { signal?: AbortSignal }) => {
      calls.push(input);
      return answer(input);
    },
  };
}

describe('replay on a terminal', () => {
  it('--auto and --json stay headless (and so still need --yes)', async () => {
    const f = write('headless.json');
    const screen = fakeScreen(async () => ({ consented: true, outcome: null, aborted: false }));
    const deps = { isTerminal: () => true, tui: screen.tui };
    await expect(replay(args(f, PORT_BASE, '--auto'), deps)).rejects.toThrow(/needs consent: pass --yes/);
    await expect(replay(args(f, PORT_BASE, '--json'), deps)).rejects.toThrow(/needs consent: pass --yes/);
    expect(screen.calls).toHaveLength(0);
    expect(read(f).replays).toHaveLength(0);
  });

  it('without a terminal the screen is not used', async () => {
    const f = write('no-tty.json');
    const screen = fakeScreen(async () => ({ consented: true, outcome: null, aborted: false }));
    await expect(replay(args(f, PORT_BASE), { isTerminal: () => false, tui: screen.tui })).rejects.toThrow(/needs consent/);
    expect(screen.calls).toHaveLength(0);
  });

  it('declined on the screen: nothing runs or is recorded, exit 1', async () => {
    const f = write('declined.json');
    const screen = fakeScreen(async () => ({ consented: false, outcome: null, aborted: false }));
    expect(await replay(args(f, PORT_BASE), { isTerminal: () => true, tui: screen.tui })).toBe(1);
    expect(screen.calls).toHaveLength(1);
    // The screen was given the exact command that would run: the simulated server.
    expect(screen.calls[0]!.setup.spec.argv).toContain('sim-serve');
    expect(read(f).replays).toHaveLength(0);
    expect(liveServers()).toEqual([]);
  });

  it('interrupted on the screen: nothing recorded, exit 130', async () => {
    const f = write('aborted.json');
    const screen = fakeScreen(async () => ({ consented: true, outcome: null, aborted: true }));
    expect(await replay(args(f, PORT_BASE), { isTerminal: () => true, tui: screen.tui })).toBe(130);
    expect(read(f).replays).toHaveLength(0);
  });

  it('a record that cannot be written says so and keeps the verdict and its exit code', async () => {
    // A study profile records into the user's folder; here that folder cannot be made.
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, '');
    const settings = openSettings();
    settings.set('profiles-dir', join(blocker, 'profiles'));
    const study = smallProfile();
    study.source = 'study';
    const f = write('unrecordable.json', study);
    const before = readFileSync(f, 'utf8');
    const screen = fakeScreen(async (input) => {
      const p = input.setup.profile;
      const now = new Date().toISOString();
      const outcome: ReplayOutcome = {
        result: {
          variantId: p.variant.id,
          stage: 'replay',
          scenario: 'random-1024-8',
          status: 'failed',
          variant: p.variant,
          argv: input.setup.spec.argv,
          failure: { kind: 'crash', reason: 'exited with code 1' },
          startedAt: now,
          finishedAt: now,
        },
        judgement: null,
        record: {
          at: now,
          servelabVersion: '0.1.0',
          host: input.setup.current,
          simulated: true,
          verdict: 'failed',
          tolerancePct: 5,
          reasons: ['exited with code 1'],
        },
        exitCode: 1,
      };
      return { consented: true, outcome, aborted: false };
    });
    const lines: string[] = [];
    const write0 = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => (lines.push(String(chunk)), true)) as typeof process.stdout.write;
    let code: number;
    try {
      code = await replay(args(f, PORT_BASE), { isTerminal: () => true, tui: screen.tui });
    } finally {
      process.stdout.write = write0;
      settings.unset('profiles-dir');
    }
    expect(code).toBe(1);
    expect(lines.join('')).toMatch(/^history: not recorded: .*(ENOTDIR|not a directory)/m);
    expect(readFileSync(f, 'utf8')).toBe(before);
  });

  it("runs the real replay through the screen's run, records it and exits with its code", async () => {
    const f = write('ran.json');
    const screen = fakeScreen(async (input) => {
      const ctl = new AbortController();
      const events: string[] = [];
      const outcome = await input.run((e) => events.push(e.type), ctl.signal);
      expect(events).toContain('server-ready');
      return { consented: true, outcome, aborted: false };
    });
    const code = await replay(args(f, PORT_BASE + 50), { isTerminal: () => true, tui: screen.tui });
    const history = read(f).replays;
    expect(history).toHaveLength(1);
    expect(code).toBe(history[0]!.verdict === 'regression' ? 3 : history[0]!.verdict === 'failed' ? 1 : 0);
    expect(history[0]!.metrics?.completed).toBe(64);
    expect(liveServers()).toEqual([]);
  });
});

const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const NO_SCRIPT = 'no `script` command for a pseudo-terminal';
const strip = (s: string) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\x1b[()][A-Z0-9]/g, '');

describe('replay in a real terminal', () => {
  const title = `asks by key, runs, shows recorded vs now and the verdict, records it, exits with its code${skipNote(!hasScript && NO_SCRIPT)}`;
  it.skipIf(!hasScript)(title, async () => {
    const f = write('pty.json');
    const cmd = `stty cols 100 rows 30; exec ${shellQuote(process.execPath)} ${shellQuote(bin)} replay ${args(f, PORT_BASE + 100)
      .map(shellQuote)
      .join(' ')}`;
    const env: NodeJS.ProcessEnv = { ...process.env, SERVELAB_CONFIG_DIR: join(dir, 'config') };
    delete env.CI;
    delete env.CONTINUOUS_INTEGRATION;
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], { cwd: repo, stdio: ['pipe', 'pipe', 'pipe'], env });
    children.add(child);
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const waitFor = async (re: RegExp, ms: number) => {
      const deadline = Date.now() + ms;
      while (!re.test(strip(out))) {
        if (Date.now() > deadline) throw new Error(`no ${re} on the terminal; it shows:\n${strip(out).slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    await waitFor(/Run this command on this host\?/, 30_000);
    expect(read(f).replays).toHaveLength(0);
    child.stdin!.write('\r');
    await waitFor(/verdict: \w+/, 60_000);
    const screen = strip(out);
    expect(screen).toMatch(/metric\s+recorded\s+now\s+delta/);
    child.stdin!.write('\r');
    const code = await closed;
    children.delete(child);
    const history = read(f).replays;
    expect(history).toHaveLength(1);
    expect(strip(out)).toContain(`verdict: ${history[0]!.verdict}`);
    expect(strip(out)).toContain(`history: appended to ${f}`);
    expect(code).toBe(history[0]!.verdict === 'regression' ? 3 : history[0]!.verdict === 'failed' ? 1 : 0);
    // The core's warnings (e.g. no tokenizer cached) wait until the screen has closed.
    const text = strip(out);
    const warn = text.indexOf('servelab: warn:');
    if (warn >= 0) expect(warn).toBeGreaterThan(text.lastIndexOf('verdict: '));
  });
});
