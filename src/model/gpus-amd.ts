// AMD Instinct parts (MI300X, MI325X, MI355X), one row each with the datasheet it was read from:
// rows of the GPU catalogue (gpus.ts). They have no CUDA compute capability; gfxArch and fp8Format
// say what the FP8 and attention rules need.
import { GB, TB, type GpuSpec } from './gpu-spec.js';

export const AMD_GPUS: GpuSpec[] = [
  // --- AMD Instinct. Compute and memory from AMD's product pages as tabulated in stas00/ml-engineering
  // compute/accelerator/README.md (with the clock x matrix cores formula that reproduces them: MI300X
  // 1307.4, MI355X 2516.6 BF16 TFLOPS); gfx targets and VRAM in GiB from ROCm's "AMD GPU
  // specifications" table (rocm.docs.amd.com reference/gpu-specs). smiName is amd-smi's ASIC
  // MARKET_NAME; memMiB its VRAM size. No compute capability: gfxArch says the architecture.
  {
    // AMD Instinct MI300X specifications (amd.com/en/products/accelerators/instinct/mi300/mi300x.html):
    // 192 GB HBM3, 5.3 TB/s, FP16/BF16 1307.4, FP8 2614.9 TFLOPS dense, 7 Infinity Fabric links of
    // 128 GB/s (896 GB/s peer bandwidth), 750 W.
    name: 'MI300X 192GB',
    vendor: 'amd',
    aliases: ['MI300X'],
    // amd-smi reports "AMD Instinct MI300X", bare "MI300X" (amdsmi docs' example), "... MI300X OAM"
    // and "... MI300X VF" under virtualisation: one pattern for all.
    smiName: 'AMD Instinct MI300X',
    smiMatch: /MI300X/i,
    // amd-smi static, VRAM SIZE: 196592 MB (amdsmi docs' MI300X example output).
    memMiB: 196592,
    memBwBps: 5.3 * TB,
    bf16Flops: 1307.4 * TB,
    fp8Flops: 2614.9 * TB,
    // MAMF table: AMD MI300X 668.4 (torch 2.5.1+rocm6.3, TunableOp on), of 1307.4.
    matmulEff: 0.511,
    interconnectBps: 896 * GB,
    interconnect: 'nvlink',
    gfxArch: 'gfx942',
    fp8Format: 'e4m3fnuz',
  },
  {
    // AMD Instinct MI325X specifications (amd.com/en/products/accelerators/instinct/mi300/mi325x.html):
    // MI300X's compute (1307.4 / 2614.9 TFLOPS) with 256 GB HBM3E at 6.0 TB/s, 1000 W; same
    // Infinity Fabric (896 GB/s).
    name: 'MI325X 256GB',
    vendor: 'amd',
    aliases: ['MI325X'],
    smiName: 'AMD Instinct MI325X',
    smiMatch: /MI325X/i,
    // ROCm's GPU specifications table: 256 GiB (no amd-smi output of this part was found to quote).
    memMiB: 256 * 1024,
    memBwBps: 6.0 * TB,
    bf16Flops: 1307.4 * TB,
    fp8Flops: 2614.9 * TB,
    // MAMF table: AMD MI325X 784.9 (torch 2.6.0+rocm6.2.4, TunableOp on, 1000 W), of 1307.4.
    matmulEff: 0.6,
    interconnectBps: 896 * GB,
    interconnect: 'nvlink',
    gfxArch: 'gfx942',
    fp8Format: 'e4m3fnuz',
  },
  {
    // AMD Instinct MI355X specifications (amd.com/en/products/accelerators/instinct/mi350/mi355x.html):
    // 288 GB HBM3E, 8 TB/s, FP16/BF16 2.5 PF (2516.6), OCP FP8 5.0 PF dense, MXFP4/MXFP6 10.1 PF,
    // 1400 W; 7 Infinity Fabric links of 153.6 GB/s (1075 GB/s peer bandwidth).
    name: 'MI355X 288GB',
    vendor: 'amd',
    aliases: ['MI355X'],
    smiName: 'AMD Instinct MI355X',
    smiMatch: /MI355X/i,
    // amd-smi metric, mem_usage total_vram: 294896 MB (a public CI fixture of AMD SMI 26.2.0 on MI355X).
    memMiB: 294896,
    memBwBps: 8 * TB,
    bf16Flops: 2516.6 * TB,
    fp8Flops: 5033.2 * TB,
    // MAMF table: AMD MI355X 1565.0 (torch 2.8.0+rocm7.0.2), of 2516.6.
    matmulEff: 0.622,
    interconnectBps: 1075 * GB,
    interconnect: 'nvlink',
    gfxArch: 'gfx950',
  },
];
