// `npm run lab:calibrate`: run the three published studies' variants on the simulator and print
// simulated vs published total token throughput. Columns:
//   virtual-1000  the virtual clock, 1000 ShareGPT-like prompts all at once (the studies' protocol)
//   virtual-200   the virtual clock, 200 prompts (the scaled-down workload)
//   http-200      the same 200 prompts through the real benchmark client (runBenchmark) against a
//                 `servelab sim-serve` process at --speed S, converted back to simulated time
//   published     the study's figure
// `--no-http` skips the HTTP column; `--speed S` sets its clock factor (default 25).
import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { knobsToSimArgs } from '../src/engines/sim/argv.js';
import { simulateWorkload } from '../src/sim/scheduler/virtual.js';
import { promptOfLength, sharegptLike } from '../src/sim/predict/workload.js';

import { STUDY_VARIANTS, type StudyVariant } from '../src/model/data/studies.js';

export interface VirtualRow {
  v: StudyVariant;
  totalTokPerS: number | null;
  meanTpotMs: number | null;
  failure?: string;
}

export function runVirtual(numPrompts: number, seed = 42): VirtualRow[] {
  const requests = sharegptLike(numPrompts, seed);
  return STUDY_VARIANTS.map((v) => {
    const r = simulateWorkload({ engine: v.engine, gpu: v.gpu, gpus: v.gpus, model: v.model, knobs: v.knobs, requests, seed });
    if (!r.metrics) return { v, totalTokPerS: null, meanTpotMs: null, failure: r.fit.reason };
    return { v, totalTokPerS: r.metrics.total_token_throughput, meanTpotMs: r.metrics.mean_tpot_ms };
  });
}

const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));

/** One variant through the real benchmark client against a sim-serve process. */
async function runHttp(v: StudyVariant, numPrompts: number, speed: number, seed: number, expectFailure = false): Promise<number | string> {
  const { runBenchmark } = await import('../src/bench/load/run.js');
  const { toSimulated } = await import('../src/bench/metrics/simulated.js');
  const argv = [
    BIN,
    'sim-serve',
    '--engine',
    v.engine,
    '--gpu',
    v.gpu,
    '--gpus',
    String(v.gpus),
    '--model',
    v.model,
    ...knobsToSimArgs(v.knobs),
    '--port',
    '0',
    '--speed',
    String(speed),
    '--load-time',
    '1',
    '--seed',
    String(seed),
  ];
  const child = spawn(process.execPath, argv, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const onData = (d: Buffer) => (log += d.toString());
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const t = setInterval(() => {
        const m = /(?:Starting vLLM API server 0 on|Uvicorn running on) (http:\/\/[\d.]+:\d+)/.exec(log);
        if (m && /Application startup complete\.|ready to roll|Uvicorn running/.test(log)) {
          clearInterval(t);
          resolve(m[1]!);
        }
      }, 50);
      void exited.then(() => {
        clearInterval(t);
        const lines = log.trim().split('\n');
        // The line that names the cause (the last ones are the engine's generic wrap-up).
        const cause =
          lines.find((l) => /Error|error while|Address already/.test(l) && !/Engine core initialization failed|Traceback/.test(l)) ??
          lines[lines.length - 1];
        reject(new Error(`exited ${child.exitCode ?? child.signalCode}: ${cause ?? ''}`));
      });
    });
    const requests = sharegptLike(numPrompts, seed).map((r, i) => ({
      prompt: promptOfLength(r.promptLen, i),
      promptLen: r.promptLen,
      expectedOutputLen: r.outputLen,
    }));
    if (expectFailure) throw new Error('started although the estimate says it cannot');
    const res = await runBenchmark({ baseUrl: url, model: v.model, requests, ignoreEos: true, seed, numWarmups: 0 });
    return toSimulated(res, speed).metrics.total_token_throughput;
  } catch (e) {
    return `failed: ${(e as Error).message.slice(0, 140)}`;
  } finally {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* gone */
    }
    await exited;
  }
}

const fmt = (x: number | null | string | undefined) => (typeof x === 'number' ? x.toFixed(0) : (x ?? '-'));

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const http = !args.includes('--no-http');
  const si = args.indexOf('--speed');
  const speed = si >= 0 ? Number(args[si + 1]) : 25;
  const t0 = performance.now();
  const v1000 = runVirtual(1000);
  const v200 = runVirtual(200);
  const virtualMs = performance.now() - t0;
  const lines: string[] = [];
  lines.push(
    '| study | variant | published tok/s | virtual-1000 tok/s | virtual-200 tok/s | http-200 tok/s | published TPOT ms | virtual-1000 TPOT ms |',
  );
  lines.push('|---|---|---|---|---|---|---|---|');
  process.stdout.write(lines.join('\n') + '\n');
  for (let i = 0; i < STUDY_VARIANTS.length; i++) {
    const v = STUDY_VARIANTS[i]!;
    const a = v1000[i]!;
    const b = v200[i]!;
    const h = http ? await runHttp(v, 200, speed, 42, a.totalTokPerS === null) : '-';
    lines.push(
      `| ${v.study} | ${v.label} | ${fmt(v.published ?? 'fails / unsupported')} | ${a.failure ? `does not start: ${a.failure}` : fmt(a.totalTokPerS)} | ${fmt(b.totalTokPerS)} | ${fmt(h)} | ${fmt(v.publishedTpotMs)} | ${a.meanTpotMs === null ? '-' : a.meanTpotMs.toFixed(1)} |`,
    );
    process.stdout.write(lines[lines.length - 1] + '\n');
  }
  process.stdout.write(
    `\nvirtual clock: ${STUDY_VARIANTS.length * 2} workloads in ${virtualMs.toFixed(0)} ms; http column at --speed ${http ? speed : '-'}\n`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    process.stderr.write(`calibrate: ${(e as Error).stack ?? e}\n`);
    process.exitCode = 1;
  });
}
