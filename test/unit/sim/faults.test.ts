// The simulator's fault hook (SERVELAB_SIM_FAULTS): which servers fail or slow down, and for which prompts.
import { describe, expect, it } from 'vitest';
import { simFaults, slowFactor } from '../../../src/sim/imitation/faults.js';

describe('simFaults', () => {
  it('applies to the knobs it names only', () => {
    const spec = 'quantization=fp8:fail=0.3,kv-cache-dtype=fp8:slow=1.6:prompt<1500';
    expect(simFaults({ quantization: 'fp8' }, spec)).toEqual({ failShare: 0.3, slow: [] });
    expect(simFaults({}, spec)).toEqual({ failShare: 0, slow: [] });
    const kv = simFaults({ kvCacheDtype: 'fp8' }, spec);
    expect(slowFactor(kv, 200)).toBe(1.6);
    expect(slowFactor(kv, 2000)).toBe(1);
  });

  it('reads prompt> and a factor alone, and ignores what it cannot read', () => {
    const f = simFaults({ quantization: 'fp8' }, 'quantization=fp8:slow=0.5,quantization=fp8:slow=2:prompt>1000,bogus');
    expect(slowFactor(f, 10)).toBe(0.5);
    expect(slowFactor(f, 2000)).toBe(1);
    expect(simFaults({ quantization: 'fp8' }, undefined).failShare).toBe(0);
  });
});
