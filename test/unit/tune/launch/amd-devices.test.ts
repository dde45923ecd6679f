// On an AMD host the one launch path pins GPUs with HIP_VISIBLE_DEVICES (host/device-env.ts), for
// every GPU engine, and runs a container with the ROCm device files instead of --gpus.
import { describe, expect, it } from 'vitest';
import { launchContext, prepareLaunch } from '../../../../src/tune/launch/launch.js';
import { makeVariant } from '../../../../src/tune/plan/variant-ids.js';
import { planHost } from '../../../../src/tune/plan/deps.js';
import { simulatedHost } from '../../../../src/host/gpus.js';

const at = { port: 8100, runDir: 'run/logs/x', devices: [2, 3], vendor: 'amd' as const };
const native = { bindHost: '127.0.0.1', runtime: { kind: 'native' as const } };

describe('GPU pinning on an AMD host', () => {
  it.each(['vllm', 'sglang'] as const)('%s: HIP_VISIBLE_DEVICES, CUDA_VISIBLE_DEVICES alike, in the command shown', (engine) => {
    const v = makeVariant(engine, 'Qwen/Qwen3-14B', {}, { model: 'Qwen/Qwen3-14B' });
    const p = prepareLaunch(v, launchContext(native, at));
    expect(p.spec.env).toMatchObject({ HIP_VISIBLE_DEVICES: '2,3', CUDA_VISIBLE_DEVICES: '2,3' });
    expect(p.spec.env.ROCR_VISIBLE_DEVICES).toBeUndefined();
    expect(p.spec.env.CUDA_DEVICE_ORDER).toBeUndefined();
    expect(p.display).toContain('HIP_VISIBLE_DEVICES=2,3');
  });

  it('docker: the ROCm device files, the pinning passed into the container, no --gpus', () => {
    const v = makeVariant('vllm', 'Qwen/Qwen3-14B', {}, { model: 'Qwen/Qwen3-14B' });
    const d = prepareLaunch(v, launchContext({ bindHost: '127.0.0.1', runtime: { kind: 'docker', image: 'rocm/vllm:latest' } }, at));
    const argv = d.spec.argv.join(' ');
    expect(argv).toContain('--device /dev/kfd --device /dev/dri');
    expect(argv).toContain('-e HIP_VISIBLE_DEVICES=2,3');
    expect(argv).not.toContain('--gpus');
  });

  it('an NVIDIA host is as before', () => {
    const v = makeVariant('vllm', 'Qwen/Qwen3-14B', {}, { model: 'Qwen/Qwen3-14B' });
    const p = prepareLaunch(v, launchContext(native, { ...at, vendor: undefined }));
    expect(p.spec.env).toMatchObject({ CUDA_DEVICE_ORDER: 'PCI_BUS_ID', CUDA_VISIBLE_DEVICES: '2,3' });
    expect(p.spec.env.HIP_VISIBLE_DEVICES).toBeUndefined();
  });

  it("the plan's host says who makes the GPUs", () => {
    const nvidia = simulatedHost('H100', 2);
    expect(planHost(nvidia).vendor).toBeUndefined();
    const amd = { ...nvidia, gpus: nvidia.gpus.map((g) => ({ ...g, vendor: 'amd' as const })) };
    expect(planHost(amd).vendor).toBe('amd');
  });
});
