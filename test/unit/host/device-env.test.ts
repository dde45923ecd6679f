// Which variables pin a server to GPUs, per vendor, and how docker is given them.
import { describe, expect, it } from 'vitest';
import { deviceEnv, dockerGpuArgs, pinnedDevices } from '../../../src/host/device-env.js';

describe('deviceEnv', () => {
  it('NVIDIA: CUDA_VISIBLE_DEVICES in PCI order', () => {
    expect(deviceEnv(undefined, [2, 3])).toEqual({ CUDA_DEVICE_ORDER: 'PCI_BUS_ID', CUDA_VISIBLE_DEVICES: '2,3' });
    expect(deviceEnv('nvidia', [0])).toEqual({ CUDA_DEVICE_ORDER: 'PCI_BUS_ID', CUDA_VISIBLE_DEVICES: '0' });
  });
  it('AMD: HIP_VISIBLE_DEVICES with CUDA_VISIBLE_DEVICES alike, never ROCR_VISIBLE_DEVICES', () => {
    const env = deviceEnv('amd', [4, 5, 6, 7]);
    expect(env).toEqual({ HIP_VISIBLE_DEVICES: '4,5,6,7', CUDA_VISIBLE_DEVICES: '4,5,6,7' });
    expect(env).not.toHaveProperty('ROCR_VISIBLE_DEVICES');
  });
  it('no GPUs named: nothing pinned', () => {
    expect(deviceEnv('amd', [])).toEqual({});
  });
  it('the ledger reads either vendor', () => {
    expect(pinnedDevices(deviceEnv('amd', [1]))).toBe('1');
    expect(pinnedDevices(deviceEnv('nvidia', [0, 1]))).toBe('0,1');
    expect(pinnedDevices({ PATH: '/bin' })).toBeUndefined();
  });
});

describe('dockerGpuArgs', () => {
  it('NVIDIA: --gpus does the pinning, so the variables stay out', () => {
    expect(dockerGpuArgs(undefined, [0, 1])).toEqual({
      args: ['--gpus', '"device=0,1"'],
      dropEnv: ['CUDA_VISIBLE_DEVICES', 'CUDA_DEVICE_ORDER'],
    });
    expect(dockerGpuArgs('nvidia', undefined).args).toEqual(['--gpus', 'all']);
  });
  it('AMD: the ROCm device files; the pinning variables go in', () => {
    const d = dockerGpuArgs('amd', [3]);
    expect(d.args).toEqual(expect.arrayContaining(['--device', '/dev/kfd', '/dev/dri', '--group-add=video']));
    expect(d.args).not.toContain('--gpus');
    expect(d.dropEnv).toEqual([]);
  });
});
