// The GPU catalogue's record: the datasheet figures the estimate needs for one part, below the
// catalogue's files (gpus.ts, gpus-*.ts) so that each can hold its rows without a cycle.
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

/** Units the catalogue's rows are written in. */
export const TB = 1e12;
export const GB = 1e9;
