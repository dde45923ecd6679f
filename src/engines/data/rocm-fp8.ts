// The FP8 formats of AMD Instinct GPUs by ISA (gfx arch): which one the engines compute in, and
// which they do not take. The planner's ROCm stage says it beside its candidates; the arch of a GPU
// is read from its name, as the engines' ROCm images are built per arch.

export interface RocmArch {
  arch: 'gfx942' | 'gfx950';
  /** Catalogue names of the GPUs of this arch. */
  gpus: RegExp;
  /** The FP8 format the engines compute in on it. */
  fp8: string;
  /** FP8 formats it does not compute in natively. */
  notFp8: string[];
  source: string;
}

const PLATFORM =
  'vllm/platforms/rocm.py (stored copy, id 21200): is_fp8_fnuz() = "gfx94" in gcnArchName; fp8_dtype() = torch.float8_e4m3fnuz if is_fp8_fnuz() else torch.float8_e4m3fn; supports_fp8() for gfx94, gfx95, gfx12';
const IMAGES =
  'sglang docker/rocm.Dockerfile (v0.5.5.post3 usage lines): GPU_ARCH=gfx942 builds the -mi30x image, GPU_ARCH=gfx950 the -mi35x image';

export const ROCM_ARCHES: readonly RocmArch[] = [
  {
    arch: 'gfx942',
    gpus: /MI300|MI325/i,
    fp8: 'float8_e4m3fnuz',
    notFp8: ['float8_e4m3fn (OCP)'],
    source: `${PLATFORM}; ${IMAGES}`,
  },
  {
    arch: 'gfx950',
    gpus: /MI350|MI355/i,
    fp8: 'float8_e4m3fn (OCP)',
    notFp8: ['float8_e4m3fnuz'],
    source: `${PLATFORM}; ${IMAGES}`,
  },
];

/** The arch of an AMD GPU by its name, when servelab knows it. */
export function rocmArchOf(gpuName: string): RocmArch | undefined {
  return ROCM_ARCHES.find((a) => a.gpus.test(gpuName));
}

/** What the plan says about FP8 on this GPU. */
export function rocmFp8Note(gpuName: string): string | undefined {
  const a = rocmArchOf(gpuName);
  if (!a) return undefined;
  return `FP8 on ${gpuName} (${a.arch}): the engines compute in ${a.fp8}, not ${a.notFp8.join(', ')}; vLLM and SGLang convert an OCP float8_e4m3fn checkpoint at load on gfx942 (normalize_e4m3fn_to_e4m3fnuz in their FP8 weight utilities, stored copies ids 846033148, 21670645) (${a.source}).`;
}
