// The headless acceptance run on the simulated host, timed: `servelab --auto --sim --gpu H100
// --gpus 1 --model Qwen/Qwen3-14B --scale 0.1`. Prints the wall time (target: well under two
// minutes), where it goes (launch to ready, benchmarking, planning), how many results were
// client-bound, and the median gap between the virtual-clock prediction and the HTTP measurement.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TuneEvent } from '../src/core/events.js';

const bin = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));
const cwd = mkdtempSync(path.join(os.tmpdir(), 'servelab-bench-auto-'));
const args = [
  '--auto',
  '--sim',
  '--gpu',
  'H100',
  '--gpus',
  '1',
  '--model',
  'Qwen/Qwen3-14B',
  '--scale',
  '0.1',
  '--json',
  ...process.argv.slice(2),
];

const t0 = performance.now();
const at = (): number => (performance.now() - t0) / 1000;
const child = spawn(process.execPath, [bin, ...args], {
  cwd,
  env: { ...process.env, SERVELAB_CONFIG_DIR: path.join(cwd, '.config') },
  stdio: ['ignore', 'pipe', 'ignore'],
});
const launchAt = new Map<string, number>();
const readyAt = new Map<string, number>();
const startup: number[] = [];
const benchWall: number[] = [];
let firstLaunch: number | undefined;
const finished: Extract<TuneEvent, { type: 'variant-finished' }>['result'][] = [];
let launches = 0;
for await (const line of createInterface({ input: child.stdout! })) {
  if (!line.startsWith('{')) continue;
  const e = JSON.parse(line) as TuneEvent;
  const now = at();
  if (e.type === 'variant-launching') {
    launches++;
    firstLaunch ??= now;
    launchAt.set(e.variantId, now);
  } else if (e.type === 'server-ready') {
    readyAt.set(e.variantId, now);
    startup.push(now - (launchAt.get(e.variantId) ?? now));
  } else if (e.type === 'server-stopping') {
    benchWall.push(now - (readyAt.get(e.variantId) ?? now));
  } else if (e.type === 'variant-finished') finished.push(e.result);
}
const code = await new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.on('exit', (c) => r(c))));
const total = at();
rmSync(cwd, { recursive: true, force: true });

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2) : NaN;
};
const measured = finished.filter((r) => r.status === 'ok' && r.metrics);
const errors = measured
  .filter((r) => r.predicted)
  .map((r) => Math.abs(r.predicted!.totalTokPerS / r.metrics!.total_token_throughput - 1) * 100);
const rows: [string, string][] = [
  ['exit code', String(code)],
  ['wall time, whole run (s)', total.toFixed(1)],
  ['planning before the first launch (s)', (firstLaunch ?? NaN).toFixed(1)],
  ['server launches', String(launches)],
  ['median launch -> ready, wall (s)', median(startup).toFixed(2)],
  ['median ready -> stop (warm-up + bench), wall (s)', median(benchWall).toFixed(2)],
  ['variants measured', String(measured.length)],
  ['client-bound results', `${measured.filter((r) => r.clientBound).length} of ${measured.length}`],
  ['median |predicted / measured - 1| (%)', median(errors).toFixed(1)],
  ['load average (1 min) at the end', os.loadavg()[0]!.toFixed(2)],
];
for (const [k, v] of rows) process.stdout.write(`${k.padEnd(48)} ${v}\n`);
process.exit(code === 0 ? 0 : 1);
