// Warm-up scaled to load, measured on a real llama-server (figures in perf/warmup.log beside it):
// `npx tsx perf/warmup.ts [--trials N] [--concurrency C]`. Each trial starts a fresh llama-server
// (servelab's build or PATH) on a random-weight GGUF (qwen3, hidden 256, 4 layers, GPT-2
// vocabulary; C slots, one thread) and benchmarks it at concurrency C with `servelab bench`, in
// turn with no warm-up, one warm-up request (the old rule on the simulated host) and a full batch
// (max(4, C): the tuning sessions' rule, tune/run/warmup-count.ts), on a fresh server each time,
// in a rotating order so drift does not favour one. Prints each run's mean TTFT, mean TPOT and
// total tok/s, then the medians per warm-up and the first window's mean TTFT (its first C
// requests) against the rest of the run: what a cold server costs the measured requests.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findLlamaServer } from '../src/engines/llamacpp/detect.js';
import { llamaCppPaths } from '../src/host/llamacpp-build.js';
import { makeRandomGguf } from '../src/gguf/make.js';
import { MIN_WARMUPS } from '../src/tune/run/warmup-count.js';
import { arg } from './script-args.js';

const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));
const TRIALS = Number(arg('--trials', '3'));
const C = Number(arg('--concurrency', '4'));
const PROMPTS = 8 * C;
const WARMUPS = [0, 1, Math.max(MIN_WARMUPS, C)];

const server = findLlamaServer()?.path;
if (!server) throw new Error('no llama-server: run `servelab engines build llamacpp` first');
const dir = mkdtempSync(join(tmpdir(), 'servelab-warmup-'));
const gguf = join(dir, 'qwen3-256x4.gguf');
makeRandomGguf({ out: gguf, vocab: llamaCppPaths().vocab('gpt-2'), shape: { arch: 'qwen3', hidden: 256, layers: 4 } });

interface Run {
  warmups: number;
  ttft: number;
  tpot: number;
  tokS: number;
  firstWindowTtft: number;
  restTtft: number;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function once(warmups: number, port: number): Promise<Run> {
  const child = spawn(
    server!,
    ['-m', gguf, '--host', '127.0.0.1', '--port', String(port), '-np', String(C), '-c', String(256 * C), '-t', '1'],
    {
      stdio: 'ignore',
    },
  );
  try {
    const url = `http://127.0.0.1:${port}`;
    for (let t = 0; ; t++) {
      const ok = await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (t > 120) throw new Error('llama-server did not become ready in 60 s');
      await new Promise((r) => setTimeout(r, 500));
    }
    const file = `w${warmups}-${port}.json`;
    const b = spawnSync(
      process.execPath,
      [
        BIN,
        'bench',
        '--base-url',
        url,
        '--max-concurrency',
        String(C),
        '--num-prompts',
        String(PROMPTS),
        '--random-input-len',
        '64',
        '--random-output-len',
        '32',
        '--num-warmups',
        String(warmups),
        '--save-result',
        '--save-detailed',
        '--result-dir',
        dir,
        '--result-filename',
        file,
      ],
      { encoding: 'utf8' },
    );
    if (b.status !== 0) throw new Error(`bench failed: ${b.stderr}`);
    const j = JSON.parse(readFileSync(join(dir, file), 'utf8')) as {
      mean_ttft_ms: number;
      mean_tpot_ms: number;
      total_token_throughput: number;
      ttfts: number[];
      start_times?: number[];
    };
    // The first window: the first C requests sent (in send order: the arrays keep the request order).
    const ttfts = j.ttfts.map((s) => s * 1000);
    return {
      warmups,
      ttft: j.mean_ttft_ms,
      tpot: j.mean_tpot_ms,
      tokS: j.total_token_throughput,
      firstWindowTtft: mean(ttfts.slice(0, C)),
      restTtft: mean(ttfts.slice(C)),
    };
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
  }
}

const basePort = 27000 + Math.floor(Math.random() * 8000);
const runs: Run[] = [];
process.stdout.write(
  `llama-server -np ${C} -t 1, random GGUF qwen3 256x4, random 64/32, ${PROMPTS} prompts at concurrency ${C}; load average before: ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}\n`,
);
try {
  for (let t = 0; t < TRIALS; t++) {
    // Rotate the order each trial: ABC, BCA, CAB.
    const order = WARMUPS.map((_, i) => WARMUPS[(i + t) % WARMUPS.length]!);
    for (const [i, w] of order.entries()) {
      const r = await once(w, basePort + t * 10 + i);
      runs.push(r);
      process.stdout.write(
        `trial ${t + 1} warm-ups ${String(w).padStart(2)}: mean TTFT ${r.ttft.toFixed(1)} ms (first window ${r.firstWindowTtft.toFixed(1)}, rest ${r.restTtft.toFixed(1)}), mean TPOT ${r.tpot.toFixed(2)} ms, ${r.tokS.toFixed(0)} tok/s\n`,
      );
    }
  }
  process.stdout.write('\nmedians over trials:\n');
  for (const w of WARMUPS) {
    const rs = runs.filter((r) => r.warmups === w);
    process.stdout.write(
      `warm-ups ${String(w).padStart(2)}: mean TTFT ${median(rs.map((r) => r.ttft)).toFixed(1)} ms, first window ${median(rs.map((r) => r.firstWindowTtft)).toFixed(1)} ms vs rest ${median(rs.map((r) => r.restTtft)).toFixed(1)} ms, mean TPOT ${median(rs.map((r) => r.tpot)).toFixed(2)} ms, ${median(rs.map((r) => r.tokS)).toFixed(0)} tok/s\n`,
    );
  }
  process.stdout.write(
    `load average after: ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}\n`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
