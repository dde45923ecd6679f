// The budget in the workbench: the Plan screen shows the core's projection against
// the budget, and the Run screen the budget left after the last launch (a budget-state event).
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/screens/app.js';
import { budgetPlanText } from '../../../src/core/view-budget.js';
import { colourTheme } from '../../../src/tui/base/theme.js';
import { render, type Rendered } from '../../helpers/render.js';
import { enterRun } from '../../helpers/tui/walk.js';
import { defaults, fakeServices, plan, scripted, sessionEvents } from '../../helpers/tui/fixtures.js';

let r: Rendered | undefined;
afterEach(() => {
  r?.unmount();
  r = undefined;
});

const projection = budgetPlanText({
  limitGpuHours: 0.3,
  validationGpuHours: 0.4 / 4,
  fullProtocolGpuHours: 0.76,
  rule: 'r',
  simulated: true,
});

describe('the budget on the screens', () => {
  it('shows the projection on the Plan screen and the budget left on the Run screen', async () => {
    const events = sessionEvents();
    const state = { limitGpuHours: 0.3, validationGpuHours: 0.1, spentGpuHours: 0.05, leftGpuHours: 0.15, simulated: true };
    events.splice(1, 0, { type: 'budget-state', state });
    const session = scripted(events);
    const services = fakeServices({
      session: () => session.start,
      plan: async () => ({ view: { ...plan, budget: projection }, start: () => session.start }),
    });
    r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} throttleMs={10} />, {
      columns: 200,
      rows: 40,
    });
    await r.waitForFrame('no NVIDIA GPU found');
    await r.press('enter');
    await r.waitForFrame('2/6 Model');
    await r.press('enter');
    await r.waitForFrame('3/6 Plan');
    await r.waitForFrame(/budget: 0\.30 host GPU-h; the full protocol is projected at 0\.76 GPU-h \(2\.5x the budget\)/);
    await r.press('enter');
    await r.waitForFrame('4/6 Run');
    session.next(3);
    await r.waitForFrame(/budget left 0\.15 of 0\.30 GPU-h \(spent 0\.05, validation's 0\.10 kept back; simulated time\)/);
    expect(projection).toMatch(/validation's 0\.10 GPU-h is kept back first \[simulated time\]$/);
  });
});
