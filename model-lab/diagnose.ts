// `npx tsx model-lab/diagnose.ts [FILTER]`: where the simulated time of a published row goes. For each
// held-out row whose model/GPU/knobs text contains FILTER (default: one representative row per
// family, model-lab/DIAGNOSIS.md), runs the row's workload on the virtual clock and sums each
// step's parts as step-time.ts reports them (GEMM + weight streaming, attention, communication,
// launch/host overhead), the batch the scheduler formed, and the first-principles bounds: the
// achieved FLOP/s the published throughput implies (2 x active params x tokens/s) against the
// GPUs' datasheet peak, and the weight-streaming floor of one decode step.
// Prints figures only; nothing is asserted (model-lab/DIAGNOSIS.md quotes them).
import { PUBLISHED } from '../src/model/data/published.js';
import type { PublishedResult } from '../src/model/data/published-result.js';
import { stepTime } from '../src/model/step-time.js';
import { findGpu } from '../src/model/gpus.js';
import { paramCounts } from '../src/model/param-counts.js';
import { TRAINING_STUDIES } from './training.js';
import { trtllmBenchSettings } from '../src/model/data/trtllm-bench-settings.js';
import { Scheduler } from '../src/sim/scheduler/scheduler.js';
import { resolveOptions } from '../src/sim/scheduler/virtual.js';
import { sharegptLike } from '../src/sim/predict/workload.js';

const DEFAULT = [
  'Llama-3.1-8B-Instruct-FP8 H100 random-1000/1000',
  'Llama-3.3-70B-Instruct-FP8 H200 random-1024/1024',
  'Qwen3-235B-A22B-FP8 H200 random-1024/1024',
  'DeepSeek-R1-0528 H200 random-1024/1024',
  'Qwen3-235B-A22B-Instruct-2507 H100 random-2000/100 {"tp":8}',
  'GLM-4.6-FP8 H200 random-2000/100',
  'Qwen3-235B-A22B-Instruct-2507 H100 ShareGPT vllm {"tp":8}',
];

/**
 * What-if overrides (environment WHATIF, JSON), applied to the resolved server of every row, to
 * measure a mechanism before it is built into src/model: knobs (e.g. {"kvCacheDtype":"fp8"}),
 * moeEff (the engine's routed-expert GEMM efficiency), gemmScale (multiplies the GEMM FLOP/s).
 */
interface WhatIf {
  knobs?: Record<string, unknown>;
  moeEff?: number;
  /** Any other engine efficiency field (efficiency.ts EngineEfficiency), e.g. {"moeLayerOverheadS": 3e-5}. */
  eff?: Record<string, number>;
  gemmScale?: number;
  /**
   * TensorRT-LLM rows: serve with an FP8 KV cache (a ModelOpt checkpoint's kv_cache_quant_algo) and
   * redo trtllm-bench's batch-limit heuristic with KV BYTES_PER_ELEM 1, as get_settings would.
   */
  kvFp8?: boolean;
  /**
   * Retired: the model now pads each expert's token group to the engine's MoE tile itself
   * (src/model/moe-tiles.ts); applying it here again would pad twice. Refused if given.
   */
  moeTile?: number;
  /** The fitted grouped-GEMM factor (relative to dense GEMMs, after tile padding) replaced by this value. */
  moeKernelEff?: number;
  /**
   * TensorRT-LLM attention-DP rows: use the per-rank limits trtllm-bench chose (published-wider.ts
   * benchKnobs multiplies them by the ranks for a scheduler that treated them as server-wide; the
   * scheduler now scales them itself, src/sim/scheduler/rank-limits.ts).
   */
  perRankKnobs?: boolean;
  /**
   * Largest decode batch (per rank) that runs as a CUDA graph; larger ones run eager. TensorRT-LLM's
   * trtllm-serve default (CudaGraphConfig(): max_batch_size 0 -> 128, enable_padding false) graphs
   * batch sizes 1..32, 64 and 128 only; 32 approximates it (model-lab/DIAGNOSIS.md section 1b).
   */
  graphMaxBs?: number;
  /** Only rows whose label matches this regular expression get the overrides. */
  only?: string;
}
const WHAT: WhatIf = process.env.WHATIF ? (JSON.parse(process.env.WHATIF) as WhatIf) : {};
if (WHAT.moeTile !== undefined) {
  console.error(
    'diagnose: WHATIF moeTile is retired: the model pads routed-expert GEMMs to the engine tile itself (src/model/moe-tiles.ts); use moeKernelEff to replace the fitted factor',
  );
  process.exit(2);
}

/** The three studies (training data, in-sample) as published rows: ShareGPT, 1000 prompts at once. */
const STUDIES: PublishedResult[] = TRAINING_STUDIES.map((v) => ({
  group: v.study,
  engine: v.engine,
  engineVersion: '',
  model: v.model,
  gpu: v.gpu,
  gpus: v.gpus,
  knobs: v.knobs,
  workload: { kind: 'sharegpt' },
  numPrompts: 1000,
  totalTokPerS: v.published!,
  source: v.study,
  split: 'train',
}));

const wl = (r: PublishedResult) => (r.workload.kind === 'sharegpt' ? 'ShareGPT' : `random-${r.workload.input}/${r.workload.output}`);
const label = (r: PublishedResult) => `${r.model.split('/')[1]} ${r.gpu} ${wl(r)} ${r.engine} ${JSON.stringify(r.knobs)}`;

function diagnose(r: PublishedResult, quiet = false): number | null {
  const apply = !WHAT.only || new RegExp(WHAT.only, 'i').test(label(r));
  let knobs = apply && WHAT.knobs ? { ...r.knobs, ...WHAT.knobs } : r.knobs;
  if (apply && WHAT.perRankKnobs && r.engine === 'trtllm' && knobs.dpAttention) {
    const tp = knobs.tp ?? 1;
    knobs = { ...knobs, maxRunningSeqs: knobs.maxRunningSeqs! / tp, maxBatchedTokens: knobs.maxBatchedTokens! / tp };
  }
  if (apply && WHAT.kvFp8 && r.engine === 'trtllm' && knobs.kvCacheDtype !== 'fp8' && r.workload.kind === 'random') {
    const tp = knobs.tp ?? 1;
    const s = trtllmBenchSettings({
      model: r.model,
      gpu: findGpu(r.gpu)!,
      tp,
      pp: knobs.pp ?? 1,
      isl: r.workload.input,
      osl: r.workload.output,
      weightBytesPerElem: 1,
      kvBytesPerElem: 1,
    });
    const ranks = knobs.dpAttention && !WHAT.perRankKnobs ? tp : 1;
    knobs = { ...knobs, kvCacheDtype: 'fp8', maxRunningSeqs: s.maxBatchSize * ranks, maxBatchedTokens: s.maxNumTokens * ranks };
  }
  const cfg = resolveOptions({ engine: r.engine, engineVersion: r.engineVersion, gpu: r.gpu, gpus: r.gpus, model: r.model, knobs });
  if (!cfg.fit.fits) return quiet ? null : (console.log(`${label(r)}: does not fit (${cfg.fit.reason})`), null);
  if (apply && WHAT.moeEff !== undefined) cfg.eff = { ...cfg.eff, moeEff: WHAT.moeEff };
  if (apply && WHAT.eff) cfg.eff = { ...cfg.eff, ...WHAT.eff };
  if (apply && WHAT.gemmScale !== undefined) cfg.gemmFlops *= WHAT.gemmScale;
  if (apply && WHAT.graphMaxBs !== undefined) cfg.eff = { ...cfg.eff, cudaGraphMaxBs: () => WHAT.graphMaxBs! };
  const perGroup = Math.floor(cfg.kvCapacityTokens / cfg.par.dp);
  if (perGroup < cfg.maxModelLen) cfg.maxModelLen = perGroup;
  const reqs =
    r.workload.kind === 'sharegpt'
      ? sharegptLike(r.numPrompts, 42)
      : Array.from({ length: r.numPrompts }, () => ({
          promptLen: (r.workload as { input: number }).input,
          outputLen: (r.workload as { output: number }).output,
        }));
  const sched = new Scheduler(cfg, 42);
  reqs.forEach((q, id) => {
    const len = Math.min(q.promptLen, cfg.maxModelLen - 1);
    const out = Math.max(1, Math.min(q.outputLen, cfg.maxModelLen - len));
    sched.add({ id, promptLen: len, maxTokens: out, outputTarget: out, arrival: 0 });
  });
  const sum = { t: 0, gemm: 0, attn: 0, comm: 0, over: 0, steps: 0, decodeSteps: 0, decodeSeqs: 0, tokens: 0, maxRun: 0 };
  const dec = { t: 0, gemm: 0, attn: 0, comm: 0, over: 0 };
  const moe = cfg.model.moe;
  for (;;) {
    const step = sched.plan();
    if (!step) break;
    // The model pads routed-expert GEMMs to the engine's tile itself (src/model/moe-tiles.ts), so
    // the what-if only replaces the fitted grouped-GEMM factor.
    if (apply && WHAT.moeKernelEff !== undefined && moe) cfg.eff = { ...cfg.eff, moeEff: WHAT.moeKernelEff };
    const st = stepTime(cfg, step.batch);
    sum.t += st.seconds;
    sum.gemm += st.gemmS;
    sum.attn += st.attnS;
    sum.comm += st.commS;
    sum.over += st.overheadS;
    sum.steps++;
    sum.tokens += step.batch.prefillTokens + step.batch.decodeSeqs;
    sum.maxRun = Math.max(sum.maxRun, step.batch.decodeSeqs);
    if (step.batch.prefillTokens === 0) {
      sum.decodeSteps++;
      sum.decodeSeqs += step.batch.decodeSeqs;
      dec.t += st.seconds;
      dec.gemm += st.gemmS;
      dec.attn += st.attnS;
      dec.comm += st.commS;
      dec.over += st.overheadS;
    }
    sched.commit(step);
  }
  const m = cfg.model;
  const p = paramCounts(m);
  const tokens = reqs.reduce((a, q) => a + q.promptLen + q.outputLen, 0);
  // Every request is sent at once: the API front end (src/sim/scheduler/front-end.ts) hands the whole burst to
  // the engine after preprocessing all of it, so the engine starts frontS late (as validate.ts runs it).
  const frontS = reqs.reduce((a, q) => a + cfg.eff.frontEndPerRequestS + cfg.eff.frontEndPerPromptTokenS * q.promptLen, 0);
  const simTput = tokens / (sum.t + frontS);
  if (quiet) return simTput / r.totalTokPerS - 1;
  const peak = (cfg.weightDtype === 'fp8' ? cfg.gpu.fp8Flops : cfg.gpu.bf16Flops) * cfg.par.gpusUsed;
  const activeNoEmb = p.active - p.embedding / 2;
  const pct = (x: number) => `${((100 * x) / sum.t).toFixed(0)}%`;
  const ms = (x: number) => `${((1000 * x) / Math.max(1, sum.decodeSteps)).toFixed(2)} ms`;
  console.log(`\n### ${label(r)}`);
  console.log(
    `published ${r.totalTokPerS.toFixed(0)} tok/s, simulated ${simTput.toFixed(0)} (${((simTput / r.totalTokPerS - 1) * 100).toFixed(1)}%)`,
  );
  console.log(
    `server: par ${JSON.stringify(cfg.par)} weights/GPU ${(cfg.weights.perGpu / 2 ** 30).toFixed(1)} GiB, KV/GPU ${(cfg.kvBytesPerGpu / 2 ** 30).toFixed(1)} GiB = ${cfg.kvCapacityTokens} tokens server-wide; maxRunningSeqs ${cfg.maxRunningSeqs}, maxBatchedTokens ${cfg.maxBatchedTokens}; gemm FLOP/s per GPU used ${(cfg.gemmFlops / 1e12).toFixed(0)} T (x matmulEff x arch)`,
  );
  console.log(
    `active params ${(activeNoEmb / 1e9).toFixed(1)} B; implied achieved FLOP/s (published): ${((2 * activeNoEmb * r.totalTokPerS) / 1e12).toFixed(0)} TFLOP/s = ${((100 * 2 * activeNoEmb * r.totalTokPerS) / peak).toFixed(1)}% of ${cfg.par.gpusUsed} GPUs' dense ${cfg.weightDtype} peak; simulated ${((100 * 2 * activeNoEmb * simTput) / peak).toFixed(1)}%`,
  );
  console.log(
    `time split (all steps, ${sum.steps} steps): gemm ${pct(sum.gemm)} attn ${pct(sum.attn)} comm ${pct(sum.comm)} overhead ${pct(sum.over)}; plus the API front end ${frontS.toFixed(1)} s before the first step`,
  );
  console.log(
    `decode steps: ${sum.decodeSteps}, mean batch ${(sum.decodeSeqs / Math.max(1, sum.decodeSteps)).toFixed(0)}, max batch ${sum.maxRun}; per decode step: total ${ms(dec.t)} gemm ${ms(dec.gemm)} attn ${ms(dec.attn)} comm ${ms(dec.comm)} overhead ${ms(dec.over)}`,
  );
  console.log(
    `decode floor: weights read once ${(((cfg.weights.densePerGpu + cfg.weights.routedPerGpu) / cfg.gpu.memBwBps) * 1000).toFixed(2)} ms per step at full HBM bandwidth`,
  );
  return simTput / r.totalTokPerS - 1;
}

/** `--all`: every held-out row with the what-if applied; prints each error and the median |error|. */
function all(): void {
  const errs: number[] = [];
  const split = process.argv[3] === '--train' ? 'train' : process.argv[3] === '--studies' ? 'studies' : 'held-out';
  for (const r of split === 'studies' ? STUDIES : PUBLISHED.filter((x) => x.split === split)) {
    const e = diagnose(r, true);
    errs.push(e === null ? Infinity : Math.abs(e));
    console.log(`${label(r)}: ${e === null ? 'does not fit' : `${(e * 100).toFixed(1)}%`}`);
  }
  const s = [...errs].sort((a, b) => a - b);
  const med = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  console.log(`${split} rows ${s.length}; median |error| ${(med * 100).toFixed(1)}%; what-if ${JSON.stringify(WHAT)}`);
}

const filters = process.argv[2] ? [process.argv[2]] : DEFAULT;
if (process.argv[2] === '--all') all();
else
  for (const f of filters) {
    const words = f.toLowerCase().split(' ');
    // Held-out rows first, then the studies (in-sample: e.g. 'DeepSeek-R1-0528 H200 ShareGPT trtllm').
    const r = [...PUBLISHED.filter((x) => x.split === 'held-out'), ...STUDIES].find((x) =>
      words.every((w) => ` ${label(x)} `.toLowerCase().includes(w.startsWith('random') ? ` ${w} ` : w)),
    );
    if (!r) console.log(`\n(no held-out row matches '${f}')`);
    else diagnose(r);
  }
