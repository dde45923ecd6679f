// The workbench on the real core: a whole tuning session on the simulated host, driven only by
// key presses, ending with a saved profile; and Ctrl+C mid-run, which must stop the server
// before exiting and leave the finished variants in the journal.
import React from 'react';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/screens/app.js';
import { openSettings } from '../../../src/core/settings.js';
import { liveServers, stopAllServers } from '../../../src/host/registry.js';
import { formatCommand } from '../../../src/core/shell-quote.js';
import { Journal } from '../../../src/tune/context/journal.js';
import { shellWords } from '../../../src/tui/base/format.js';
import { realServices } from '../../../src/tui/services/workbench.js';
import { parseTuiFlags } from '../../../src/cli/auto-args.js';
import { colourTheme } from '../../../src/tui/base/theme.js';
import { render, type Rendered } from '../../helpers/render.js';
import { testPort } from '../../helpers/ports.js';

let dir: string;
let r: Rendered | undefined;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'servelab-tui-'));
});

afterEach(async () => {
  r?.unmount();
  r = undefined;
  await stopAllServers({ graceMs: 500 });
  rmSync(dir, { recursive: true, force: true });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** A small plan: two engines on defaults, then the quantization stage; tiny workload, fast clock. */
function start(extra: string[] = []) {
  const argv = [
    '--sim',
    '--gpu',
    'H100',
    '--gpus',
    '1',
    '--speed',
    '40',
    '--model',
    'Qwen/Qwen3-14B',
    '--engines',
    'vllm,sglang',
    '--stages',
    'engine,quantization',
    '--scenario',
    'random:64/32',
    '--num-prompts',
    '12',
    '--validation',
    'none',
    '--warmup',
    '1',
    '--out',
    dir,
    '--runs-dir',
    join(dir, 'runs'),
    '--port',
    String(testPort()),
    ...extra,
  ];
  const { services, defaults } = realServices({ flags: parseTuiFlags(argv), settings: openSettings(join(dir, 'conf')) });
  const exits: number[] = [];
  r = render(<App services={services} defaults={defaults} onExit={(c) => exits.push(c)} theme={colourTheme} />, { columns: 100, rows: 40 });
  // Every server pid the session starts, seen while it is alive.
  const pids = new Set<number>();
  const watch = setInterval(() => liveServers().forEach((s) => pids.add(s.pid)), 20);
  return { r, exits, pids, stopWatch: () => clearInterval(watch) };
}

describe('a session on the simulated host, by key presses', () => {
  it('goes from Host to Save with defaults and Enter, and the saved profile holds the winner shown', async () => {
    const { r, exits, pids, stopWatch } = start();
    await r.waitForFrame('simulated host (--sim)', 20_000);
    expect(r.frame()).toContain('GPU count ‹ 1 ›');
    await r.press('enter');
    await r.waitForFrame('Qwen3ForCausalLM');
    expect(r.frame()).toMatch(/Input tokens\s+64/);
    await r.press('enter');
    let f = await r.waitForFrame(/engine on defaults: 2 candidates/, 20_000);
    expect(f).toContain('quantization');
    expect(f).toContain('local optimum');
    await r.press('enter');
    await r.waitForFrame('4/6 Run');
    // Live panels appear while a benchmark runs.
    await r.waitForFrame(/benchmarking .*12 prompts/, 30_000);
    f = await r.waitForFrame('Tuning finished.', 50_000);
    stopWatch();
    expect(f).toMatch(/✓ engine\s+vllm/);
    expect(f).toMatch(/── stage engine: /);
    expect(pids.size).toBeGreaterThanOrEqual(2);
    await r.press('enter');
    f = await r.waitForFrame('5/6 Results');
    // The winner's whole command as drawn: "$ " on the first line, continuations indented.
    const lines = f.split('\n');
    const first = lines.findIndex((l) => l.startsWith('$ '));
    expect(first).toBeGreaterThanOrEqual(0);
    const drawn = [lines[first]!.slice(2)];
    for (let i = first + 1; drawn.at(-1)!.endsWith('\\') && i < lines.length; i++) drawn.push(lines[i]!.trim());
    const shown = drawn.map((l) => l.replace(/\s*\\$/, '')).join(' ');
    await r.press('enter');
    f = await r.waitForFrame('6/6 Save');
    expect(f).toContain('Profile saved.');
    const profilePath = /profile\s+(\S+\.json)/.exec(f)![1]!;
    expect(profilePath.startsWith(dir)).toBe(true);
    const profile = JSON.parse(readFileSync(profilePath, 'utf8')) as {
      engineArgv: string[];
      env: Record<string, string>;
      model: string;
      host: { simulated: boolean };
    };
    expect(profile.model).toBe('Qwen/Qwen3-14B');
    expect(profile.host.simulated).toBe(true);
    // The command the Results screen shows is the profile's, whole: every word, in order.
    expect(shellWords(shown)).toEqual(shellWords(formatCommand(profile.engineArgv, profile.env)));
    expect(shellWords(shown).length).toBeGreaterThan(3);
    expect(f).toContain(`npx servelab replay ${profilePath} --sim`);
    await r.press('enter');
    await expect.poll(() => exits).toEqual([0]);
    expect([...pids].filter(alive)).toEqual([]);
  });

  it('Ctrl+C on the Run screen stops the server first, exits 130, and the journal keeps what finished', async () => {
    const { r, exits, pids, stopWatch } = start();
    await r.waitForFrame('GPU count', 20_000);
    await r.press('enter');
    await r.waitForFrame('Qwen3ForCausalLM');
    await r.press('enter');
    await r.waitForFrame(/engine on defaults: 2 candidates/, 20_000);
    await r.press('enter');
    // Wait until one variant has finished and the next server is up (vllm: SGLang, predicted
    // faster, runs first).
    await r.waitForFrame(/✓ engine/, 40_000);
    await r.waitForFrame((fr) => /● (launching|ready|warming up|benchmarking)\s+vllm/.test(fr), 20_000);
    await expect.poll(() => liveServers().length, { timeout: 10_000 }).toBeGreaterThan(0);
    const running = liveServers().map((s) => s.pid);
    await r.press('ctrl+c');
    await expect.poll(() => exits, { timeout: 30_000 }).toEqual([130]);
    stopWatch();
    // Stopped before the app exited: nothing registered, no pid alive.
    expect(liveServers()).toEqual([]);
    expect([...pids, ...running].filter(alive)).toEqual([]);
    const runs = readdirSync(join(dir, 'runs'));
    expect(runs).toHaveLength(1);
    const entries = Journal.open(join(dir, 'runs', runs[0]!)).entries();
    expect(entries.some((e) => e.result.status === 'ok' && e.result.stage === 'engine')).toBe(true);
  });
});
