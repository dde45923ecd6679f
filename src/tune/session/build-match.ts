// An installed engine build that cannot drive this host's GPUs: a ROCm build on NVIDIA GPUs, or a
// CUDA build on AMD GPUs (the build is read from PyTorch, src/engines/kit/rocm-build.ts). Such an engine
// is skipped with the reason, as a missing one is, rather than failing at its first launch.
import type { GpuVendor } from '../../core/gpu-vendor.js';
import type { EngineInfo } from '../../engines/kit/types.js';

/** Why this build cannot run on these GPUs, or undefined when it can (or nothing tells). */
export function buildMismatch(
  info: Pick<EngineInfo, 'gpuPlatform' | 'hipVersion'>,
  gpus: readonly { vendor?: GpuVendor }[],
): string | undefined {
  if (!info.gpuPlatform || !gpus.length) return undefined;
  const amd = gpus[0]!.vendor === 'amd';
  if (amd && info.gpuPlatform === 'cuda') return 'a CUDA build (torch.version.hip is None) cannot drive AMD GPUs: install its ROCm build';
  if (!amd && info.gpuPlatform === 'rocm')
    return `a ROCm build (torch.version.hip ${info.hipVersion ?? 'set'}) cannot drive NVIDIA GPUs: install its CUDA build`;
  return undefined;
}
