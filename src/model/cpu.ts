// Host CPU facts for the llama.cpp estimate (llamacpp-estimate.ts): the CPU counterpart of the GPU
// catalog (gpus.ts). The model takes what the machine states as input (src/host/cpu.ts reads
// /proc/cpuinfo and /proc/stat, the one owner of those files): logical CPUs, clock, SIMD flags,
// and how many cores other processes kept busy when the session started. What the machine cannot
// state (DRAM bandwidth, FMA ports) is an estimate here, and each figure carries its source.

/** What the machine states about its CPU (src/host/cpu.ts cpuIdentity). */
export interface CpuIdentity {
  /** Logical CPUs the kernel lists. */
  logicalCpus: number;
  /** Clock of the first CPU, MHz (absent: not stated). */
  mhz?: number;
  flags: readonly string[];
  /** cpuinfo's "model name" (the host fingerprint of a CPU calibration). */
  modelName?: string;
}

/** Other processes' use of the CPUs, read once when a session starts (src/host/cpu.ts cpuLoadNow). */
export interface CpuLoad {
  /** Cores kept busy by everything running then (user + nice + system + irq time over a short window). */
  busyCores: number;
  /** The 1-minute load average then (reported beside the figure; the estimate reads busyCores). */
  loadAvg1: number;
  source: string;
}

export interface CpuFacts {
  /** Logical CPUs the kernel lists. */
  cores: number;
  /** Peak FP32 FLOP/s of one core. */
  flopsPerCore: number;
  /** Memory bandwidth one core's threads can draw, bytes/s. */
  memBwPerCoreBps: number;
  /** Total memory bandwidth cap, bytes/s. */
  memBwBps: number;
  /** Cores other processes kept busy at session start (0: not measured, an idle host). */
  busyCores: number;
  /** Runnable tasks then (the 1-minute load average; 0: not measured): the fair share a thread still gets on a busy host. */
  loadAvg1: number;
  modelName?: string;
  /** Where each figure comes from. */
  source: string;
}

/**
 * Hand-set estimates, not measured: single-core STREAM triad on recent server Xeons is of the
 * order of 10-20 GB/s, and a VM shares the socket's channels; 12 GB/s per core, 100 GB/s total.
 */
const BW_PER_CORE = 12e9;
const BW_TOTAL = 100e9;
/** Two FMA units per core (Intel server cores since Skylake-SP; an estimate, cpuinfo does not say). */
const FMA_PORTS = 2;
/** Clock assumed when cpuinfo states none. */
const DEFAULT_MHZ = 2000;

/** CPU facts from what the machine states (pure; the host's reading is src/host/cpu.ts hostCpuFacts). */
export function cpuFactsFrom(id: CpuIdentity, load?: CpuLoad): CpuFacts {
  const cores = Math.max(1, id.logicalCpus);
  const mhz = id.mhz ?? DEFAULT_MHZ;
  const flags = new Set(id.flags);
  const lanes = flags.has('avx512f') ? 16 : flags.has('avx2') ? 8 : 4;
  const fma = flags.has('fma') || flags.has('avx512f') ? 2 : 1;
  const isa = lanes === 16 ? 'AVX-512' : lanes === 8 ? 'AVX2' : 'SSE';
  const busyCores = Math.min(cores, Math.max(0, load?.busyCores ?? 0));
  return {
    cores,
    flopsPerCore: mhz * 1e6 * lanes * fma * FMA_PORTS,
    memBwPerCoreBps: BW_PER_CORE,
    memBwBps: Math.min(BW_TOTAL, BW_PER_CORE * cores),
    busyCores,
    loadAvg1: Math.max(0, load?.loadAvg1 ?? 0),
    ...(id.modelName ? { modelName: id.modelName } : {}),
    source:
      `/proc/cpuinfo: ${cores} logical CPUs at ${mhz} MHz, ${isa}${fma > 1 ? ' FMA' : ''}; ${load ? load.source : 'load not measured (taken as idle)'}; ` +
      `estimated: ${FMA_PORTS} FMA ports per core, ${BW_PER_CORE / 1e9} GB/s per core and ${BW_TOTAL / 1e9} GB/s total DRAM bandwidth (hand-set, not measured)`,
  };
}
