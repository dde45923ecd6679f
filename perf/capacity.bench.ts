// The capacity search against a brute-force sweep on the same server: `npm run bench -- capacity`
// (or `npx tsx perf/capacity.bench.ts [--base-url URL] [--slo RULES] [--resolution R] [--input-len N --output-len N]`).
// Without --base-url it starts a sim-serve (vLLM, Qwen3-14B, one H100, clock --speed, default 2x:
// faster clocks on a busy machine let the client's own delays into TPOT) and stops it at the end;
// with one it searches that server (any engine: llama.cpp's llama-server too).
// 1. `servelab capacity`'s search (src/capacity): answer A, failing probe F.
// 2. A brute-force sweep of 8 loads, evenly spaced up to the first load the doubling found to fail
//    (what a user who knew the order of magnitude would sweep), each probe sized by the same rule.
// Prints both answers, whether they agree (within the grid step plus the search's resolution),
// the requests each sent, and what a sweep as fine as the search's answer would send.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { loadWorkload } from '../src/bench/datasets/datasets.js';
import { parseSlo } from '../src/core/slo-rule.js';
import { runCapacity, probeOnce, type CapacitySpec, type CapacityTarget } from '../src/capacity/runner.js';
import { probeSeed } from '../src/capacity/fresh-prompts.js';
import { probePrompts } from '../src/capacity/judge.js';
import { setLogSink } from '../src/core/logger.js';
import { parseResolution, searchAnswer } from '../src/capacity/search.js';

const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));
const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const SLO = arg('slo', 'tpot:mean<40');
const RESOLUTION = arg('resolution', '10%');
const SPEED = arg('speed', '2');
/** sim-serve's --max-running-seqs: a sharp limit (the 17th request of 16 waits a whole request). */
const SEQS = arg('max-running-seqs', '');
const GRID = 8;
/** The random workload's lengths (capacity-llamacpp.bench.ts passes a small one for llama-server on CPU). */
const INPUT_LEN = Number(arg('input-len', '512'));
const OUTPUT_LEN = Number(arg('output-len', '64'));

async function startSim(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [
      BIN,
      'sim-serve',
      '--engine',
      'vllm',
      '--model',
      'Qwen/Qwen3-14B',
      '--gpu',
      'H100',
      '--port',
      '0',
      '--load-time',
      '0',
      '--speed',
      SPEED,
      ...(SEQS ? ['--max-running-seqs', SEQS] : []),
    ],
    {
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stop = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', stop);
  let log = '';
  const url = await new Promise<string>((resolve, reject) => {
    const seen = (d: Buffer) => {
      log += d;
      const m = /Starting vLLM API server 0 on (http:\/\/[\d.]+:\d+)/.exec(log);
      if (m && /Application startup complete/.test(log)) resolve(m[1]!);
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', () => reject(new Error(`sim-serve exited: ${log}`)));
  });
  return { url, stop };
}

function target(url: string): CapacityTarget {
  return {
    run: { baseUrl: url, model: 'Qwen/Qwen3-14B', seed: 0, ignoreEos: true },
    workload: (n, draw) =>
      loadWorkload({
        dataset: 'random',
        numPrompts: n,
        randomInputLen: INPUT_LEN,
        randomOutputLen: OUTPUT_LEN,
        seed: probeSeed(0, draw),
        model: 'Qwen/Qwen3-14B',
      }),
  };
}

// The workload's warning (approximate token counts) once, on stderr.
const said = new Set<string>();
setLogSink((level, message) => {
  if (level === 'debug' || said.has(message)) return;
  said.add(message);
  process.stderr.write(`${level}: ${message}\n`);
});

const given = process.argv.includes('--base-url') ? arg('base-url', '') : undefined;
const sim = given ? undefined : await startSim();
const url = given ?? sim!.url;
try {
  const spec: CapacitySpec = { by: 'concurrency', start: 1, max: 4096, resolution: parseResolution(RESOLUTION), slo: parseSlo(SLO) };
  const t = target(url);
  const t0 = Date.now();
  const found = await runCapacity(t, spec, {
    onProbe: (p) => process.stdout.write(`  search  c=${p.value} n=${p.numPrompts} ${p.holds ? 'holds' : `fails (${p.breaks})`}\n`),
  });
  const searchS = (Date.now() - t0) / 1000;
  // The grid: 8 loads evenly spaced up to the first load the doubling saw fail.
  const top = found.probes.find((p) => !p.holds)?.value ?? spec.max;
  const grid = [...new Set(Array.from({ length: GRID }, (_, i) => Math.max(1, Math.round((top * (i + 1)) / GRID))))];
  const t1 = Date.now();
  const brute = [];
  for (const c of grid) {
    const p = await probeOnce(t, spec, c);
    process.stdout.write(`  sweep   c=${c} n=${p.numPrompts} ${p.holds ? 'holds' : `fails (${p.breaks})`}\n`);
    brute.push(p);
  }
  const bruteS = (Date.now() - t1) / 1000;
  const b = searchAnswer(brute);
  const bruteRequests = brute.reduce((s, p) => s + p.numPrompts, 0);
  const step = grid.length > 1 ? grid[1]! - grid[0]! : grid[0]!;
  // Each side brackets the true limit: [answer, failing). They agree when the brackets overlap,
  // i.e. the two answers differ by no more than the coarser side's bracket allows.
  // The sweep knows the limit to its grid step, the search to its resolution: the answers agree
  // when they differ by no more than the two together (a load measured right at the limit can
  // read either way on two runs).
  const resAt = spec.resolution.relative ? ((found.answer ?? 0) * spec.resolution.value) / 100 : spec.resolution.value;
  const agree = found.answer !== null && b.answer !== null && Math.abs(found.answer - b.answer) <= step + resAt;
  const res = spec.resolution.relative ? `${RESOLUTION} (${resAt.toFixed(1)} at the answer)` : RESOLUTION;
  // What a sweep as fine as the search's answer would cost: every load one resolution step apart
  // up to the same top, each sized by the same rule (counted, not run).
  const fine = Math.max(1, Math.floor(resAt));
  let fineRequests = 0;
  for (let c = fine; c <= top; c += fine) fineRequests += probePrompts(spec.slo, 'concurrency', c);
  process.stdout.write(
    [
      `server ${url}${sim ? ` (sim-serve vLLM Qwen3-14B H100, clock ${SPEED}x${SEQS ? `, --max-running-seqs ${SEQS}` : ''})` : ''}; workload random ${INPUT_LEN}/${OUTPUT_LEN}; SLO ${SLO}; resolution ${res}`,
      `search: answer ${found.answer}, failing ${found.failing} (${found.breaks}); ${found.probes.length} probes, ${found.requests} requests, ${searchS.toFixed(0)} s`,
      `sweep of ${grid.length} loads (${grid.join(', ')}; step ${step}): answer ${b.answer}, failing ${b.failing}; ${bruteRequests} requests, ${bruteS.toFixed(0)} s`,
      `same answer within the resolution: ${agree ? 'yes' : 'NO'} (|${found.answer} - ${b.answer}| <= grid step ${step} + resolution ${resAt.toFixed(1)})`,
      `requests: the search sent ${(found.requests / bruteRequests).toFixed(2)} of the 8-load sweep's (${found.requests} / ${bruteRequests}); a sweep every ${fine} up to ${top}, as fine as the search, would send ${fineRequests} (${(found.requests / fineRequests).toFixed(2)})`,
    ].join('\n') + '\n',
  );
  process.exitCode = agree ? 0 : 1;
} finally {
  sim?.stop();
}
