// Host CPU facts for the llama.cpp estimate (llamacpp-estimate.ts): the CPU counterpart of the GPU
// catalog (gpus.ts). What /proc/cpuinfo states is read (logical CPUs, clock, SIMD flags); what it
// cannot state (DRAM bandwidth, FMA ports) is an estimate, and each figure carries its source.
import fs from 'node:fs';

export interface CpuFacts {
  /** Logical CPUs the kernel lists. */
  cores: number;
  /** Peak FP32 FLOP/s of one core. */
  flopsPerCore: number;
  /** Memory bandwidth one core's threads can draw, bytes/s. */
  memBwPerCoreBps: number;
  /** Total memory bandwidth cap, bytes/s. */
  memBwBps: number;
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

/** CPU facts from /proc/cpuinfo text (exported for tests). */
export function cpuFactsFrom(cpuinfo: string): CpuFacts {
  const cores = Math.max(1, (cpuinfo.match(/^processor\s*:/gm) ?? []).length);
  const mhz = Number(/^cpu MHz\s*:\s*([\d.]+)/m.exec(cpuinfo)?.[1] ?? 2000);
  const flags = new Set((/^flags\s*:(.*)$/m.exec(cpuinfo)?.[1] ?? '').trim().split(/\s+/));
  const lanes = flags.has('avx512f') ? 16 : flags.has('avx2') ? 8 : 4;
  const fma = flags.has('fma') || flags.has('avx512f') ? 2 : 1;
  const flopsPerCore = mhz * 1e6 * lanes * fma * FMA_PORTS;
  const isa = lanes === 16 ? 'AVX-512' : lanes === 8 ? 'AVX2' : 'SSE';
  return {
    cores,
    flopsPerCore,
    memBwPerCoreBps: BW_PER_CORE,
    memBwBps: Math.min(BW_TOTAL, BW_PER_CORE * cores),
    source: `/proc/cpuinfo: ${cores} logical CPUs at ${mhz} MHz, ${isa}${fma > 1 ? ' FMA' : ''}; estimated: ${FMA_PORTS} FMA ports per core, ${BW_PER_CORE / 1e9} GB/s per core and ${BW_TOTAL / 1e9} GB/s total DRAM bandwidth (hand-set, not measured)`,
  };
}

/** This host's CPU facts. */
export function hostCpuFacts(): CpuFacts {
  let text = '';
  try {
    text = fs.readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    // no /proc (not Linux): the defaults of cpuFactsFrom('') stand, and the source says so
  }
  return cpuFactsFrom(text);
}
