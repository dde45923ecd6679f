// The Model and workload screen offers the workloads with reuse beside the others: shared
// prefixes, multi-turn conversations and a trace file, each with its shape in one field; the
// shape goes to the session as --scenario takes it, and a bad one is the parser's own line.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/screens/app.js';
import { colourTheme } from '../../../src/tui/base/theme.js';
import { checkForm, configFromChoices, formDefaults } from '../../../src/tui/services/form.js';
import { parseTuiFlags } from '../../../src/cli/auto-args.js';
import type { Settings } from '../../../src/core/settings.js';
import { render, type Rendered } from '../../helpers/render.js';
import { defaults, fakeServices, form } from '../../helpers/tui/fixtures.js';

let r: Rendered | undefined;
afterEach(() => {
  r?.unmount();
  r = undefined;
});

const noSettings = { get: () => undefined } as unknown as Settings;
const host = { simulated: true, gpuType: 'H100', gpuCount: 1 };

describe('Model and workload screen: workloads with reuse', () => {
  it('cycles to shared-prefix, multi-turn and trace, each showing its own shape field at 80 columns', async () => {
    const services = fakeServices({});
    r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} throttleMs={10} />, {
      columns: 80,
      rows: 24,
    });
    await r.waitForFrame('no NVIDIA GPU found');
    await r.press('enter');
    await r.waitForFrame('Input tokens');
    await r.press('down');
    await r.waitForFrame('‹ random ›');
    await r.press('right');
    await r.waitForFrame('‹ sharegpt ›');
    await r.press('right');
    let f = await r.waitForFrame('‹ shared-prefix ›');
    expect(f).toMatch(/Prefix shape\s+256\/256\/10\/128/);
    expect(f).not.toContain('Input tokens');
    await r.press('right');
    f = await r.waitForFrame('‹ multi-turn ›');
    expect(f).toMatch(/Conversations\s+8\/6/);
    // A conversation count is in the shape (two per user): no Prompts field to disagree with it.
    expect(f).not.toContain('Prompts');
    await r.press('right');
    f = await r.waitForFrame('‹ trace ›');
    expect(f).toMatch(/Trace file\s+path of a Mooncake JSONL/);
    expect(f).toContain('Prompts');
  });

  it('sends the shape as --scenario does, and a bad shape is the parser\u2019s one line', () => {
    const mt = configFromChoices(parseTuiFlags(['--sim']), {
      host,
      form: { ...form, scenario: 'multi-turn', turnsShape: '3/5/400/32/16' },
    });
    expect(mt.scenario).toMatchObject({ dataset: 'multi_turn', maxConcurrency: 3, turns: 5, systemPromptLen: 400, numPrompts: 6 });
    const px = configFromChoices(parseTuiFlags(['--sim']), {
      host,
      form: { ...form, scenario: 'shared-prefix', prefixShape: '128/32/4/16' },
    });
    expect(px.scenario).toMatchObject({ dataset: 'prefix_repetition', prefixLen: 128, numPrefixes: 4, numPrompts: 40 });
    const bad = checkForm({ ...form, scenario: 'multi-turn', turnsShape: '3' });
    expect(bad).toHaveLength(1);
    expect(bad[0]).toMatch(/^scenario 'multi-turn:3': use multi-turn:USERS\/TURNS/);
    expect(checkForm({ ...form, scenario: 'trace', tracePath: '' })).toEqual([expect.stringMatching(/trace workload needs its shape/)]);
  });

  it('starts from --scenario on the command line', () => {
    expect(formDefaults(parseTuiFlags(['--sim', '--scenario', 'multi-turn:4/2']), noSettings)).toMatchObject({
      scenario: 'multi-turn',
      turnsShape: '4/2',
    });
    expect(formDefaults(parseTuiFlags(['--sim', '--scenario', 'prefix:64/8/2/8']), noSettings)).toMatchObject({
      scenario: 'shared-prefix',
      prefixShape: '64/8/2/8',
    });
  });
});
