// Acceptance: the headless summary and the TUI's Results screen show the same stage tables,
// gains, references and winner for `--engines sglang,vllm --baseline trtllm`, because both are
// the core's projection of one event stream. The stream comes from a real runSession with a
// scripted runner (no process); the TUI is the whole App fed that stream.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from '../../../src/screens/app.js';
import type { TuneEvent } from '../../../src/core/events.js';
import { projectSession } from '../../../src/core/view.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { runSession } from '../../../src/tune/session/session.js';
import { summaryText } from '../../../src/cli/text.js';
import { runReducer, initialRunState } from '../../../src/tui/state/run.js';
import { stageTables } from '../../../src/tui/state/results.js';
import { colourTheme } from '../../../src/tui/base/theme.js';
import { render, type Rendered } from '../../helpers/render.js';
import { scriptedRunner } from '../../helpers/tune/scripted-runner.js';
import { enterRun } from '../../helpers/tui/walk.js';
import { defaults, fakeServices, scripted } from '../../helpers/tui/fixtures.js';

let r: Rendered | undefined;
const dir = mkdtempSync(join(tmpdir(), 'servelab-agree-'));
afterEach(() => {
  r?.unmount();
  r = undefined;
});

async function sessionStream(): Promise<TuneEvent[]> {
  const { config } = parseAutoArgs([
    '--sim',
    '--model',
    'Qwen/Qwen3-14B',
    '--engines',
    'sglang,vllm',
    '--baseline',
    'trtllm',
    '--stages',
    'engine,attention',
    '--scale',
    '0.02',
    '--validation',
    'none',
    '--out',
    dir,
    '--run-dir',
    join(dir, 'run'),
  ]);
  const { run } = scriptedRunner({ sglang: 1200, vllm: 1000, 'sglang-attn-triton': 1300 }, 1190);
  const events: TuneEvent[] = [];
  await runSession(config!, { runner: run, onEvent: (e) => events.push(e) });
  rmSync(dir, { recursive: true, force: true });
  return events;
}

describe('headless and TUI agree', () => {
  it('show the same stage tables, gains, references and winner', async () => {
    const events = await sessionStream();
    // Headless: what `servelab --auto` prints, from the projection it builds while listening.
    const headless = projectSession(events);
    const text = summaryText(headless);
    // TUI: the run reducer's tables, built from the same stream.
    const run = runReducer(runReducer(initialRunState, { type: 'started', now: 0 }), { type: 'events', events, now: 1 });
    const tables = stageTables(run, { labels: {}, gpus: 1 });

    expect(tables.map((t) => t.stage)).toEqual(['engine', 'attention']);
    for (const t of tables) {
      const s = headless.stages.find((x) => x.name === t.stage)!;
      expect(t.winnerId).toBe(s.verdict!.winnerId);
      expect(t.referenceId).toBe(s.verdict!.referenceId);
      expect(t.rows.map((row) => [row.result.variantId, row.gainPct])).toEqual(s.rows.map((row) => [row.result.variantId, row.gainPct]));
    }
    const [engine, attention] = tables;
    // The engine stage is measured against the baseline the core used (vllm: trtllm did not run).
    expect(engine).toMatchObject({ winnerId: 'sglang', referenceId: 'vllm', baselineId: 'vllm' });
    expect(engine!.rows.find((row) => row.isReference)?.result.variantId).toBe('vllm');
    expect(attention).toMatchObject({ winnerId: 'sglang-attn-triton', referenceId: 'sglang', carriedId: 'sglang' });
    expect(run.view.winner?.variantId).toBe(headless.winner?.variantId);

    expect(text).toContain('stage gain: +20.0% vs the baseline vllm; kept sglang');
    expect(text).toContain('stage gain: +8.3% vs the carried winner sglang; kept sglang-attn-triton');
    expect(text).toMatch(/vllm\s+ok\s+1000\.0.*\sref(\s|$)/m);
    expect(text).toContain('Winner: sglang-attn-triton');

    // The Results screen itself, through the whole App.
    const session = scripted(events);
    r = render(
      <App
        services={fakeServices({ session: () => session.start })}
        defaults={defaults}
        onExit={() => {}}
        theme={colourTheme}
        throttleMs={10}
      />,
      { columns: 100, rows: 30 },
    );
    await enterRun(r);
    session.rest();
    await r.waitForFrame('Tuning finished.');
    await r.press('enter');
    let f = await r.waitForFrame('5/6 Results');
    f = f.slice(f.lastIndexOf('5/6 Results'));
    expect(f).toMatch(/winner sglang defaults \(\+20\.0% vs the baseline vllm defaults\)/);
    expect(f).not.toContain('the first variant');
    expect(f).toMatch(/vllm defaults\s+1,000\s+ref/);
    expect(f).toMatch(/sglang defaults\s+1,200\s+\+20\.0%/);
    await r.press('right');
    f = await r.waitForFrame('[attention]');
    f = f.slice(f.lastIndexOf('5/6 Results'));
    expect(f).toMatch(/winner .*triton.* \(\+8\.3% vs sglang defaults \(carried in\)\)/);
    expect(f).toContain('Winner: sglang attn=triton');
  });
});
