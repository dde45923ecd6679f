// The replay screen over the profiles module's real replay, on the simulated host with a small
// workload: consent, live run, recorded vs now, verdict; and declining runs nothing.
import React from 'react';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { liveServers, stopAllServers } from '../../../src/host/registry.js';
import { executeReplay, prepareReplay, type ReplayOptions, type ReplaySetup } from '../../../src/tune/replay/replay.js';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { type ReplayTuiResult, ReplayScreen } from '../../../src/screens/ReplayScreen.js';
import { colourTheme } from '../../../src/tui/base/theme.js';
import { overflowingLines, render, type Rendered } from '../../helpers/render.js';
import { testPort } from '../../helpers/ports.js';

const PROFILE = fileURLToPath(new URL('../../../profiles/Qwen3-14B-H100x1.json', import.meta.url));
let dir: string;
let r: Rendered | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'servelab-replay-tui-'));
});
afterEach(async () => {
  r?.unmount();
  r = undefined;
  await stopAllServers({ graceMs: 500 });
  rmSync(dir, { recursive: true, force: true });
});

async function setUp(): Promise<{ setup: ReplaySetup; opts: ReplayOptions }> {
  const opts: ReplayOptions = {
    sim: true,
    speed: 40,
    tolerancePct: 5,
    readyTimeoutS: 60,
    logsDir: join(dir, 'logs'),
    bindHost: '127.0.0.1',
    portStart: testPort(),
    allowAnyCommand: false,
  };
  const setup = await prepareReplay(loadProfile(PROFILE), PROFILE, opts);
  // The recorded workload is the study's 1000 prompts; a few keep the test short.
  setup.scenario = { ...setup.scenario, numPrompts: 24 };
  return { setup, opts };
}

describe('replay screen', () => {
  it('shows the profile and its command, runs on Enter, and ends with recorded vs now and the verdict', async () => {
    const { setup, opts } = await setUp();
    const exits: ReplayTuiResult[] = [];
    r = render(
      <ReplayScreen
        setup={setup}
        run={(emit, signal) => executeReplay(setup, { ...opts, emit, signal })}
        onExit={(x) => exits.push(x)}
        theme={colourTheme}
      />,
      { columns: 80, rows: 24 },
    );
    let f = await r.waitForFrame('Run this command on this host?');
    expect(f).toContain('servelab · replay Qwen3-14B-H100x1.json');
    expect(f).toMatch(/model\s+Qwen\/Qwen3-14B\s+·\s+sglang/);
    expect(f).toContain('$ python3 -m sglang.launch_server');
    expect(f).toContain('24 prompts');
    // Both commands whole at 80 columns: nothing cut, the simulator's last word shown.
    expect(f).not.toContain('…');
    expect(overflowingLines(f, 80)).toEqual([]);
    expect(f).toContain('on the simulated host, as:');
    expect(f).toContain(setup.spec.argv.at(-1)!);
    expect(f.split('\n').length).toBeLessThan(24);
    await r.press('enter');
    await r.waitForFrame(/● (launching|ready|warming up|benchmarking)/, 20_000);
    f = await r.waitForFrame('verdict: ', 50_000);
    expect(f).toMatch(/metric\s+recorded\s+now\s+delta/);
    expect(overflowingLines(f, 80)).toEqual([]);
    expect(f.split('\n').length).toBeLessThan(24);
    expect(f).toMatch(/Total token throughput|total/i);
    await r.press('enter');
    await expect.poll(() => exits.length).toBe(1);
    const x = exits[0]!;
    expect(x.consented).toBe(true);
    expect(x.outcome).not.toBeNull();
    expect(f).toContain(`verdict: ${x.outcome!.judgement ? x.outcome!.judgement.verdict : 'failed'}`);
    expect(liveServers()).toEqual([]);
  });

  it('runs nothing when the user declines', async () => {
    const { setup } = await setUp();
    const exits: ReplayTuiResult[] = [];
    let ran = 0;
    r = render(
      <ReplayScreen
        setup={setup}
        run={async () => {
          ran++;
          throw new Error('must not run');
        }}
        onExit={(x) => exits.push(x)}
        theme={colourTheme}
      />,
    );
    await r.waitForFrame('Run this command on this host?');
    await r.press('q');
    await expect.poll(() => exits).toEqual([{ consented: false, outcome: null, aborted: false }]);
    expect(ran).toBe(0);
  });
});
