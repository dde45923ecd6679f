// Which backend servelab's llama.cpp build is made for, and the cmake flags that make it. The
// recipe is llama.cpp/docs/build.md at 80fb11a: CUDA is `cmake -B build -DGGML_CUDA=ON`, with
// "Manually list each varying Compute Capability in the CMAKE_CUDA_ARCHITECTURES list" (its CUDA
// section); HIP is `cmake -S . -B build -DGGML_HIP=ON -DGPU_TARGETS=gfx1030`, where "GPU_TARGETS
// is optional, omitting it will build the code for all GPUs in the current system" (its HIP section).
// Without CMAKE_CUDA_ARCHITECTURES, GGML_NATIVE=ON asks cmake for "native", the GPUs present at
// build time (ggml/src/ggml-cuda/CMakeLists.txt at 80fb11a), which fails on a host without one:
// servelab reads the compute capability from nvidia-smi instead, or takes --gpu-arch. A plain
// 12X (RTX PRO 6000 Blackwell: 120) is fine: that CMakeLists replaces it with 12Xa, which the
// Blackwell FP4 instructions need.
//
//   chooseBackend({ cpu?, which? }) -> 'cuda' when nvcc is on PATH, 'hip' when hipcc is, else 'cpu'
//   backendFlags(backend, arch?, amx?) -> the cmake flags added to the common ones (AMX_OFF_FLAGS on an AMX CPU)
//   buildKey(commit, backend) -> the cache folder's name: <commit> (CPU, as before), <commit>-cuda, <commit>-hip
import { execa } from 'execa';
import { UserError } from '../core/errors.js';
import { findOnPath } from '../core/which.js';
import { cpuIdentity } from './cpu.js';

export const LLAMA_BACKENDS = ['cpu', 'cuda', 'hip'] as const;
export type LlamaBackend = (typeof LLAMA_BACKENDS)[number];

/** How each backend is named to a person. */
export const BACKEND_LABEL: Record<LlamaBackend, string> = { cpu: 'CPU', cuda: 'CUDA', hip: 'HIP (ROCm)' };

/** The compiler whose presence picks the backend, in order of preference. */
const COMPILERS: [LlamaBackend, string][] = [
  ['cuda', 'nvcc'],
  ['hip', 'hipcc'],
];

export function chooseBackend(o: { cpu?: boolean; gpuArch?: string; which?: (tool: string) => string | undefined } = {}): LlamaBackend {
  if (o.cpu) return 'cpu';
  const which = o.which ?? findOnPath;
  const found = COMPILERS.find(([, tool]) => which(tool))?.[0];
  if (!found && o.gpuArch)
    throw new UserError('--gpu-arch needs nvcc (CUDA) or hipcc (HIP) on PATH, and neither is: install one, or build with --cpu');
  return found ?? 'cpu';
}

/** The CPU build keeps the folder it always had, so a cache built before backends existed stays usable. */
export function buildKey(commit: string, backend: LlamaBackend): string {
  return backend === 'cpu' ? commit : `${commit}-${backend}`;
}

/** "9.0\n9.0" (nvidia-smi's compute_cap per GPU) -> "90"; several kinds -> "80;90". */
export function cudaArchFromComputeCaps(text: string): string | undefined {
  const caps = [
    ...new Set(
      text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => /^\d+\.\d+$/.test(l))
        .map((l) => l.replace('.', '')),
    ),
  ];
  return caps.length ? caps.sort().join(';') : undefined;
}

/** The compute capabilities of this host's NVIDIA GPUs, as CMAKE_CUDA_ARCHITECTURES spells them. */
async function localCudaArch(): Promise<string | undefined> {
  if (!findOnPath('nvidia-smi')) return undefined;
  const r = await execa('nvidia-smi', ['--query-gpu=compute_cap', '--format=csv,noheader'], { reject: false, timeout: 15_000 });
  return r.exitCode === 0 ? cudaArchFromComputeCaps(String(r.stdout)) : undefined;
}

/** The GPU architectures to compile for: as given, else this host's (CUDA), else llama.cpp's default (HIP). */
export async function resolveGpuArch(backend: LlamaBackend, given?: string): Promise<string | undefined> {
  if (backend === 'cpu') return undefined;
  if (given) return given;
  if (backend === 'hip') return undefined;
  const arch = await localCudaArch();
  if (arch) return arch;
  throw new UserError(
    'nvcc is here but nvidia-smi shows no GPU to compile for: give --gpu-arch (e.g. 90 for H100/H200, 89 for L4/L40S, 80 for A100, 100 for B200, 120 for RTX PRO 6000), or --cpu',
  );
}

/**
 * On a CPU with AMX the CPU build compiles llama.cpp's AMX kernels out. At 80fb11a they crash on
 * repacked quantized weights: SIGSEGV in ggml_backend_amx_mul_mat (ggml-org/llama.cpp#20824, closed
 * stale without a fix), SIGILL at `tilezero` on a VM here. The open fix names two causes: the tile
 * permission is asked on the main thread only, and the tile config can be optimized away
 * (ggml-org/llama.cpp#26954). stanfordnlp/dspy#10079 removed the AMX variant of its CI's
 * llama-server for the same crash. The -march=native build keeps AVX-512 and VNNI, and with them
 * llama.cpp's CPU repacking of quantized weights, which --no-repack (the other way around the
 * crash) gives up. GCC keeps an explicit -mno-* against -march=native in either order.
 */
const AMX_OFF = '-mno-amx-tile -mno-amx-int8 -mno-amx-bf16';
export const AMX_OFF_FLAGS = [`-DCMAKE_C_FLAGS=${AMX_OFF}`, `-DCMAKE_CXX_FLAGS=${AMX_OFF}`];

/** This host's CPU has AMX (the amx_int8 flag of /proc/cpuinfo). */
const hostAmx = () => cpuIdentity().flags.includes('amx_int8');

/** GPU builds keep their flags (and their hours-long cached builds): they run with --no-repack on an AMX CPU instead. */
export function backendFlags(backend: LlamaBackend, arch?: string, amx = hostAmx()): string[] {
  if (backend === 'cuda') return ['-DGGML_CUDA=ON', ...(arch ? [`-DCMAKE_CUDA_ARCHITECTURES=${arch}`] : [])];
  if (backend === 'hip') return ['-DGGML_HIP=ON', ...(arch ? [`-DGPU_TARGETS=${arch}`] : [])];
  return amx ? AMX_OFF_FLAGS : [];
}
