// The NVIDIA parts users asked for this year (B300, GB200, RTX PRO 6000 Blackwell, L4, H20), one row
// each with the datasheet it was read from: rows of the GPU catalogue (gpus.ts).
import { GB, TB, type GpuSpec } from './gpu-spec.js';

export const RECENT_NVIDIA_GPUS: GpuSpec[] = [
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
    // sparsity), PCIe Gen5 x16, no NVLink; read through the search tool's pages (press
    // reports of the announcement quoting 1792 GB/s and 4000 AI TOPS). Dense figures derived from the 4000 FP4-sparse TOPS
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
];
