// Replay's fingerprint of the host it runs on says who makes the GPUs, as a profile's host does.
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../../../src/tune/replay/replay.js';

describe('fingerprint', () => {
  it('says AMD on an AMD host, nothing on an NVIDIA one', () => {
    const gpus = [{ index: 0, uuid: 'x', name: 'AMD Instinct MI300X', memTotalMiB: 196592, vendor: 'amd' as const }];
    expect(fingerprint({ simulated: false, gpus })).toMatchObject({ gpuName: 'AMD Instinct MI300X', vendor: 'amd' });
    expect(fingerprint({ simulated: false, gpus: [{ ...gpus[0]!, vendor: undefined }] })).not.toHaveProperty('vendor');
  });
});
