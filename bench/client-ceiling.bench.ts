// The client's ceiling: SSE events per second it handles on one core (Node is one thread)
// before its timing error passes 1 ms. Streams of one token every 10 ms; the number of streams
// doubles until the mean per-event delay (client stamp - server write; median of 3 runs) exceeds
// 1 ms. On a machine
// shared with other busy processes the client is also delayed by not being scheduled, so the
// client's CPU cost per event is printed too: 1e6 / (µs per event) is the rate that would
// saturate one core by itself.
import os from 'node:os';
import { spawnScriptedServer } from '../test/fixtures/bench/spawn-server.js';
import { measureTiming, row } from './client-common.js';

const GAP_MS = 10;
const TOKENS = 100;
const MAX_STREAMS = Number(process.env.BENCH_MAX_STREAMS ?? 3200);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const srv = await spawnScriptedServer({ ttftMs: 20, gapMs: GAP_MS, tokens: TOKENS });
try {
  console.log(`host: ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'}), load avg ${os.loadavg()[0]!.toFixed(2)}, node ${process.version}`);
  console.log(`server: scripted, own process; one token every ${GAP_MS} ms, ${TOKENS} tokens per stream\n`);
  console.log(row(['streams', 'events/s', 'event delay mean ms', 'event delay p99 ms', 'TPOT err ms', 'client CPU %', 'CPU µs/event', 'loop lag p99 ms', 'client-bound']));
  console.log(row(['---', '---', '---', '---', '---', '---', '---', '---', '---']));
  let ceiling = 0;
  let ceilingCpu = 0;
  const costs: number[] = [];
  let last: { eventsPerS: number; eventDelayMeanMs: number } | undefined;
  let crossing: number | undefined;
  for (let streams = 25; streams <= MAX_STREAMS; streams *= 2) {
    const runs = [];
    for (let r = 0; r < RUNS; r++) runs.push(await measureTiming(srv, streams, streams, TOKENS));
    runs.sort((a, b) => a.eventDelayMeanMs - b.eventDelayMeanMs);
    const f = runs[Math.floor(runs.length / 2)]!;
    console.log(row([String(streams), f.eventsPerS, f.eventDelayMeanMs, f.eventDelayP99Ms, f.tpotErrMs, f.cpuPct, f.cpuUsPerEvent, f.lagP99Ms, f.clientBound ? 'yes' : 'no']));
    costs.push(f.cpuUsPerEvent);
    if (f.eventDelayMeanMs > 1) {
      // The 1 ms crossing lies between this step and the last one: interpolate linearly.
      if (last) {
        const at = last.eventsPerS + ((1 - last.eventDelayMeanMs) / (f.eventDelayMeanMs - last.eventDelayMeanMs)) * (f.eventsPerS - last.eventsPerS);
        crossing = Math.round(at);
      }
      break;
    }
    last = f;
    ceiling = f.eventsPerS;
    ceilingCpu = f.cpuPct;
  }
  if (ceiling === 0) {
    console.log(`\nceiling: not reached; the timing error is over 1 ms even at the lowest rate: this machine is too busy (load avg ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} CPUs)`);
  } else {
    console.log(`\nceiling: ~${Math.round(ceiling)} SSE events/s measured with mean timing error <= 1 ms (client CPU ${ceilingCpu.toFixed(0)}% of one core there)`);
    if (crossing) console.log(`1 ms crossing (linear between the last two steps): ~${crossing} SSE events/s`);
  }
  const cost = Math.min(...costs);
  console.log(`client cost: ${cost.toFixed(1)} µs CPU per event (lowest measured) -> one core saturates near ${Math.round(1e6 / cost)} events/s`);
} finally {
  await srv.stop();
}
