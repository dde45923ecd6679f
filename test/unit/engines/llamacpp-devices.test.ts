// Telling a GPU llama-server from a CPU one by its `--list-devices` answer. The CPU build's answer
// is captured from servelab's own build of 80fb11a (the fixture names how); the CUDA and HIP lines
// are written with llama.cpp 80fb11a's own format strings (quoted in src/engines/llamacpp/devices.ts:
// common/arg.cpp common_print_available_devices, ggml/src/ggml-cuda/ggml-cuda.cu ggml_cuda_init,
// ggml/include/ggml-cuda.h GGML_CUDA_NAME), since no GPU was at hand to capture them.
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { devicesText, parseListDevices } from '../../../src/engines/llamacpp/devices.js';
import { usableBackends } from '../../../src/engines/llamacpp/detect.js';

const CPU = fs.readFileSync(new URL('../../fixtures/engines/llamacpp-80fb11a-list-devices-cpu.txt', import.meta.url), 'utf8');
// printf("  %s: %s (%zu MiB, %zu MiB free)\n", ...) after GGML_LOG_INFO("%s: found %d " GGML_CUDA_NAME " devices (Total VRAM: %zu MiB):\n", ...)
const CUDA = [
  'ggml_cuda_init: found 2 CUDA devices (Total VRAM: 163118 MiB):',
  'Available devices:',
  '  CUDA0: NVIDIA H100 80GB HBM3 (81559 MiB, 80937 MiB free)',
  '  CUDA1: NVIDIA H100 80GB HBM3 (81559 MiB, 81003 MiB free)',
].join('\n');
const HIP = ['Available devices:', '  ROCm0: AMD Instinct MI300X (196592 MiB, 196314 MiB free)'].join('\n');
// GGML_LOG_ERROR("%s: failed to initialize " GGML_CUDA_NAME ": %s\n", __func__, cudaGetErrorString(err));
// cudaGetErrorString(cudaErrorNoDevice) is CUDA's "no CUDA-capable device is detected".
const CUDA_NO_GPU = [
  'ggml_cuda_init: failed to initialize CUDA: no CUDA-capable device is detected',
  'Available devices:',
  '  (none)',
].join('\n');

describe('llama-server --list-devices', () => {
  it("the CPU build (captured): no device, backend 'cpu', and its warning that -ngl is ignored", () => {
    expect(CPU).toContain('warning: no usable GPU found, --gpu-layers option will be ignored');
    const d = parseListDevices(CPU);
    expect(d).toEqual({ backend: 'cpu', devices: [] });
    expect(devicesText(d)).toMatch(/^CPU build, no GPU offload$/);
  });

  it('a CUDA build lists its GPUs with total and free memory', () => {
    const d = parseListDevices(CUDA);
    expect(d.backend).toBe('cuda');
    expect(d.devices).toEqual([
      { name: 'CUDA0', description: 'NVIDIA H100 80GB HBM3', totalMiB: 81559, freeMiB: 80937 },
      { name: 'CUDA1', description: 'NVIDIA H100 80GB HBM3', totalMiB: 81559, freeMiB: 81003 },
    ]);
    expect(devicesText(d)).toBe('CUDA build: CUDA0 NVIDIA H100 80GB HBM3 (81559 MiB), CUDA1 NVIDIA H100 80GB HBM3 (81559 MiB)');
  });

  it("a HIP build names its devices ROCm<N>: backend 'hip'", () => {
    expect(parseListDevices(HIP)).toEqual({
      backend: 'hip',
      devices: [{ name: 'ROCm0', description: 'AMD Instinct MI300X', totalMiB: 196592, freeMiB: 196314 }],
    });
  });

  it('a CUDA build that finds no GPU is still a CUDA build, with the reason', () => {
    const d = parseListDevices(CUDA_NO_GPU);
    expect(d).toEqual({ backend: 'cuda', devices: [], initError: 'no CUDA-capable device is detected' });
    expect(devicesText(d)).toBe('CUDA build, but no GPU answered: no CUDA-capable device is detected');
  });

  it("servelab's GPU builds are used only where the vendor's driver device is present", () => {
    expect(usableBackends(() => false)).toEqual(['cpu']);
    expect(usableBackends((p) => p === '/dev/nvidiactl')).toEqual(['cuda', 'cpu']);
    expect(usableBackends((p) => p === '/dev/kfd')).toEqual(['hip', 'cpu']);
  });
});
