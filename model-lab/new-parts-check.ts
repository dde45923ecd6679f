// `npx tsx model-lab/new-parts-check.ts`: the model on this year's parts against published results,
// held out (nothing here was fitted; src/model/fitted.ts was not touched by these rows). Prints, per
// point, the published figure, the model's, and the error (model / published - 1). Deterministic
// (virtual clock, seed 42), about a minute on a 2-core host; output kept in new-parts-check.txt.
//
// Points, each quoted from its public source:
// 1. sgl-project/sglang#34645 (https://github.com/sgl-project/sglang/pull/34645): SGLang nightly,
//    bench_one_batch_server at ISL 4096 / OSL 512, TP8; MI35x (gfx950) serves openai/gpt-oss-120b
//    in native MXFP4, MI30x (gfx942) the lmsys/gpt-oss-120b-bf16 conversion. "For 120b at BS 64 the
//    MI35x/MI30x throughput ratio (2.41x) lands almost exactly on that weight-traffic ratio (2.38x)".
//    The PR gives the ratio, not the per-GPU figures: the check is the ratio.
// 2. llm-d/llm-d#1233 (https://github.com/llm-d/llm-d/pull/1233): vLLM in ghcr.io/llm-d/llm-d-rocm:v0.6.0,
//    amd/Llama-3.3-70B-Instruct-FP8-KV at TP=8 on 8 x MI355X; its table "Workload | Conc | Output
//    tok/s | Total tok/s | TTFT (mean)". The PR does not give the prompt count: 8 x the concurrency
//    here (steady state after the first wave). The checkpoint is per-tensor FP8 with an FP8 KV cache
//    (Quark): the model runs the same shape as nvidia/Llama-3.3-70B-Instruct-FP8 (per-tensor) with
//    --kv-cache-dtype fp8.
// New NVIDIA parts (B300, GB200, RTX PRO 6000, L4, H20): no published aggregated serving result of a
// model servelab knows was found with the search tool; none is checked here.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineName, Knobs } from '../src/core/variant.js';
import { findGpu } from '../src/model/gpus.js';
import { predict, type Prediction } from '../src/sim/predict/predict.js';

/**
 * openai/gpt-oss-120b's config.json (Hugging Face), the fields the estimate reads: 36 layers, 128
 * experts with 4 per token, hidden and expert width 2880, 64 query / 8 KV heads of 64. The model has
 * no sliding-window attention: the alternate layers' 128-token window is charged as full attention
 * (a small share at ISL 4096 beside the weights at batch 64).
 */
const GPT_OSS_120B = {
  architectures: ['GptOssForCausalLM'],
  hidden_size: 2880,
  intermediate_size: 2880,
  num_hidden_layers: 36,
  num_attention_heads: 64,
  num_key_value_heads: 8,
  head_dim: 64,
  num_local_experts: 128,
  experts_per_token: 4,
  vocab_size: 201088,
  max_position_embeddings: 131072,
  tie_word_embeddings: false,
  torch_dtype: 'bfloat16',
};

const fixed = (n: number, inLen: number, outLen: number) => Array.from({ length: n }, () => ({ promptLen: inLen, outputLen: outLen }));

function run(
  engine: EngineName,
  model: string,
  gpu: string,
  knobs: Knobs,
  n: number,
  inLen: number,
  outLen: number,
  conc: number,
): Prediction {
  return predict({
    engine,
    model,
    gpu,
    gpus: 8,
    knobs: { tp: 8, ...knobs },
    requests: fixed(n, inLen, outLen),
    maxConcurrency: conc,
    seed: 42,
  });
}

const pct = (model: number, published: number) => `${model / published - 1 >= 0 ? '+' : ''}${((model / published - 1) * 100).toFixed(1)}%`;
const out: string[] = [];
const say = (s = '') => out.push(s);

// 1. The MI35x / MI30x ratio at batch 64.
const dir = mkdtempSync(join(tmpdir(), 'servelab-new-parts-'));
try {
  writeFileSync(join(dir, 'config.json'), JSON.stringify(GPT_OSS_120B));
  const mi300 = run('sglang', dir, 'MI300X', {}, 64, 4096, 512, 64);
  const mi355 = run('sglang', dir, 'MI355X', { quantization: 'mxfp4' }, 64, 4096, 512, 64);
  const ratio = mi355.output_throughput! / mi300.output_throughput!;
  const a = findGpu('MI300X')!;
  const b = findGpu('MI355X')!;
  // Streaming the same weights, BF16 on MI300X against MXFP4 (4.25 bits: 4-bit values, one 8-bit
  // scale per 32) on MI355X. The PR's 2.38x is what a checkpoint byte ratio of about 3.6 times
  // 5.3 / 8 gives: it multiplies by the bandwidth ratio where a time ratio divides by it.
  const traffic = 2 / a.memBwBps / (4.25 / 8 / b.memBwBps);
  say('1. sgl-project/sglang#34645: gpt-oss-120b, SGLang TP8, ISL 4096 / OSL 512, batch 64 (all at once)');
  say(
    `   MI300X (bf16 conversion)  model output ${mi300.output_throughput!.toFixed(0)} tok/s, total ${mi300.total_token_throughput!.toFixed(0)}`,
  );
  say(
    `   MI355X (MXFP4)            model output ${mi355.output_throughput!.toFixed(0)} tok/s, total ${mi355.total_token_throughput!.toFixed(0)}`,
  );
  say(`   MI355X / MI300X throughput: published 2.41x, model ${ratio.toFixed(2)}x, error ${pct(ratio, 2.41)}`);
  say(
    `   (time to stream the weights, BF16 at 5.3 TB/s over MXFP4 at 8 TB/s: ${traffic.toFixed(2)}x; the PR's 2.38x is a byte ratio times 5.3/8)`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

// 2. llm-d's MI355X reference table.
const LLMD: [label: string, inLen: number, outLen: number, conc: number, outTokS: number, totalTokS: number, ttftMs: number][] = [
  ['short ctx 1k x 256', 1024, 256, 16, 1320.8, 6598.8, 343],
  ['short ctx 1k x 256', 1024, 256, 256, 3347.9, 30118.4, 2296],
  ['decode-heavy 4k x 4k', 4096, 4096, 32, 2230.0, 4459, 1204],
  ['long-both 16k x 2k', 16384, 2048, 32, 1112.6, 10013, 4440],
  ['prefill-heavy 32k x 128', 32768, 128, 4, 48.8, 12533, 4290],
  ['prefill-heavy 64k x 128', 65536, 128, 2, 15.5, 7959, 9090],
];
say();
say('2. llm-d/llm-d#1233: Llama-3.3-70B FP8 (per-tensor) with FP8 KV, vLLM TP8 on 8 x MI355X; prompts = 8 x concurrency');
say('   workload                   conc  output tok/s pub / model / err   total tok/s pub / model / err   mean TTFT ms pub / model / err');
const errs: number[] = [];
for (const [label, inLen, outLen, conc, outPub, totPub, ttftPub] of LLMD) {
  const p = run(
    'vllm',
    'nvidia/Llama-3.3-70B-Instruct-FP8',
    'MI355X',
    { kvCacheDtype: 'fp8', maxModelLen: 131072 },
    8 * conc,
    inLen,
    outLen,
    conc,
  );
  if (!p.fits) {
    say(`   ${label.padEnd(26)} ${String(conc).padStart(4)}  does not fit: ${p.reason}`);
    continue;
  }
  const o = p.output_throughput!;
  const t = p.total_token_throughput!;
  const f = p.mean_ttft_ms!;
  errs.push(Math.abs(Math.log(t / totPub)));
  say(
    `   ${label.padEnd(26)} ${String(conc).padStart(4)}  ${outPub.toFixed(1).padStart(7)} / ${o.toFixed(1).padStart(7)} / ${pct(o, outPub).padStart(7)}   ${totPub.toFixed(0).padStart(6)} / ${t.toFixed(0).padStart(6)} / ${pct(t, totPub).padStart(7)}   ${ttftPub.toFixed(0).padStart(5)} / ${f.toFixed(0).padStart(6)} / ${pct(f, ttftPub).padStart(8)}`,
  );
}
const mean = errs.reduce((s, x) => s + x, 0) / errs.length;
say(
  `   mean |ln(model / published)| of total tok/s over ${errs.length} rows: ${mean.toFixed(3)} (about ${((Math.exp(mean) - 1) * 100).toFixed(0)}%)`,
);
process.stdout.write(out.join('\n') + '\n');
