// The Host screen's view of an AMD host: the graphics target travels where an NVIDIA part's
// compute capability does.
import { tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { hostView } from '../../../../src/tui/services/view.js';
import type { HostInfo } from '../../../../src/host/gpus.js';

describe('hostView on an AMD host', () => {
  it('carries the graphics target, and no compute capability', () => {
    const host: HostInfo = {
      simulated: false,
      driverVersion: '6.8.5',
      gpus: [{ index: 0, uuid: '0000:0c:00.0', name: 'AMD Instinct MI300X', memTotalMiB: 196592, vendor: 'amd', arch: 'gfx942' }],
    };
    const v = hostView(host, [], tmpdir());
    expect(v.gpus).toEqual([{ index: 0, name: 'AMD Instinct MI300X', memTotalMiB: 196592, arch: 'gfx942' }]);
    expect(v.driver).toBe('6.8.5');
  });
});
