// servelab's client against llama-server's own clock, on the same requests: `servelab bench`
// measures TTFT and TPOT per request from the stream; llama-server logs, per task, its prompt
// eval time and its eval time / tokens (print_timing in tools/server, the same figures as a
// response's `timings.prompt_ms` and `predicted_ms / predicted_n`). At concurrency 1 the log's
// tasks come in the requests' order, so request i is task i: per-request pairs. At concurrency 4
// only the means are compared. Goal: mean TPOT within 2% of the engine's; TTFT minus the
// engine's prompt time (queueing + HTTP + the client) is reported, not judged.
// Client TPOT = (latency - TTFT) / (output tokens - 1) (vLLM's definition); the engine's per-token
// eval time counts all its decode steps after the prompt: predicted_ms / predicted_n.
// Usage: nice npx tsx perf/llamacpp-client-truth.ts [--prompts N] [--hidden 512 --layers 8]
// (random weights: outputs are meaningless, speeds are real; no GPU needed).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
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
import { arg } from './script-args.js';

const PROMPTS = Number(arg('--prompts', '24'));
const HIDDEN = Number(arg('--hidden', '512'));
const LAYERS = Number(arg('--layers', '8'));
const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));

interface Task {
  promptMs: number;
  promptN: number;
  evalMs: number;
  evalN: number;
}

/** print_timing lines of the server log, per task in the order they finished. */
function engineTimings(log: string): Task[] {
  const tasks = new Map<string, Partial<Task>>();
  for (const m of log.matchAll(/task (\d+) \| +(prompt eval|eval) time = +([\d.]+) ms \/ +(\d+) tokens/g)) {
    const t = tasks.get(m[1]!) ?? {};
    if (m[2] === 'prompt eval') Object.assign(t, { promptMs: Number(m[3]), promptN: Number(m[4]) });
    else Object.assign(t, { evalMs: Number(m[3]), evalN: Number(m[4]) });
    tasks.set(m[1]!, t);
  }
  return [...tasks.values()].filter((t): t is Task => t.evalN !== undefined && t.promptMs !== undefined);
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

async function main(): Promise<void> {
  const server = findLlamaServer(process.env.SERVELAB_LLAMA_SERVER)?.path;
  if (!server) throw new Error('no llama-server: run `servelab engines build llamacpp`');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-truth-'));
  const model = path.join(dir, `qwen3-${HIDDEN}x${LAYERS}.gguf`);
  makeRandomGguf({ out: model, vocab: llamaCppPaths().vocab('gpt-2'), shape: { arch: 'qwen3', hidden: HIDDEN, layers: LAYERS } });
  console.log(
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} on ${os.availableParallelism()} threads; model qwen3 hidden ${HIDDEN} x ${LAYERS} layers (random weights)`,
  );
  for (const conc of [1, 4]) {
    const port = await findFreePort({ from: 26000 + conc * 100 });
    const runDir = path.join(dir, `c${conc}`);
    const spec = llamacpp.command(
      { id: `c${conc}`, engine: 'llamacpp', model, knobs: { maxRunningSeqs: 4, ctxSize: 4096 } },
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
          '--backend',
          'openai',
          '--endpoint',
          '/v1/completions',
          '--model',
          model,
          '--dataset-name',
          'random',
          '--random-input-len',
          '128',
          '--random-output-len',
          '64',
          '--num-prompts',
          String(PROMPTS),
          '--max-concurrency',
          String(conc),
          '--ignore-eos',
          '--save-result',
          '--save-detailed',
          '--result-dir',
          runDir,
          '--seed',
          '1',
        ],
        { encoding: 'utf8' },
      );
      if (r.status !== 0) throw new Error(`servelab bench failed: ${r.stderr.slice(-800)}`);
      const file = readdirSync(runDir).find((f) => f.endsWith('.json'))!;
      const res = JSON.parse(readFileSync(path.join(runDir, file), 'utf8')) as {
        ttfts: number[];
        output_lens: number[];
        itls: number[][];
        mean_tpot_ms: number;
        mean_ttft_ms: number;
      };
      await h.stop();
      const tasks = engineTimings(readFileSync(h.logPath, 'utf8')).slice(-PROMPTS);
      const clientTpot = res.itls
        .map((itl, i) => (res.output_lens[i]! > 1 ? (itl.reduce((a, b) => a + b, 0) * 1000) / (res.output_lens[i]! - 1) : NaN))
        .filter(Number.isFinite);
      const engineTpot = tasks.map((t) => t.evalMs / t.evalN);
      const gap = conc === 1 ? res.ttfts.map((t, i) => t * 1000 - (tasks[i]?.promptMs ?? NaN)) : [];
      console.log(`\nconcurrency ${conc}: ${PROMPTS} requests of 128 in / 64 out (ignore_eos); engine tasks read ${tasks.length}`);
      console.log(
        `  mean TPOT: servelab ${mean(clientTpot).toFixed(2)} ms (its result: ${res.mean_tpot_ms.toFixed(2)}), llama-server ${mean(engineTpot).toFixed(2)} ms per token -> ratio ${(mean(clientTpot) / mean(engineTpot)).toFixed(4)} (goal 0.98-1.02)`,
      );
      console.log(
        `  mean TTFT: servelab ${res.mean_ttft_ms.toFixed(1)} ms; llama-server prompt eval ${mean(tasks.map((t) => t.promptMs)).toFixed(1)} ms`,
      );
      if (gap.length) {
        const g = [...gap].sort((a, b) => a - b);
        console.log(
          `  TTFT minus the engine's prompt time, per request (queueing + HTTP + first decode + client): mean ${mean(gap).toFixed(1)} ms, median ${g[g.length >> 1]!.toFixed(1)}, max ${g[g.length - 1]!.toFixed(1)}`,
        );
      }
    } finally {
      await h.stop();
    }
  }
  rmSync(dir, { recursive: true, force: true });
}

await main();
