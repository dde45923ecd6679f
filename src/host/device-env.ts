// Which environment variables pin a server to some of the host's GPUs, per vendor: the one owner
// of that rule (the adapters' environment, the docker wrap and the ledger ask here).
//
// NVIDIA: CUDA_VISIBLE_DEVICES, numbered in PCI order (CUDA_DEVICE_ORDER=PCI_BUS_ID) as
// nvidia-smi numbers them.
// AMD: HIP_VISIBLE_DEVICES, with CUDA_VISIBLE_DEVICES set to the same list.
//  - vLLM on ROCm copies HIP_VISIBLE_DEVICES into CUDA_VISIBLE_DEVICES and asserts that the two
//    agree when both are set (vllm/platforms/rocm.py, "Prevent use of clashing
//    `{CUDA/HIP}_VISIBLE_DEVICES`", v0.6 to v0.11): setting both alike also overrides a stale
//    CUDA_VISIBLE_DEVICES inherited from the shell.
//  - HIP reads either ("HIP_VISIBLE_DEVICES or CUDA_VISIBLE_DEVICES: Device indices exposed to
//    HIP applications", ROCm 6.4 HIP environment variables,
//    https://rocm.docs.amd.com/projects/HIP/en/docs-6.4.0/reference/env_variables.html), and so
//    does PyTorch on ROCm (HIP_VISIBLE_DEVICES first, torch/cuda/__init__.py _parse_visible_devices,
//    https://github.com/ROCm/pytorch/pull/1895): SGLang, whose AMD guide (docs/references/amd.md)
//    names no variable of its own, and llama.cpp's HIP build see the same GPUs.
//  - Never ROCR_VISIBLE_DEVICES, though AMD's page recommends it on Linux: vLLM refuses it
//    ("RuntimeError: Please use HIP_VISIBLE_DEVICES instead of ROCR_VISIBLE_DEVICES",
//    https://github.com/lumi-ai-factory/laifs-container-recipes/issues/6), and ROCr applies it
//    before HIP numbers what is left, so the two together select twice.
import type { GpuVendor } from '../core/gpu-vendor.js';

/** The environment that pins a server to GPUs `ids` (host indices as the vendor's tool numbers them). */
export function deviceEnv(vendor: GpuVendor | undefined, ids: readonly number[]): Record<string, string> {
  if (!ids.length) return {};
  const list = ids.join(',');
  if (vendor === 'amd') return { HIP_VISIBLE_DEVICES: list, CUDA_VISIBLE_DEVICES: list };
  return { CUDA_DEVICE_ORDER: 'PCI_BUS_ID', CUDA_VISIBLE_DEVICES: list };
}

/** The GPU list a launch environment pins to (for the ledger), whichever vendor's variable holds it. */
export function pinnedDevices(env: Readonly<Record<string, string | undefined>>): string | undefined {
  return env.HIP_VISIBLE_DEVICES ?? env.CUDA_VISIBLE_DEVICES;
}

/**
 * The Kubernetes resource a pod asks its GPUs by: each vendor's device plugin names its own
 * ("Exposes AMD GPUs as amd.com/gpu resources in Kubernetes", AMD GPU Device Plugin for Kubernetes,
 * https://instinct.docs.amd.com/projects/k8s-device-plugin/en/latest/).
 */
export function k8sGpuResource(vendor: GpuVendor | undefined): string {
  return vendor === 'amd' ? 'amd.com/gpu' : 'nvidia.com/gpu';
}

/**
 * `docker run` arguments that give a container the GPUs. NVIDIA: `--gpus`, which also does the
 * pinning (so the pinning variables stay out of the container). AMD: the ROCm device files and
 * the options AMD runs its vLLM image with (`--group-add=video --cap-add=SYS_PTRACE --security-opt
 * seccomp=unconfined --device /dev/kfd --device /dev/dri`, "vLLM inference", ROCm 7.12,
 * https://rocm.docs.amd.com/en/7.12.0-preview/rocm-for-ai/vllm.html), the pinning variables passed in.
 */
export function dockerGpuArgs(vendor: GpuVendor | undefined, ids: readonly number[] | undefined): { args: string[]; dropEnv: string[] } {
  if (vendor === 'amd')
    return {
      args: [
        '--group-add=video',
        '--cap-add=SYS_PTRACE',
        '--security-opt',
        'seccomp=unconfined',
        '--device',
        '/dev/kfd',
        '--device',
        '/dev/dri',
      ],
      dropEnv: [],
    };
  const gpus = ids?.length ? `"device=${ids.join(',')}"` : 'all';
  return { args: ['--gpus', gpus], dropEnv: ['CUDA_VISIBLE_DEVICES', 'CUDA_DEVICE_ORDER'] };
}
