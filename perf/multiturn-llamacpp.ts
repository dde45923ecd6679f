// Multi-turn conversations on the real llama-server with its prompt cache on and off: 8 users x
// 6 turns on a shared 1,000-token system prompt (`servelab bench --dataset-name multi_turn`, chat
// endpoint). The cache switch is llama-server's own: `--cache-prompt` (default on) /
// `--no-cache-prompt` (common/arg.cpp at llama.cpp 80fb11a; with it off, server-context.cpp sets
// n_past = 0 and every prompt is processed whole). `--cache-reuse N` is a different knob (chunks
// reused by KV shifting when the prefix differs) and stays at its default 0 in both arms.
// Each arm runs 3 times on a fresh server, interleaved (on, off, on, ...), so the spread of those
// runs is the noise the difference is judged against.
// Goals: with the cache on, the measured hit rate (timings.cache_n) within 5 points of the reuse
// the conversations made possible; the mean TTFT of turns 2 and later falls by more than the noise,
// read two ways: strictly (more than the larger arm's range over its runs), and as separation (more
// than the two half-ranges together, every cache-on run faster than every cache-off run).
// Usage: npx tsx perf/multiturn-llamacpp.ts [--runs 3] [--hidden 256 --layers 4] [--users 8 --turns 6]
// (random weights: replies are meaningless, speeds are real; no GPU needed).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineLaunchHooks } from '../src/engines/launch-hooks.js';
import { findLlamaServer } from '../src/engines/llamacpp/detect.js';
import { llamaCppPaths } from '../src/host/llamacpp-build.js';
import { findFreePort } from '../src/host/ports.js';
import { launchServer } from '../src/host/process.js';
import { makeRandomGguf } from '../src/gguf/make.js';
import { llamacpp } from '../src/engines/llamacpp/adapter.js';
import { arg, loadAverage as load } from './script-args.js';

const RUNS = Number(arg('--runs', '3'));
const HIDDEN = Number(arg('--hidden', '256'));
const LAYERS = Number(arg('--layers', '4'));
const USERS = Number(arg('--users', '8'));
const TURNS = Number(arg('--turns', '6'));
const SYSTEM = 1000;
const INPUT = 64;
const OUTPUT = 16;
const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));

interface Run {
  ttftByTurn: number[];
  countByTurn: number[];
  hitByTurn: (number | null)[];
  reuseByTurn: number[];
  hit: number;
  possible: number;
  laterTtft: number;
  conversations: string;
  duration: number;
}

const ARMS = { on: [] as string[], off: ['--no-cache-prompt'] };
type Arm = keyof typeof ARMS;

async function once(arm: Arm, model: string, server: string, dir: string, i: number): Promise<Run> {
  const port = await findFreePort({ from: 27000 + i * 10 });
  const runDir = path.join(dir, `${arm}-${i}`);
  const spec = llamacpp.command(
    // One slot per user, each with room for a whole conversation. One thread: on this shared
    // 2-core machine two threads that wait on each other at every step made the cache-off arm's
    // TTFT swing 20-fold between runs (0.2 to 5.6 s for the same first turn).
    { id: runDir, engine: 'llamacpp', model, knobs: { maxRunningSeqs: USERS, ctxSize: USERS * 2048, threads: 1, extraArgs: ARMS[arm] } },
    { host: '127.0.0.1', port, runDir, runtime: { kind: 'native', executable: server } },
  );
  const h = await launchServer(spec, { runDir, graceMs: 3000, ...engineLaunchHooks((l, e) => llamacpp.classifyFailure(l, e)) });
  try {
    const ready = await h.waitReady(120_000);
    if (!ready.ready) throw new Error(`server did not start: ${ready.failure.reason}`);
    const r = spawnSync(
      process.execPath,
      [
        BIN,
        'bench',
        '--base-url',
        `http://127.0.0.1:${port}`,
        '--model',
        model,
        '--dataset-name',
        'multi_turn',
        '--max-concurrency',
        String(USERS),
        '--multi-turn-turns',
        String(TURNS),
        '--multi-turn-system-prompt-len',
        String(SYSTEM),
        '--multi-turn-input-len',
        String(INPUT),
        '--multi-turn-output-len',
        String(OUTPUT),
        '--multi-turn-think-time',
        '0.2',
        '--ignore-eos',
        '--seed',
        '1',
        '--json',
      ],
      { encoding: 'utf8' },
    );
    if (r.status !== 0) throw new Error(`servelab bench failed: ${r.stderr.slice(-800)}`);
    const j = JSON.parse(r.stdout) as Record<string, number & number[]>;
    const n = j.turn_completed as number[];
    const later = n.slice(1).reduce((a, b) => a + b, 0);
    return {
      ttftByTurn: j.turn_mean_ttft_ms,
      countByTurn: n,
      hitByTurn: j.turn_cache_hit_rate,
      reuseByTurn: j.turn_cache_possible_reuse,
      hit: j.cache_hit_rate,
      possible: j.cache_possible_reuse,
      // Mean TTFT over every request of turns 2 and later.
      laterTtft: (j.turn_mean_ttft_ms as number[]).slice(1).reduce((a, t, k) => a + t * n[k + 1]!, 0) / later,
      conversations: `${j.completed_conversations}/${j.conversations}`,
      duration: j.duration,
    };
  } finally {
    await h.stop();
  }
}

const fmt = (x: number | null | undefined, d = 1) => (x === null || x === undefined ? '-' : x.toFixed(d));
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

async function main(): Promise<void> {
  const server = findLlamaServer(process.env.SERVELAB_LLAMA_SERVER)?.path;
  if (!server) throw new Error('no llama-server: run `servelab engines build llamacpp`');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-multiturn-perf-'));
  const model = path.join(dir, `qwen3-${HIDDEN}x${LAYERS}.gguf`);
  makeRandomGguf({ out: model, vocab: llamaCppPaths().vocab('gpt-2'), shape: { arch: 'qwen3', hidden: HIDDEN, layers: LAYERS } });
  console.log(
    `load average ${load()} on ${os.availableParallelism()} threads; model qwen3 hidden ${HIDDEN} x ${LAYERS} layers (random weights)`,
  );
  console.log(
    `workload: ${USERS} users x ${TURNS} turns, system prompt ${SYSTEM} tokens, user messages ${INPUT} +-25%, replies ${OUTPUT} +-25% (ignore_eos), think 0.2 s; chat endpoint; ${RUNS} runs per arm, interleaved, a fresh llama-server each`,
  );
  const t0 = Date.now();
  const runs: Record<Arm, Run[]> = { on: [], off: [] };
  try {
    for (let i = 0; i < RUNS; i++) {
      for (const arm of ['on', 'off'] as Arm[]) {
        const r = await once(arm, model, server, dir, i * 2 + (arm === 'on' ? 0 : 1));
        runs[arm].push(r);
        console.log(
          `  ${arm.padEnd(3)} run ${i + 1}: ${r.duration.toFixed(1)} s, conversations ${r.conversations}, TTFT turn 1 ${fmt(r.ttftByTurn[0])} ms, turns 2+ ${fmt(r.laterTtft)} ms, hit ${fmt(r.hit * 100)}% of possible ${fmt(r.possible * 100)}%`,
        );
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log('\nTTFT by turn (ms, mean of the runs) and hit rate (%, cache on):');
  console.log(`  ${'turn'.padEnd(5)} ${'cache on'.padStart(9)} ${'cache off'.padStart(9)} ${'reuse %'.padStart(8)} ${'hit %'.padStart(6)}`);
  for (let k = 0; k < TURNS; k++) {
    const on = mean(runs.on.map((r) => r.ttftByTurn[k]!));
    const off = mean(runs.off.map((r) => r.ttftByTurn[k]!));
    const reuse = mean(runs.on.map((r) => r.reuseByTurn[k]!)) * 100;
    const hit = mean(runs.on.map((r) => r.hitByTurn[k] ?? 0)) * 100;
    console.log(
      `  ${String(k + 1).padEnd(5)} ${fmt(on).padStart(9)} ${fmt(off).padStart(9)} ${fmt(reuse).padStart(8)} ${fmt(hit).padStart(6)}`,
    );
  }
  const later = (arm: Arm) => runs[arm].map((r) => r.laterTtft);
  const spread = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
  const noise = Math.max(spread(later('on')), spread(later('off')));
  const fall = mean(later('off')) - mean(later('on'));
  const gaps = runs.on.map((r) => Math.abs(r.hit - r.possible) * 100);
  console.log(
    `\nturns 2+ mean TTFT: cache on ${fmt(mean(later('on')))} ms (runs ${later('on')
      .map((x) => fmt(x))
      .join(', ')}), off ${fmt(mean(later('off')))} ms (runs ${later('off')
      .map((x) => fmt(x))
      .join(', ')})`,
  );
  console.log(
    `goal 1 (hit rate within 5 points of possible reuse, cache on): gaps ${gaps.map((g) => fmt(g, 2)).join(', ')} points -> ${gaps.every((g) => g <= 5) ? 'met' : 'NOT met'}`,
  );
  const apart = Math.min(...later('off')) - Math.max(...later('on'));
  const halves = (spread(later('on')) + spread(later('off'))) / 2;
  console.log(
    `goal 2 (turns 2+ TTFT falls by more than the noise): falls ${fmt(fall)} ms; strict reading, the largest run-to-run range of an arm ${fmt(noise)} ms -> ${fall > noise ? 'met' : 'NOT met'}; ` +
      `separation reading, the two arms' half-ranges together ${fmt(halves)} ms and the fastest cache-off run ${fmt(apart)} ms slower than the slowest cache-on run -> ${fall > halves && apart > 0 ? 'met' : 'NOT met'}`,
  );
  console.log(`cache off: measured hit rate ${runs.off.map((r) => fmt(r.hit * 100, 2)).join(', ')}% (llama-server reports cache_n = 0)`);
  console.log(`took ${((Date.now() - t0) / 1000).toFixed(0)} s; load average after ${load()}`);
}

await main();
