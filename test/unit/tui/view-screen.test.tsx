// `servelab view` on a terminal: the Results screen, fed by the projection of a journal, says
// when the run was interrupted and shows what it measured.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { projectSession } from '../../../src/core/view.js';
import { render, type Rendered } from '../../helpers/render.js';
import { sessionEvents } from '../../helpers/tui/fixtures.js';
import { ViewScreen } from '../../../src/screens/ViewScreen.js';

let r: Rendered | undefined;
afterEach(() => {
  r?.unmount();
  r = undefined;
});

describe('view on a terminal', () => {
  it('marks an interrupted run and shows its stage table with the core gains', async () => {
    // The stream stops after the engine stage: no session-finished.
    const events = sessionEvents();
    const cut = events.findIndex((e) => e.type === 'stage-started' && e.stage === 'quantization');
    const view = projectSession(events.slice(0, cut + 2), { ended: true });
    expect(view.status).toBe('interrupted');
    r = render(<ViewScreen view={view} />, { columns: 100, rows: 30 });
    const f = await r.waitForFrame('5/6 Results');
    expect(f).toContain('INTERRUPTED');
    expect(f).toMatch(/winner sglang.* \(\+11\.1% vs the baseline vllm/);
    expect(f).toMatch(/vllm\S*\s.*9,000\s+ref/);
    await r.press('right');
    const q = await r.waitForFrame('[quantization]');
    expect(q).toMatch(/fp8/);
  });
});
