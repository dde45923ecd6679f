// Colour is on only where the terminal has it; force it here so the test can see the codes.
import { vi, afterEach, describe, expect, it } from 'vitest';
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});
import React from 'react';
import { App } from '../../../src/screens/app.js';
import { colourTheme, plainTheme, themeFromEnv, type Theme } from '../../../src/tui/base/theme.js';
import { render, type Rendered } from '../../helpers/render.js';
import { defaults, fakeServices } from '../../helpers/tui/fixtures.js';

// eslint-disable-next-line no-control-regex
const SGR_COLOUR = /\x1b\[(3[0-7]|9[0-7]|38;)/;
let r: Rendered | undefined;
afterEach(() => r?.unmount());

async function hostFrame(theme: Theme): Promise<string> {
  r = render(<App services={fakeServices()} defaults={defaults} onExit={() => {}} theme={theme} />);
  await r.waitForFrame('no NVIDIA GPU found');
  const raw = r.rawFrame();
  r.unmount();
  r = undefined;
  return raw;
}

describe('NO_COLOR', () => {
  it('picks the plain theme when NO_COLOR is set and not empty', () => {
    expect(themeFromEnv({ NO_COLOR: '1' })).toBe(plainTheme);
    expect(themeFromEnv({ NO_COLOR: '' })).toBe(colourTheme);
    expect(themeFromEnv({})).toBe(colourTheme);
  });

  it('writes colour codes with the colour theme and none with the plain one', async () => {
    expect(await hostFrame(colourTheme)).toMatch(SGR_COLOUR);
    const plain = await hostFrame(plainTheme);
    expect(plain).not.toMatch(SGR_COLOUR);
    expect(plain).toContain('[H100]');
  });
});
