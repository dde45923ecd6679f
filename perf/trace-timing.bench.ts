// `npm run bench -- trace-timing` (or `npx tsx perf/trace-timing.bench.ts [--rate R] [--seconds S]
// [--rounds N]`): replays a Mooncake-format trace of R req/s (default 100, written by servelab's
// trace generator, one-turn sessions so nothing waits on a reply) against the scripted server in
// its own process, and prints the client's own lateness: each request's hand-off to the OS
// (RequestOutput.sentTime) and its start stamp (startTime) minus the trace's schedule.
// Goal: p99 of the send lateness within 5 ms. Figures only; nothing asserts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadWorkload } from '../src/bench/datasets/datasets.js';
import { generateTrace, traceJsonl } from '../src/bench/datasets/trace-gen.js';
import { runBenchmark } from '../src/bench/load/run.js';
import { mean, percentile } from '../src/core/stats.js';
import { spawnScriptedServer } from '../test/fixtures/bench/spawn-server.js';

const { values } = parseArgs({
  options: {
    rate: { type: 'string', default: '100' },
    seconds: { type: 'string', default: '20' },
    rounds: { type: 'string', default: '3' },
  },
});
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-trace-timing-'));
const trace = path.join(dir, 'trace.jsonl');
writeFileSync(
  trace,
  traceJsonl(
    generateTrace({
      requests: Math.round(rate * seconds),
      rate,
      turns: 1,
      prefixes: 4,
      prefixBlocks: 2,
      blockSize: 16,
      outputLen: 8,
      seed: 1,
    }),
  ),
);
const w = await loadWorkload({ dataset: 'mooncake_trace', path: trace, numPrompts: 1e9, traceBlockSize: 16 });
const srv = await spawnScriptedServer({ ttftMs: 20, gapMs: 10, tokens: 8 });

const f = (x: number) => x.toFixed(2).padStart(7);
const dist = (xs: number[]) =>
  `mean ${f(mean(xs))}  p50 ${f(percentile(xs, 50))}  p90 ${f(percentile(xs, 90))}  p99 ${f(percentile(xs, 99))}  p99.9 ${f(percentile(xs, 99.9))}  max ${f(Math.max(...xs))}`;
try {
  console.log(
    `host: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load avg ${os.loadavg()[0]!.toFixed(2)}, node ${process.version}`,
  );
  console.log(
    `trace: ${w.requests.length} requests, mean ${rate} req/s (Poisson, seed 1) over ${w.requests.at(-1)!.arrivalS!.toFixed(1)} s; server: scripted, own process, TTFT 20 ms, 8 tokens 10 ms apart`,
  );
  console.log('lateness = client stamp - trace schedule, ms (send: bytes handed to the OS; start: the request stamped)');
  for (let r = 1; r <= rounds; r++) {
    const res = await runBenchmark({ baseUrl: srv.url, backend: 'openai', model: 'm', requests: w.requests });
    const ok = res.outputs.filter((o) => o.success && o.sentTime !== undefined);
    const sched = w.requests.map((q) => q.arrivalS!);
    // Outputs come in request-index order; every request of this trace succeeds.
    const send = ok.map((o, i) => (o.sentTime! - sched[i]!) * 1000);
    const start = ok.map((o, i) => (o.startTime - sched[i]!) * 1000);
    const p99 = percentile(send, 99);
    console.log(
      `round ${r}: ${ok.length}/${w.requests.length} ok, client ${res.client.cpuPct.toFixed(0)}% CPU, event-loop lag p99 ${res.client.eventLoopLagP99Ms.toFixed(2)} ms`,
    );
    console.log(`  send  ${dist(send)}   goal p99 <= 5 ms: ${p99 <= 5 ? 'met' : 'MISSED'}`);
    console.log(`  start ${dist(start)}`);
  }
} finally {
  await srv.stop();
  rmSync(dir, { recursive: true, force: true });
}
