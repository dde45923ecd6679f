// `npx tsx model-lab/lab-gpu-hypotheses.ts [FILTER]`: what each hypothesis about the GPUStack
// performance lab's "H100" predicts for the rows published on its H100 pages (see
// model-lab/DIAGNOSIS.md section 7). Each hypothesis is a GpuSpec built HERE from datasheet
// figures; none is in src/model/gpus.ts and no row in src/model/data is changed: the lab itself
// says "H100 SXM" (model-lab/DIAGNOSIS.md), so these are what-ifs, not the model.
// Prints, per row: published tok/s and the error under each hypothesis (or why it cannot start),
// then the median |error| per hypothesis over the rows that start under every hypothesis.
// Nothing is asserted; figures only. Deterministic (virtual clock, seed 42), ~10 s on a 2-core host.
import { PUBLISHED } from '../src/model/data/published.js';
import type { PublishedResult } from '../src/model/data/published-result.js';
import { findGpu } from '../src/model/gpus.js';
import type { GpuSpec } from '../src/model/gpu-spec.js';
import { median } from './sim-validation.js';
import { simulateWorkload } from '../src/sim/scheduler/virtual.js';
import { sharegptLike } from '../src/sim/predict/workload.js';

const TB = 1e12;
const GB = 1e9;
const SXM = findGpu('H100')!;

/**
 * The parts an "H100" page could mean. Figures: NVIDIA's H100 datasheet (dense = the sparse
 * figure / 2), nvidia-smi names and memory.total as printed on such parts. cudaTotalMiB for the
 * 94 GB part is SXM's gap (nvidia-smi 81559 MiB vs CUDA 79.18 GiB) applied to 95830 MiB: an
 * estimate, not a log. matmulEff: SXM's (no MAMF row for these parts; a 350-400 W card clocks
 * lower, so this flatters them).
 */
const HYPOTHESES: Record<string, GpuSpec> = {
  // What the model assumes: H100 SXM5 80 GB HBM3, NVLink 4 through NVSwitch.
  'SXM 80GB': SXM,
  // H100 NVL: 94 GB HBM3, 3.9 TB/s, BF16 1,671 / FP8 3,341 TFLOPS with sparsity, 350-400 W,
  // NVLink bridge 600 GB/s between the two cards of a pair, PCIe Gen5 128 GB/s otherwise.
  // nvidia-smi: "NVIDIA H100 NVL", 95830MiB. TP1: no collectives, so the link does not matter.
  'NVL 94GB': {
    ...SXM,
    name: 'H100 NVL 94GB',
    smiName: 'NVIDIA H100 NVL',
    memMiB: 95830,
    cudaTotalMiB: 95830 - (81559 - Math.round(79.18 * 1024)),
    memBwBps: 3.9 * TB,
    bf16Flops: 835.5 * TB,
    fp8Flops: 1670.5 * TB,
    interconnectBps: 128 * GB,
    interconnect: 'pcie',
  },
  // H100 PCIe: 80 GB HBM2e, 2.0 TB/s, BF16 1,513 / FP8 3,026 sparse, 300-350 W, NVLink bridge 600
  // GB/s between pairs, PCIe Gen5 128 GB/s. Same memory as SXM: the 5 Qwen3-32B vLLM rows still cannot start.
  'PCIe 80GB': {
    ...SXM,
    name: 'H100 PCIe 80GB',
    smiName: 'NVIDIA H100 PCIe',
    memBwBps: 2.0 * TB,
    bf16Flops: 756.5 * TB,
    fp8Flops: 1513 * TB,
    interconnectBps: 128 * GB,
    interconnect: 'pcie',
  },
  // H800 SXM (the export part): H100 SXM's compute and 80 GB, NVLink cut to 400 GB/s.
  'H800 80GB': { ...SXM, name: 'H800 SXM 80GB', smiName: 'NVIDIA H800', interconnectBps: 400 * GB },
};

/** The GPUStack lab's H100 pages (Qwen3-32B, Qwen3-235B-A22B, GLM-4.6). */
const isLabH100 = (r: PublishedResult) => r.gpu === 'H100' && r.source.includes('gpustack/gpustack');

function lengths(r: PublishedResult): { promptLen: number; outputLen: number }[] {
  if (r.workload.kind === 'sharegpt') return sharegptLike(r.numPrompts, 42);
  const { input, output } = r.workload;
  return Array.from({ length: r.numPrompts }, () => ({ promptLen: input, outputLen: output }));
}

/** Simulated mean TPOT (ms) per row and hypothesis, printed after the table: a second discriminator. */
const tpots = new Map<PublishedResult, string[]>();

/** simulated / published - 1, or the model's reason the server cannot start. */
function errorUnder(r: PublishedResult, gpu: GpuSpec): number | string {
  const sim = simulateWorkload({
    engine: r.engine,
    engineVersion: r.engineVersion,
    gpu,
    gpus: r.gpus,
    model: r.model,
    knobs: r.knobs,
    requests: lengths(r),
    seed: 42,
  });
  tpots.set(r, [...(tpots.get(r) ?? []), sim.metrics ? sim.metrics.mean_tpot_ms.toFixed(1) : '–']);
  if (!sim.metrics) return sim.fit.reason ?? 'does not fit';
  return sim.metrics.total_token_throughput / r.totalTokPerS - 1;
}

const filter = process.argv[2];
const rows = PUBLISHED.filter(isLabH100).filter((r) => !filter || `${r.model} ${r.engine} ${JSON.stringify(r.knobs)}`.includes(filter));
const names = Object.keys(HYPOTHESES);
const pct = (e: number | string) => (typeof e === 'string' ? 'cannot start' : `${e >= 0 ? '+' : ''}${(e * 100).toFixed(1)}%`);
const wl = (r: PublishedResult) => (r.workload.kind === 'sharegpt' ? 'ShareGPT' : `random ${r.workload.input}/${r.workload.output}`);

console.log(`| model | engine | knobs | workload | published | ${names.join(' | ')} |`);
console.log(`|---|---|---|---|---|${names.map(() => '---|').join('')}`);
const errs: (number | string)[][] = [];
for (const r of rows) {
  const e = names.map((n) => errorUnder(r, HYPOTHESES[n]!));
  errs.push(e);
  const knobs =
    Object.entries(r.knobs)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ') || '–';
  console.log(
    `| ${r.model.split('/')[1]} | ${r.engine} | ${knobs} | ${wl(r)} | ${r.totalTokPerS.toFixed(0)} | ${e.map(pct).join(' | ')} |`,
  );
}
console.log(`\n| model | engine | knobs | workload | published mean TPOT ms | ${names.map((n) => `${n} sim TPOT`).join(' | ')} |`);
console.log(`|---|---|---|---|---|${names.map(() => '---|').join('')}`);
for (const r of rows) {
  const knobs =
    Object.entries(r.knobs)
      .map(([k, v]) => `${k}=${v}`)
      .join(' ') || '–';
  console.log(`| ${r.model.split('/')[1]} | ${r.engine} | ${knobs} | ${wl(r)} | ${r.meanTpotMs ?? '–'} | ${tpots.get(r)!.join(' | ')} |`);
}
console.log('');
names.forEach((n, i) => {
  const started = errs.map((e) => e[i]!).filter((e): e is number => typeof e === 'number');
  const common = errs.filter((e) => e.every((x) => typeof x === 'number')).map((e) => Math.abs(e[i] as number));
  console.log(
    `${n}: ${started.length} of ${rows.length} rows start; median |error| ${(100 * median(started.map(Math.abs))).toFixed(1)}% over those, ${(100 * median(common)).toFixed(1)}% over the ${common.length} rows that start under every hypothesis`,
  );
});
