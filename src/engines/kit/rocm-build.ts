// Is an installed engine the ROCm build or the CUDA one? PyTorch says so: torch.version.hip is the
// HIP version on a ROCm build and None on a CUDA build (torch/version.py, written by PyTorch's
// build; SGLang's is_hip() is `torch.version.hip is not None`). A package version alone cannot
// tell: ROCm images build torch from source under versions like 2.7.0a0+git.... Importing torch
// takes seconds, so this runs once per detection, for the engines that ship ROCm builds.
import { execa } from 'execa';

/** Printed by the probe: "hip <torch.version.hip>". */
export const TORCH_HIP_PROBE = 'import torch; print("hip", torch.version.hip)';

export interface GpuPlatform {
  gpuPlatform: 'rocm' | 'cuda';
  /** torch.version.hip on a ROCm build. */
  hipVersion?: string;
}

/** The probe's output -> the platform; undefined when it printed no answer (no torch, a crash). */
export function parseTorchHip(stdout: string): GpuPlatform | undefined {
  const line = stdout
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('hip '));
  if (!line) return undefined;
  const v = line.slice(4).trim();
  return v && v !== 'None' ? { gpuPlatform: 'rocm', hipVersion: v } : { gpuPlatform: 'cuda' };
}

/** Run the probe in a Python environment, or in an image (`docker run ... python3 -c`). */
export async function probeGpuPlatform(where: { python: string } | { image: string }, timeoutMs: number): Promise<GpuPlatform | undefined> {
  const r =
    'python' in where
      ? await execa(where.python, ['-c', TORCH_HIP_PROBE], { reject: false, timeout: timeoutMs })
      : await execa('docker', ['run', '--rm', '--entrypoint', 'python3', where.image, '-c', TORCH_HIP_PROBE], {
          reject: false,
          timeout: timeoutMs,
        });
  return r.exitCode === 0 ? parseTorchHip(String(r.stdout)) : undefined;
}
