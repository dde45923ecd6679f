// Client timing error against a server with scripted, known delays (TTFT 50 ms, one token every
// 20 ms, 50 tokens) at 1, 100 and 1000 concurrent streams. Median of 3 runs per level.
import os from 'node:os';
import { spawnScriptedServer } from '../test/fixtures/bench/spawn-server.js';
import { measureTiming, row, type TimingFigures } from './client-common.js';

const LEVELS = (process.env.BENCH_STREAMS ?? '1,100,1000').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const srv = await spawnScriptedServer({ ttftMs: 50, gapMs: 20, tokens: 50 });
try {
  console.log(
    `host: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load avg ${os.loadavg()[0]!.toFixed(2)}, node ${process.version}`,
  );
  console.log('server: scripted, own process; TTFT 50 ms, gap 20 ms, 50 tokens; error = client stamp - server write;');
  console.log(
    "TTFT err = the client's send delay + first-event delay (client-common.ts); trip = hand-off to the server's read, not the client's\n",
  );
  console.log(
    row([
      'streams',
      'requests',
      'events/s',
      'event delay mean ms',
      'event delay p99 ms',
      'TTFT err ms',
      'send ms',
      'trip ms',
      'TPOT err ms',
      'TPOT ratio',
      'client CPU %',
      'CPU µs/event',
      'loop lag p99 ms',
      'client-bound',
    ]),
  );
  console.log(row(['---', '---', '---', '---', '---', '---', '---', '---', '---', '---', '---', '---', '---', '---']));
  for (const streams of LEVELS) {
    const runs: TimingFigures[] = [];
    for (let r = 0; r < RUNS; r++) runs.push(await measureTiming(srv, streams, Math.max(10, streams * 2), 50));
    const m = (f: (x: TimingFigures) => number) => median(runs.map(f));
    console.log(
      row([
        String(streams),
        String(runs[0]!.requests),
        m((x) => x.eventsPerS),
        m((x) => x.eventDelayMeanMs),
        m((x) => x.eventDelayP99Ms),
        m((x) => x.ttftErrMs),
        m((x) => x.sendDelayMs),
        m((x) => x.tripMs),
        m((x) => x.tpotErrMs),
        m((x) => x.tpotRatio),
        m((x) => x.cpuPct),
        m((x) => x.cpuUsPerEvent),
        m((x) => x.lagP99Ms),
        `${runs.filter((x) => x.clientBound).length}/${RUNS}`,
      ]),
    );
  }
} finally {
  await srv.stop();
}
