// A profile tuned on an AMD host exports what an AMD host runs: the ROCm device files for docker,
// amd.com/gpu for Kubernetes; and the vendor survives the profile's round trip.
import { describe, expect, it } from 'vitest';
import { qwen3Study } from '../../../scripts/studies.js';
import { dockerArgv } from '../../../src/profiles/export/docker.js';
import { k8sManifests } from '../../../src/profiles/export/k8s.js';
import { parseProfile, serializeProfile } from '../../../src/profiles/store/store.js';
import type { Profile } from '../../../src/profiles/schema/profile.js';

const amd = (): Profile => {
  const p = qwen3Study();
  return { ...p, host: { ...p.host, gpuName: 'AMD Instinct MI300X', gpuMemoryMiB: 196592, vendor: 'amd' } };
};

const resourcesOf = (p: Profile) => JSON.stringify(k8sManifests(p));

describe('exports of an AMD profile', () => {
  it('docker: /dev/kfd and /dev/dri, no --gpus', () => {
    const argv = dockerArgv(amd()).join(' ');
    expect(argv).toContain('--device /dev/kfd --device /dev/dri');
    expect(argv).not.toContain('--gpus');
    expect(dockerArgv(qwen3Study()).join(' ')).toContain('--gpus all');
  });

  it('k8s: amd.com/gpu where an NVIDIA profile asks nvidia.com/gpu', () => {
    expect(resourcesOf(amd())).toContain('"amd.com/gpu":"1"');
    expect(resourcesOf(amd())).not.toContain('nvidia.com/gpu');
    expect(resourcesOf(qwen3Study())).toContain('"nvidia.com/gpu":"1"');
  });

  it('the vendor is kept by the profile store', () => {
    expect(parseProfile(serializeProfile(amd()), 'amd.json').host.vendor).toBe('amd');
  });
});
