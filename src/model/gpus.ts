// GPU catalog: the datasheet figures the estimate needs. Numbers are the vendors' public datasheet
// values (dense, i.e. without 2:4 sparsity); memory is what the vendor's tool reports as the total
// (nvidia-smi memory.total; amd-smi's VRAM size). Each part says where its figures were read.

import type { GpuVendor } from '../core/gpu-vendor.js';
export interface GpuSpec {
  /** Catalog name, e.g. 'H100 SXM 80GB'. */
  name: string;
  /** Who makes it; absent means NVIDIA. */
  vendor?: GpuVendor;
  /** Short aliases accepted on the command line ('H100'). */
  aliases: string[];
  /**
   * What the vendor's tool names this part: `nvidia-smi --query-gpu=name` on NVIDIA, amd-smi's
   * ASIC market name on AMD ("AMD Instinct MI300X"). The field keeps its NVIDIA-era name.
   */
  smiName: string;
  /** Matches the vendor tool's names of this part (variants across drivers, amd-smi releases and VFs). */
  smiMatch: RegExp;
  /** Total memory as the vendor's tool reports it (nvidia-smi memory.total, amd-smi VRAM size), MiB. */
  memMiB: number;
  /**
   * Total memory as CUDA reports it to the engines (torch.cuda.mem_get_info()[1]), MiB: a little
   * below nvidia-smi's figure. vLLM multiplies this by --gpu-memory-utilization. Absent = memMiB.
   */
  cudaTotalMiB?: number;
  /** HBM/GDDR bandwidth, bytes/s. */
  memBwBps: number;
  /** Dense BF16 tensor-core FLOP/s. */
  bf16Flops: number;
  /** Dense FP8 tensor-core FLOP/s (0 when the part has no FP8 tensor cores). */
  fp8Flops: number;
  /**
   * Maximum achievable matmul FLOP/s as a fraction of the BF16 peak (best-shape BF16 matmul):
   * the per-architecture ceiling the serving GEMM efficiency (fitted.ts) is applied to. Source:
   * "Maximum Achievable Matmul FLOPS comparison table", github.com/stas00/ml-engineering
   * compute/accelerator/README.md (measured with its mamf-finder.py): A100 SXM 267.9/312 = 85.9%,
   * H100 SXM 792.1/989 = 80.1% (CUDA 12.1). Parts without a row there say which row they borrow.
   */
  matmulEff: number;
  /** CUDA compute capability (9.0, 10.3): NVIDIA parts only; AMD parts have none (their arch is `gfxArch`). */
  computeCapability?: number;
  /** Per-GPU interconnect bandwidth between GPUs of one node, bytes/s (NVLink, Infinity Fabric or PCIe). */
  interconnectBps: number;
  /**
   * 'nvlink' for a direct GPU-to-GPU fabric (NVLink; AMD's Infinity Fabric/xGMI mesh is counted
   * here too) or 'pcie': all-reduce latency differs by about an order of magnitude.
   */
  interconnect: 'nvlink' | 'pcie';
  /** AMD: the LLVM target ('gfx942' MI300X/MI325X, 'gfx950' MI355X), as ROCm's GPU specifications table names it. */
  gfxArch?: string;
  /**
   * The FP8 E4M3 format the matrix cores take, where it is not OCP's e4m3fn: 'e4m3fnuz' on gfx942.
   * vLLM's platforms/rocm.py (`is_fp8_fnuz`: "gfx94" in gcnArchName; `fp8_dtype`:
   * torch.float8_e4m3fnuz, else float8_e4m3fn). Absent: OCP e4m3fn (NVIDIA, gfx950).
   */
  fp8Format?: 'e4m3fnuz';
}

const TB = 1e12;
const GB = 1e9;

export const GPUS: GpuSpec[] = [
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
  // --- This year's NVIDIA parts. Compute (dense, no sparsity) and HBM figures as tabulated from the
  // vendors' datasheets in stas00/ml-engineering compute/accelerator/README.md ("TFLOPS comparison
  // table", "Accelerator memory size and speed", each row naming its datasheet), read with the
  // search tool; matmulEff from the same file's MAMF table, divided by the peak used here. memMiB is
  // nvidia-smi's memory.total as it appears in public logs quoted per part.
  {
    // NVIDIA DGX B300 datasheet (resources.nvidia.com/en-us-dgx-systems/dgx-b300-datasheet): 288 GB
    // HBM3e, 8 TB/s, BF16 2250 / FP8 4500 TFLOPS dense (FP4 12600, NVFP4 15000), NVLink 5 at 1.8 TB/s.
    name: 'B300 SXM 288GB',
    aliases: ['B300', 'B300-SXM', 'HGX-B300'],
    // nvidia-smi: "NVIDIA B300 SXM6 AC, 275040 MiB, 10.3" (public run logs on p6-b300 and DGX B300).
    smiName: 'NVIDIA B300 SXM6 AC',
    smiMatch: /(^|[^G])B300/i,
    memMiB: 275040,
    memBwBps: 8 * TB,
    bf16Flops: 2250 * TB,
    fp8Flops: 4500 * TB,
    // MAMF table: NVIDIA B300 SXM 1769.0 of 2250 (torch 2.9.1+cu130).
    matmulEff: 0.786,
    computeCapability: 10.3,
    interconnectBps: 1800 * GB,
    interconnect: 'nvlink',
  },
  {
    // NVIDIA GB200 NVL72 specifications (nvidia.com/en-us/data-center/gb200-nvl72), per Blackwell GPU
    // of the superchip: 186 GB HBM3e, 8 TB/s, BF16 2500 / FP8 5000 TFLOPS dense (FP4 10000), NVLink 5
    // at 1.8 TB/s (130 TB/s over 72 GPUs).
    name: 'GB200 186GB',
    aliases: ['GB200', 'GB200-NVL72'],
    // nvidia-smi: "NVIDIA GB200, 189471 MiB" (public run logs, 4 GPUs per Grace node).
    smiName: 'NVIDIA GB200',
    smiMatch: /GB200/i,
    memMiB: 189471,
    memBwBps: 8 * TB,
    bf16Flops: 2500 * TB,
    fp8Flops: 5000 * TB,
    // MAMF table: NVIDIA GB200 SXM 1822.0 of 2500.
    matmulEff: 0.729,
    computeCapability: 10.0,
    interconnectBps: 1800 * GB,
    interconnect: 'nvlink',
  },
  {
    // The Workstation Edition (600 W): the card a user runs under a desk. NVIDIA RTX PRO 6000
    // Blackwell Workstation Edition datasheet (nvidia.com/en-us/products/workstations/professional-
    // desktop-gpus/rtx-pro-6000): 96 GB GDDR7 ECC, 512-bit, 1792 GB/s, "4000 AI TOPS" (FP4 with
    // sparsity), PCIe Gen5 x16, no NVLink; read through the search tool's pages (VideoCardz/
    // Tom's Hardware reports of the datasheet). Dense figures derived from the 4000 FP4-sparse TOPS
    // by the usual halvings (sparsity, then FP4 -> FP8 -> BF16): FP8 1000, BF16 500 TFLOPS, full-rate
    // FP32 accumulate as on NVIDIA's pro parts. The Max-Q and Server Editions match this entry too
    // (same GB202 die and memory size); the Server Edition's bandwidth is 1597 GB/s, 11% below.
    name: 'RTX PRO 6000 Blackwell 96GB',
    aliases: ['RTX-PRO-6000', 'RTXPRO6000', 'RTX-PRO-6000-WS'],
    // nvidia-smi: "NVIDIA RTX PRO 6000 Blackwell Workstation Edition (97,887 MiB)", cc 12.0.
    smiName: 'NVIDIA RTX PRO 6000 Blackwell Workstation Edition',
    smiMatch: /RTX PRO 6000 Blackwell/i,
    memMiB: 97887,
    memBwBps: 1.792 * TB,
    bf16Flops: 500 * TB,
    fp8Flops: 1000 * TB,
    // No row in the MAMF table: B200 SXM's (1745.0 of 2250), the same generation (unvalidated).
    matmulEff: 0.776,
    computeCapability: 12.0,
    // PCIe Gen5 x16: 64 GB/s each way.
    interconnectBps: 64 * GB,
    interconnect: 'pcie',
  },
  {
    // NVIDIA L4 Tensor Core GPU datasheet (nvidia.com/en-us/data-center/l4): 24 GB GDDR6, 300 GB/s,
    // FP16/BF16 242 and FP8 485 TFLOPS with sparsity (121 and 242.5 dense), PCIe Gen4 x16, 72 W.
    name: 'L4 24GB',
    aliases: ['L4', 'L4-24G'],
    // nvidia-smi: "NVIDIA L4, 23034 MiB" (public run logs).
    smiName: 'NVIDIA L4',
    smiMatch: /\bL4\b/i,
    memMiB: 23034,
    memBwBps: 0.3 * TB,
    bf16Flops: 121 * TB,
    fp8Flops: 242.5 * TB,
    // No row in the MAMF table: H100 SXM's value as a stand-in, as for L40S (unvalidated).
    matmulEff: 0.801,
    computeCapability: 8.9,
    interconnectBps: 32 * GB,
    interconnect: 'pcie',
  },
  {
    // NVIDIA H20 (HGX H20 product brief, China market): 96 GB HBM3, 4.0 TB/s, FP16/BF16 148 and FP8
    // 296 TFLOPS dense, NVLink 900 GB/s, 400 W; read through the search tool's pages (specification
    // digests of the brief). The later 141 GB HBM3e version is not this entry.
    name: 'H20 96GB',
    aliases: ['H20', 'H20-96G'],
    // nvidia-smi: "NVIDIA H20, 97871" MiB (public run logs), compute capability 9.0.
    smiName: 'NVIDIA H20',
    smiMatch: /\bH20\b/i,
    memMiB: 97871,
    memBwBps: 4.0 * TB,
    bf16Flops: 148 * TB,
    fp8Flops: 296 * TB,
    // A cut-down GH100: H100 SXM's value (unvalidated; at 148 TFLOPS it is rarely compute-bound).
    matmulEff: 0.801,
    computeCapability: 9.0,
    interconnectBps: 900 * GB,
    interconnect: 'nvlink',
  },
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
