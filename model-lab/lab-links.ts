// `npx tsx model-lab/lab-links.ts [FILTER]`: what GPU-to-GPU link the GPUStack performance lab's
// multi-GPU ShareGPT rows imply (model-lab/DIAGNOSIS.md section 9). The lab's
// GLM-4.6-FP8 rows on 8 x H100 read +85..+100% on the model; their own latencies (mean TTFT,
// median TPOT, median ITL, quoted below from the result blocks) are 2-3x those of the same lab's
// 8 x H100 Qwen3-235B page and 8 x H200 GLM-4.6 page. This re-runs each row with the GPU's
// link replaced by a PCIe-class one (per-call all-reduce latency of the model's 'pcie' links,
// bandwidth in the model's convention: both directions together, x collectiveBwEff), and prints
// throughput and the three latencies beside the published ones, then the link bandwidth at which
// the simulated throughput comes closest to the published figure. A contrast column slows the
// GPU itself instead (FLOP/s and HBM bandwidth x 0.4, NVLink kept): a throttled or slower part.
// A what-if, not the model: the lab says "8 × NVIDIA H100 SXM GPUs on a single node" (gpustack
// commit 1f37f1b8), i.e. NVSwitch, and nothing in src/model changes. Nothing is asserted; figures
// only. Deterministic (virtual clock, seed 42), ~1 min on a 2-core host.
import { PUBLISHED } from '../src/model/data/published.js';
import type { PublishedResult } from '../src/model/data/published-result.js';
import { findGpu } from '../src/model/gpus.js';
import type { GpuSpec } from '../src/model/gpu-spec.js';
import { simulateWorkload } from '../src/sim/scheduler/virtual.js';
import { sharegptLike } from '../src/sim/predict/workload.js';

const GB = 1e9;
const GS = 'https://github.com/gpustack/gpustack/blob';

/**
 * Latencies printed in each row's result block ("Mean TTFT (ms)", "P99 TTFT (ms)", "Median TPOT
 * (ms)", "Median ITL (ms)"), keyed like `label()`. Pages: glm-4.6/h100.md @a5c9fafc3022e81779c2c5ade32c5b703ce2248c,
 * glm-4.6/h200.md @72aee9dd195ff5c9bf3a4886add80038ce79aef8, qwen3-235b-a22b/h100.md
 * @10e9444a07c73556f2ef0d10d2b2766bbf54c9c0 (the commits the rows in published-wider.ts cite).
 */
const QUOTED: Record<string, [ttftMs: number, p99TtftMs: number, medianTpotMs: number, medianItlMs: number]> = {
  'GLM-4.6-FP8 H100 vllm {"tp":8,"memFraction":0.85}': [26751.3, 45890.42, 273.93, 149.69],
  'GLM-4.6-FP8 H100 sglang {"tp":8}': [17555.93, 32706.51, 252.95, 129.94],
  'GLM-4.6-FP8 H100 sglang {"tp":8,"ep":8}': [18994.85, 34437.71, 237.99, 123.73],
  'GLM-4.6 H200 vllm {"tp":8}': [15339.53, 21078.26, 145.75, 68.98],
  'GLM-4.6 H200 sglang {"tp":8}': [6044.62, 10817.86, 148.97, 64.03],
  'GLM-4.6-FP8 H200 sglang {"tp":8}': [5085.56, 10068.82, 144.47, 52.76],
  'GLM-4.6-FP8 H200 sglang {"tp":4}': [5786.78, 10134.8, 144.11, 62.64],
  'GLM-4.6-FP8 H200 sglang {"tp":4,"ep":4}': [6632.87, 11461.66, 157.89, 61.25],
  'Qwen3-235B-A22B-Instruct-2507 H100 vllm {"tp":8}': [8730.69, 12940.37, 114.67, 51.14],
  'Qwen3-235B-A22B-Instruct-2507 H100 sglang {"tp":8}': [11715.28, 32860.14, 102.7, 44.39],
  'Qwen3-235B-A22B-Instruct-2507-FP8 H100 vllm {"tp":8,"ep":8}': [9755.64, 14508.64, 129.08, 49.03],
  'Qwen3-235B-A22B-Instruct-2507-FP8 H100 vllm {"tp":4}': [9924.69, 15574.61, 121.96, 57.15],
  'Qwen3-235B-A22B-Instruct-2507-FP8 H100 vllm {"tp":4,"ep":4}': [10706.1, 17226.88, 131.62, 60.65],
  'Qwen3-235B-A22B-Instruct-2507-FP8 H100 vllm {"tp":4,"maxBatchedTokens":16384}': [9600.73, 13887.13, 108.31, 56.97],
};

/** Link bandwidths tried (GB/s, both directions together; 900 = the model's NVLink 4 figure). */
const SCAN = [900, 256, 128, 96, 64, 48, 40, 32, 24];
/** The link columns printed in full (the others only enter the closest-bandwidth search). */
const SHOWN = [900, 128, 48, 32];
/** The contrast column: the GPU's FLOP/s and HBM bandwidth scaled by this, links unchanged. */
const SLOW_GPU = 0.4;

const label = (r: PublishedResult) => `${r.model.split('/')[1]} ${r.gpu} ${r.engine} ${JSON.stringify(r.knobs)}`;

/** The row's GPU with its in-node link replaced; 900 GB/s keeps the model's own GPU. */
function withLink(gpu: GpuSpec, gbps: number): GpuSpec {
  return gbps >= 900 ? gpu : { ...gpu, interconnectBps: gbps * GB, interconnect: 'pcie' };
}

function slowGpu(gpu: GpuSpec): GpuSpec {
  return { ...gpu, bf16Flops: gpu.bf16Flops * SLOW_GPU, fp8Flops: gpu.fp8Flops * SLOW_GPU, memBwBps: gpu.memBwBps * SLOW_GPU };
}

interface Sim {
  err: number;
  ttftS: number;
  p99TtftS: number;
  tpotMs: number;
  itlMs: number;
}

function simulate(r: PublishedResult, gpu: GpuSpec): Sim | null {
  const sim = simulateWorkload({
    engine: r.engine,
    engineVersion: r.engineVersion,
    gpu,
    gpus: r.gpus,
    model: r.model,
    knobs: r.knobs,
    requests: sharegptLike(r.numPrompts, 42),
    seed: 42,
  });
  if (!sim.metrics) return null;
  const m = sim.metrics;
  return {
    err: m.total_token_throughput / r.totalTokPerS - 1,
    ttftS: m.mean_ttft_ms / 1000,
    p99TtftS: m.p99_ttft_ms / 1000,
    tpotMs: m.median_tpot_ms,
    itlMs: m.median_itl_ms,
  };
}

const pct = (e: number) => `${e >= 0 ? '+' : ''}${(e * 100).toFixed(1)}%`;
const lat = (ttftS: number, p99S: number, tpot: number, itl: number) =>
  `${ttftS.toFixed(1)} (${p99S.toFixed(1)}) s / ${tpot.toFixed(0)} / ${itl.toFixed(0)}`;
const cell = (s: Sim | null) => (s ? `${pct(s.err)} / ${lat(s.ttftS, s.p99TtftS, s.tpotMs, s.itlMs)}` : 'cannot start');

function main(): void {
  const filter = process.argv[2];
  const rows = PUBLISHED.filter(
    (r) => r.source.startsWith(GS) && r.workload.kind === 'sharegpt' && QUOTED[label(r)] && (!filter || label(r).includes(filter)),
  );
  console.log('Each cell: throughput error / mean (P99) TTFT / median TPOT ms / median ITL ms; links in GB/s, both directions together.\n');
  const heads = [...SHOWN.map((b) => (b >= 900 ? 'NVLink 900 (model)' : `${b} GB/s`)), `GPU x${SLOW_GPU}, NVLink`];
  console.log(`| row | published tok/s / TTFT / TPOT / ITL | ${heads.join(' | ')} | closest link |`);
  console.log(`|---|---|${heads.map(() => '---|').join('')}---|`);
  for (const r of rows) {
    const [ttft, p99, tpot, itl] = QUOTED[label(r)]!;
    const gpu = findGpu(r.gpu)!;
    const sims = new Map(SCAN.map((b) => [b, simulate(r, withLink(gpu, b))] as const));
    const best = SCAN.filter((b) => sims.get(b)).reduce((a, b) => (Math.abs(sims.get(b)!.err) < Math.abs(sims.get(a)!.err) ? b : a));
    const cells = [...SHOWN.map((b) => cell(sims.get(b)!)), cell(simulate(r, slowGpu(gpu)))];
    console.log(
      `| ${label(r)} | ${r.totalTokPerS.toFixed(0)} / ${lat(ttft / 1000, p99 / 1000, tpot, itl)} | ${cells.join(' | ')} | ${best >= 900 ? 'NVLink' : `${best} GB/s`} (${pct(sims.get(best)!.err)}) |`,
    );
  }
}

main();
