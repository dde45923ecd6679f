// The Model screen's Validation field takes what --validation takes (its one parser), so the
// winner can be validated on multi-turn conversations from the workbench as from --auto: the
// hint shows how, the list reaches the session, and a bad word is the parser's one line.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/screens/app.js';
import { colourTheme } from '../../../src/tui/base/theme.js';
import { checkForm, configFromChoices, formDefaults } from '../../../src/tui/services/form.js';
import { validationFlags } from '../../../src/tui/services/validation-form.js';
import { parseTuiFlags } from '../../../src/cli/auto-args.js';
import type { Settings } from '../../../src/core/settings.js';
import type { Choices } from '../../../src/tui/services/types.js';
import { render, type Rendered } from '../../helpers/render.js';
import { defaults, fakeServices, form, plan } from '../../helpers/tui/fixtures.js';

let r: Rendered | undefined;
afterEach(() => {
  r?.unmount();
  r = undefined;
});

const noSettings = { get: () => undefined } as unknown as Settings;
const host = { simulated: true, gpuType: 'H100', gpuCount: 1 };
const names = (c: { validation: { name: string }[] }) => c.validation.map((s) => s.name);
const STUDIES = ['sharegpt-like', 'random-128-4', 'random-2000-100', 'random-4000-200', 'random-32000-100'];

describe('Model screen: the Validation field', () => {
  it('shows a multi-turn example at 80 x 24, takes a typed list, and hands it to the plan', async () => {
    let asked: Omit<Choices, 'disabled'> | undefined;
    const services = fakeServices({
      checkForm,
      plan: async (c) => {
        asked = c;
        return { view: plan, start: () => () => ({ done: Promise.resolve(), skipVariant: () => {}, stopAfterStage: () => {} }) };
      },
    });
    r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} throttleMs={10} />, {
      columns: 80,
      rows: 24,
    });
    await r.waitForFrame('no NVIDIA GPU found');
    await r.press('enter');
    await r.waitForFrame('Input tokens');
    // From the first field, up wraps to the last ones: Quality floor, Quality, Capacity SLO, Validation.
    for (let i = 0; i < 4; i++) await r.press('up');
    let f = await r.waitForFrame(/› Validation/);
    expect(f).toMatch(/Validation\s+▏? ?quick \(or default, none; e\.g\. quick,multi-turn:8\/6\)/);
    await r.type('default,multi-turn:4/3');
    f = await r.waitForFrame('default,multi-turn:4/3');
    await r.press('enter');
    await r.waitForFrame(() => asked !== undefined);
    const config = configFromChoices(parseTuiFlags(['--sim']), asked!);
    expect(names(config)).toEqual([...STUDIES, 'multi-turn-4-3-1000-128-64']);
    expect(config.validation.at(-1)).toMatchObject({ dataset: 'multi_turn', maxConcurrency: 4, turns: 3 });
  });

  it('says what is wrong with a bad list in the flag\u2019s wording, and blocks the plan', () => {
    const bad = checkForm({ ...form, validation: 'default,multi-turn:3' });
    expect(bad).toEqual([expect.stringMatching(/^--validation: scenario 'multi-turn:3': use multi-turn:USERS\/TURNS/)]);
    expect(() => configFromChoices(parseTuiFlags(['--sim']), { host, form: { ...form, validation: 'huge' } })).toThrow(
      /^--validation: unknown scenario 'huge'/,
    );
  });

  it('keeps quick (the default, a tenth of the studies) and none, and quick adds to a list', () => {
    const at = (validation: string) => configFromChoices(parseTuiFlags(['--sim']), { host, form: { ...form, validation } });
    const quick = at('');
    expect(names(quick)).toEqual(STUDIES);
    expect(quick.validation[1]).toMatchObject({ numPrompts: 100 });
    expect(at('none').validation).toEqual([]);
    expect(at('default').validation[1]).toMatchObject({ numPrompts: 1000 });
    const mixed = at('quick,multi-turn:8/6');
    expect(names(mixed)).toEqual([...STUDIES, 'multi-turn-8-6-1000-128-64']);
    expect(mixed.validation[1]).toMatchObject({ numPrompts: 100 });
  });

  it("leaves quick alone to the session's default (a llama.cpp session validates on its tuning workload)", () => {
    expect(validationFlags('', undefined)).toEqual({ scale: '0.1' });
    expect(validationFlags('quick', '0.5')).toEqual({});
    expect(validationFlags('quick,multi-turn:8/6', undefined)).toEqual({ validation: 'default,multi-turn:8/6', scale: '0.1' });
    expect(validationFlags('none', undefined)).toEqual({ validation: 'none' });
  });

  it('starts from --validation on the command line, as given', () => {
    expect(formDefaults(parseTuiFlags(['--sim', '--validation', 'default,multi-turn:8/6']), noSettings).validation).toBe(
      'default,multi-turn:8/6',
    );
    expect(formDefaults(parseTuiFlags(['--sim']), noSettings).validation).toBe('');
  });
});
