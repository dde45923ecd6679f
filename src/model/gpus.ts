// GPU catalog: the datasheet figures the estimate needs. Numbers are the vendors' public datasheet
// values (dense, i.e. without 2:4 sparsity); memory is what the vendor's tool reports as the total
// (nvidia-smi memory.total; amd-smi's VRAM size). Each part says where its figures were read.

import { GB, TB, type GpuSpec } from './gpu-spec.js';
import { AMD_GPUS } from './gpus-amd.js';
import { RECENT_NVIDIA_GPUS } from './gpus-nvidia-recent.js';

/** Ampere, Ada and Hopper parts and B200; the newer NVIDIA and the AMD parts are data files of their own. */
const FIRST_GPUS: GpuSpec[] = [
  {
    name: 'H100 SXM 80GB',
    aliases: ['H100', 'H100-SXM', 'H100-80G', 'H100 SXM'],
    smiName: 'NVIDIA H100 80GB HBM3',
    smiMatch: /H100.*(80GB|HBM3|SXM)/i,
    memMiB: 81559,
    // 79.18 GiB: "H100 GPUs (79.18 GiB total memory)", vLLM start-up logs collected in
    // github.com/llm-d/llm-d-benchmark config_explorer/empirical-vllm-memory-results.md.
    cudaTotalMiB: Math.round(79.18 * 1024),
    memBwBps: 3.35 * TB,
    bf16Flops: 989 * TB,
    fp8Flops: 1979 * TB,
    matmulEff: 0.801,
    computeCapability: 9.0,
    interconnectBps: 900 * GB,
    interconnect: 'nvlink',
  },
  {
    name: 'H200 141GB',
    aliases: ['H200', 'H200-SXM', 'H200 SXM'],
    smiName: 'NVIDIA H200',
    smiMatch: /H200/i,
    memMiB: 143771,
    memBwBps: 4.8 * TB,
    bf16Flops: 989 * TB,
    fp8Flops: 1979 * TB,
    // Same GH100 die and clocks as H100 SXM; no H200 row in the MAMF table: H100 SXM's value.
    matmulEff: 0.801,
    computeCapability: 9.0,
    interconnectBps: 900 * GB,
    interconnect: 'nvlink',
  },
  {
    name: 'A100 SXM 80GB',
    aliases: ['A100', 'A100-80G', 'A100-SXM-80GB', 'A100 80GB'],
    smiName: 'NVIDIA A100-SXM4-80GB',
    smiMatch: /A100.*80GB/i,
    memMiB: 81920,
    // 79.15 GiB: vLLM's "total_gpu_memory (79.15GiB)" profiling line on an NVIDIA A100-SXM4-80GB
    // (vLLM 0.8.2 log, Unsloth reports "Max memory: 79.151 GB" for the same part).
    cudaTotalMiB: Math.round(79.15 * 1024),
    memBwBps: 2.039 * TB,
    bf16Flops: 312 * TB,
    fp8Flops: 0,
    matmulEff: 0.859,
    computeCapability: 8.0,
    interconnectBps: 600 * GB,
    interconnect: 'nvlink',
  },
  {
    name: 'A100 40GB',
    aliases: ['A100-40G', 'A100-40GB', 'A100 40GB'],
    smiName: 'NVIDIA A100-SXM4-40GB',
    smiMatch: /A100.*40GB/i,
    memMiB: 40960,
    memBwBps: 1.555 * TB,
    bf16Flops: 312 * TB,
    fp8Flops: 0,
    // Same GA100 die; the MAMF table's A100 SXM row.
    matmulEff: 0.859,
    computeCapability: 8.0,
    interconnectBps: 600 * GB,
    interconnect: 'nvlink',
  },
  {
    name: 'L40S',
    aliases: ['L40S', 'L40S-48G'],
    smiName: 'NVIDIA L40S',
    smiMatch: /L40S/i,
    memMiB: 46068,
    memBwBps: 0.864 * TB,
    bf16Flops: 362 * TB,
    fp8Flops: 733 * TB,
    // No L40S row in the MAMF table: H100 SXM's value as a stand-in (unvalidated).
    matmulEff: 0.801,
    computeCapability: 8.9,
    // PCIe Gen4 x16, no NVLink.
    interconnectBps: 32 * GB,
    interconnect: 'pcie',
  },
  {
    name: 'B200',
    aliases: ['B200', 'B200-SXM'],
    smiName: 'NVIDIA B200',
    smiMatch: /(^|[^G])B200/i,
    memMiB: 183359,
    memBwBps: 8 * TB,
    bf16Flops: 2250 * TB,
    fp8Flops: 4500 * TB,
    // No row at the time of writing: H100 SXM's value as a stand-in (unvalidated).
    matmulEff: 0.801,
    computeCapability: 10.0,
    interconnectBps: 1800 * GB,
    interconnect: 'nvlink',
  },
];

export const GPUS: GpuSpec[] = [...FIRST_GPUS, ...RECENT_NVIDIA_GPUS, ...AMD_GPUS];

const norm = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, '');

/** Find a GPU by catalog name, alias or nvidia-smi name. Undefined when unknown. */
export function findGpu(nameOrSmiName: string): GpuSpec | undefined {
  const n = norm(nameOrSmiName);
  if (!n) return undefined;
  const exact = GPUS.find((g) => norm(g.name) === n || norm(g.smiName) === n || g.aliases.some((a) => norm(a) === n));
  if (exact) return exact;
  return GPUS.find((g) => g.smiMatch.test(nameOrSmiName));
}

/** Total memory as the engines see it (CUDA's total, which their memory fractions multiply), bytes. */
export function engineMemBytes(g: GpuSpec): number {
  return (g.cudaTotalMiB ?? g.memMiB) * 1024 * 1024;
}

/**
 * FP8 tensor cores arrived with compute capability 8.9 (Ada) and 9.0 (Hopper); AMD's with gfx942
 * (MI300, vLLM's rocm.py `supports_fp8`: gfx94, gfx95, gfx12), which have no compute capability.
 */
export function hasNativeFp8(g: GpuSpec): boolean {
  return (g.computeCapability === undefined || g.computeCapability >= 8.9) && g.fp8Flops > 0;
}

export function gpuNames(): string[] {
  return GPUS.map((g) => g.aliases[0]!);
}
