// `npx tsx model-lab/decode-steps.ts "WORDS"`: the simulated engine steps of every published row (held
// out and training) whose label contains all WORDS, split by kind (mixed = carries prefill, and
// decode-only steps by batch size), each with step-time.ts's parts, plus the run's simulated median
// ITL as `vllm bench serve` reports it. A decode-only step is what the published Median ITL of a
// random-IN/OUT vLLM run measures (its mixed steps are 5-20x longer and fewer), so the two can be
// set side by side: model-lab/DIAGNOSIS.md section 8 does, for the pages' vLLM rows.
// WHATIF='{"eff":{...},"only":"REGEX"}' overrides engine efficiency fields as model-lab/diagnose.ts does.
// Prints figures only; nothing is asserted.
import { PUBLISHED } from '../src/model/data/published.js';
import type { PublishedResult } from '../src/model/data/published-result.js';
import { stepTime } from '../src/model/step-time.js';
import { Scheduler } from '../src/sim/scheduler/scheduler.js';
import { resolveOptions, simulateWorkload } from '../src/sim/scheduler/virtual.js';
import { sharegptLike } from '../src/sim/predict/workload.js';

/**
 * Published Median ITL (ms) of vLLM 0.11.0 random-IN/OUT runs whose decode-only steps dominate,
 * quoted from gpustack/gpustack@47277d79 docs/performance-lab/<page>.md ("Median ITL (ms):"), keyed
 * by this script's row label. Not model data: printed next to the simulated steps only.
 */
const PUBLISHED_MEDIAN_ITL_MS: Record<string, number> = {
  'Qwen3-14B H100 random-32000/100 vllm {}': 43.48, // qwen3-14b/h100
  'Qwen3-14B H100 random-4000/200 vllm {}': 43.93,
  'Qwen3-14B H100 random-2000/100 vllm {}': 46.01,
  'Qwen3-32B A100 random-32000/100 vllm {"maxModelLen":32768}': 48.55, // qwen3-32b/a100
  'Qwen3-32B A100 random-4000/200 vllm {"maxModelLen":32768}': 51.55,
  'Qwen3-32B A100 random-2000/100 vllm {"maxModelLen":32768}': 51.49,
  'GLM-4.6 H200 random-4000/200 vllm {"tp":8}': 59.67, // glm-4.x/h200
  'Qwen3-235B-A22B-Instruct-2507 H100 random-32000/100 vllm {"tp":8}': 23.29, // qwen3-235b-a22b/h100
  'Qwen3-235B-A22B-Instruct-2507 H100 random-4000/200 vllm {"tp":8}': 30.18,
  'Qwen3-235B-A22B-Instruct-2507 H100 random-2000/100 vllm {"tp":8}': 35.94,
  'Qwen3-235B-A22B-Instruct-2507-FP8 H100 random-32000/100 vllm {"tp":4,"maxBatchedTokens":16384}': 27.6,
  'Qwen3-235B-A22B-Instruct-2507-FP8 H100 random-4000/200 vllm {"tp":4,"maxBatchedTokens":16384}': 34.82,
  'Qwen3-235B-A22B-Instruct-2507-FP8 H100 random-2000/100 vllm {"tp":4,"maxBatchedTokens":16384}': 39.21,
};

interface WhatIf {
  eff?: Record<string, number>;
  only?: string;
}
const WHAT: WhatIf = process.env.WHATIF ? (JSON.parse(process.env.WHATIF) as WhatIf) : {};

const wl = (r: PublishedResult) => (r.workload.kind === 'sharegpt' ? 'ShareGPT' : `random-${r.workload.input}/${r.workload.output}`);
const label = (r: PublishedResult) => `${r.model.split('/')[1]} ${r.gpu} ${wl(r)} ${r.engine} ${JSON.stringify(r.knobs)}`;
const lengths = (r: PublishedResult) =>
  r.workload.kind === 'sharegpt'
    ? sharegptLike(r.numPrompts, 42)
    : Array.from({ length: r.numPrompts }, () => ({
        promptLen: (r.workload as { input: number }).input,
        outputLen: (r.workload as { output: number }).output,
      }));

/** Step kind for the summary: mixed (carries prefill) or decode-only by batch size. */
function bucket(prefillTokens: number, decodeSeqs: number): string {
  if (prefillTokens > 0) return 'mixed';
  return decodeSeqs <= 16 ? 'decode bs<=16' : decodeSeqs <= 64 ? 'decode bs<=64' : decodeSeqs <= 256 ? 'decode bs<=256' : 'decode bs>256';
}

interface Sum {
  n: number;
  seconds: number;
  gemm: number;
  attn: number;
  comm: number;
  over: number;
  seqs: number;
}

function steps(r: PublishedResult): void {
  const apply = !WHAT.only || new RegExp(WHAT.only, 'i').test(label(r));
  const cfg = resolveOptions({
    engine: r.engine,
    engineVersion: r.engineVersion,
    gpu: r.gpu,
    gpus: r.gpus,
    model: r.model,
    knobs: r.knobs,
  });
  if (!cfg.fit.fits) return void console.log(`${label(r)}: does not fit (${cfg.fit.reason})`);
  if (apply && WHAT.eff) cfg.eff = { ...cfg.eff, ...WHAT.eff };
  const perGroup = Math.floor(cfg.kvCapacityTokens / cfg.par.dp);
  if (perGroup < cfg.maxModelLen) cfg.maxModelLen = perGroup;
  const sched = new Scheduler(cfg, 42);
  lengths(r).forEach((q, id) => {
    const len = Math.min(q.promptLen, cfg.maxModelLen - 1);
    const out = Math.max(1, Math.min(q.outputLen, cfg.maxModelLen - len));
    sched.add({ id, promptLen: len, maxTokens: out, outputTarget: out, arrival: 0 });
  });
  const sums = new Map<string, Sum>();
  for (let step = sched.plan(); step; step = sched.plan()) {
    const st = stepTime(cfg, step.batch);
    const k = bucket(step.batch.prefillTokens, step.batch.decodeSeqs);
    const s = sums.get(k) ?? { n: 0, seconds: 0, gemm: 0, attn: 0, comm: 0, over: 0, seqs: 0 };
    s.n++;
    s.seconds += st.seconds;
    s.gemm += st.gemmS;
    s.attn += st.attnS;
    s.comm += st.commS;
    s.over += st.overheadS;
    s.seqs += step.batch.decodeSeqs;
    sums.set(k, s);
    sched.commit(step);
  }
  // The whole run as validate.ts runs it (front end included), for the client-side median ITL.
  const sim =
    apply && WHAT.eff
      ? null
      : simulateWorkload({
          engine: r.engine,
          engineVersion: r.engineVersion,
          gpu: r.gpu,
          gpus: r.gpus,
          model: r.model,
          knobs: r.knobs,
          requests: lengths(r),
          seed: 42,
        });
  const m = sim?.metrics;
  console.log(`\n### ${label(r)} (${r.split})`);
  console.log(
    `published ${r.totalTokPerS.toFixed(0)} tok/s; KV pool ${cfg.kvCapacityTokens} tokens${m ? `; simulated ${m.total_token_throughput.toFixed(0)} tok/s, median ITL ${m.median_itl_ms.toFixed(1)} ms, mean TTFT ${(m.mean_ttft_ms / 1000).toFixed(1)} s, duration ${m.duration.toFixed(1)} s` : ''}`,
  );
  const ms = (x: number, n: number) => ((1000 * x) / n).toFixed(1);
  for (const [k, s] of [...sums].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(
      `  ${k}: ${s.n} steps, mean batch ${(s.seqs / s.n).toFixed(0)}, step ${ms(s.seconds, s.n)} ms = gemm ${ms(s.gemm, s.n)} + attn ${ms(s.attn, s.n)} + comm ${ms(s.comm, s.n)} + overhead ${ms(s.over, s.n)} (+ prefill factors)`,
    );
  }
  const itl = PUBLISHED_MEDIAN_ITL_MS[label(r)];
  // The decode-only bucket with the most steps is the one the published median falls in.
  const main = [...sums].filter(([k]) => k !== 'mixed').sort(([, a], [, b]) => b.n - a.n)[0];
  if (itl !== undefined && main) {
    const [k, s] = main;
    const room = itl - (1000 * (s.gemm + s.attn + s.comm)) / s.n;
    console.log(
      `  published Median ITL ${itl} ms: room for fixed costs in ${k} steps ${room.toFixed(1)} ms (the model charges ${ms(s.over, s.n)})`,
    );
  }
}

const words = (process.argv[2] ?? '').toLowerCase().split(' ').filter(Boolean);
if (!words.length) {
  console.error('usage: npx tsx model-lab/decode-steps.ts "WORDS" (e.g. "Instruct-2507 H100 vllm random-4000/200")');
  process.exit(2);
}
const rows = PUBLISHED.filter((r) => words.every((w) => ` ${label(r)} `.toLowerCase().includes(w)));
if (!rows.length) console.log(`(no published row matches '${process.argv[2]}')`);
for (const r of rows) steps(r);
