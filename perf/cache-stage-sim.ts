// cache-stage-sim: tuning sessions on the simulated host with and without prefix reuse. A workload
// whose prompts all start with one long shared prefix (vLLM's random dataset with
// --random-prefix-len) runs the cache stage, once on vLLM and once on SGLang, and each says what it
// chose and why; a ShareGPT-like session asked for the same stage skips it with the reason. Every
// variant is a real sim-serve process measured over HTTP by the benchmark client, through the same
// launch path as a GPU host. Prints the plan's cache stage, the measured variants and the verdicts.
//
//   npx tsx perf/cache-stage-sim.ts [--prompts N] [--prefix P] [--concurrency C]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseAutoArgs } from '../src/cli/auto-args.js';
import type { TuneEvent, VariantResult } from '../src/core/events.js';
import type { Scenario } from '../src/core/scenario.js';
import { workloadReuse } from '../src/core/workload-reuse.js';
import { defaultStages } from '../src/tune/config/config.js';
import { runSession } from '../src/tune/session/session.js';

const { values } = parseArgs({
  options: {
    prompts: { type: 'string', default: '200' },
    prefix: { type: 'string', default: '4000' },
    concurrency: { type: 'string', default: '32' },
  },
});
const prompts = Number(values.prompts);
const prefixLen = Number(values.prefix);
const concurrency = Number(values.concurrency);
const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-cache-stage-'));

const shared: Scenario = {
  name: `random-512-64-prefix-${prefixLen}`,
  label: `random 512/64 after a shared ${prefixLen}-token prefix`,
  dataset: 'random',
  inputLen: 512,
  outputLen: 64,
  prefixLen,
  numPrompts: prompts,
  seed: 42,
  maxConcurrency: concurrency,
};

async function session(title: string, engines: string, scenario: Scenario | undefined, stages?: string): Promise<void> {
  const argv = ['--auto', '--sim', '--gpu', 'H100', '--gpus', '1', '--model', 'Qwen/Qwen3-14B', '--engines', engines];
  // Every challenger measured in full (no early stop), so the summary compares whole runs.
  argv.push('--num-prompts', String(prompts), '--max-concurrency', String(concurrency), '--validation', 'none', '--no-early-stop');
  argv.push('--run-dir', path.join(dir, title.replace(/\W+/g, '-')), '--out', dir);
  if (stages) argv.push('--stages', stages);
  const config = parseAutoArgs(argv).config!;
  if (scenario) {
    config.scenario = scenario;
    if (!stages) config.stages = defaultStages(config.engines, scenario).filter((s) => s === 'engine' || s === 'cache');
  }
  const reuse = workloadReuse(config.scenario);
  console.log(`\n== ${title}`);
  console.log(`workload: ${config.scenario.label}; possible reuse ${(reuse.share * 100).toFixed(1)}% (${reuse.why})`);
  console.log(`stages: ${config.stages.join(', ')}`);
  const t0 = performance.now();
  const results = new Map<string, VariantResult>();
  const onEvent = (e: TuneEvent) => {
    if (e.type === 'plan-ready') {
      const st = e.plan.stages.find((s) => s.name === 'cache');
      if (st?.skipped) console.log(`plan: cache stage skipped: ${st.skipped}`);
      for (const n of st?.notes ?? []) console.log(`plan note: ${n}`);
    } else if (e.type === 'variant-finished') {
      const r = e.result;
      results.set(r.variantId, r);
      const m = r.metrics;
      const figures = m
        ? `${m.total_token_throughput.toFixed(0)} tok/s, mean TTFT ${m.mean_ttft_ms.toFixed(0)} ms, mean TPOT ${m.mean_tpot_ms.toFixed(1)} ms`
        : (r.failure?.reason ?? r.status);
      console.log(`  [${r.stage}] ${r.variantId}: ${figures}`);
    } else if (e.type === 'stage-finished' && e.stage !== 'engine') {
      console.log(`verdict (${e.stage}): ${e.skipped ? `skipped: ${e.skipped}` : e.why}`);
      if (!e.skipped) console.log(summary(e.winnerId, e.carriedId, e.gains, results));
    }
  };
  const out = await runSession(config, { onEvent });
  console.log(`exit ${out.exitCode}, winner ${out.winner?.variantId ?? '-'}, ${((performance.now() - t0) / 1000).toFixed(0)} s wall`);
}

/** Why, in the cache's own terms: what each of the stage's variants did to throughput and TTFT against the carried winner. */
function summary(
  winnerId: string | null,
  carriedId: string | null,
  gains: Record<string, number | null>,
  results: Map<string, VariantResult>,
): string {
  const carried = carriedId ? results.get(carriedId)?.metrics : undefined;
  const lines = Object.entries(gains)
    .filter(([id]) => id !== carriedId)
    .map(([id, g]) => {
      const m = results.get(id)?.metrics;
      const ttft = m && carried ? ` and ${(m.mean_ttft_ms / carried.mean_ttft_ms).toFixed(1)}x its mean TTFT` : '';
      return `${results.get(id)?.variant.label ?? id}: ${g === null ? 'no figure' : `${g >= 0 ? '+' : ''}${g.toFixed(1)}% total tok/s`}${ttft}`;
    });
  const kept = winnerId === carriedId;
  return `chose: ${kept ? `keep ${carriedId} (the engine's default: prefix caching on)` : winnerId}; against it: ${lines.join('; ')}`;
}

try {
  await session('vLLM, shared prefix', 'vllm', shared);
  await session('SGLang, shared prefix', 'sglang', shared);
  await session('vLLM, ShareGPT-like, cache stage asked for', 'vllm', undefined, 'engine,cache');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
