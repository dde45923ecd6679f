// The live GPU panel on an AMD host: the power amd-smi reports sits beside utilisation and memory.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { GpuPanel } from '../../../src/tui/panels/run/GpuPanel.js';
import { render, type Rendered } from '../../helpers/render.js';

let r: Rendered | undefined;
afterEach(() => {
  r?.unmount();
  r = undefined;
});

describe('GpuPanel with power', () => {
  it('shows watts where the tool reports them, nothing where it does not', async () => {
    const gpus = [
      { index: 0, name: 'AMD Instinct MI300X', utilPct: 97, memUsedMiB: 180214, memTotalMiB: 196592, powerW: 712 },
      { index: 1, name: 'AMD Instinct MI300X', utilPct: 0, memUsedMiB: 283, memTotalMiB: 196592 },
    ];
    r = render(<GpuPanel gpus={gpus} width={120} roomy />);
    const f = await r.waitForFrame('GPU1');
    expect(f).toMatch(/GPU0 .* 712 W {2}AMD Instinct MI300X/);
    expect(f.split('\n')[1]).not.toMatch(/ W /);
  });
});
