// What a tuning session costs on the simulated host, in GPU-hours: the three studies' sessions
// (Qwen3-14B on an 8xH100 host, GLM-4.6 on 8xA100, DeepSeek-R1 on 8xH200) run headless
// (`servelab --auto --sim ... --json`), and every variant's simulated startup and benchmark time
// turned into GPU-hours (src/tune/gpu-hours.ts).
// Measured today: the full protocol only. The optimised column of issue 16 (parallel variants,
// early stop, adaptive repeats, replica-then-host) needs those modules wired into the session;
// until then this prints "not wired" for it rather than a projection.
// Not counted: planning, warm-ups, stopping a server, the gaps between variants (the session's
// simulated wall time here is the sum of startup + benchmark of the variants, run one at a time).
// Usage: npx tsx bench/tuning-cost.ts [--scale F] (default 0.1: a tenth of each scenario's prompts).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TuneEvent, VariantResult } from '../src/core/events.js';
import { resolveParallel } from '../src/model/estimate.js';
import { formatGpuHours, sessionGpuTime, simulatedWallS, variantGpuTime, type VariantGpuTime } from '../src/tune/gpu-hours.js';

const STUDIES = [
  { name: 'Qwen3-14B on an 8xH100 host', args: ['--gpu', 'H100', '--gpus', '8', '--model', 'Qwen/Qwen3-14B'], hostGpus: 8 },
  { name: 'GLM-4.6 on 8xA100', args: ['--gpu', 'A100', '--gpus', '8', '--model', 'zai-org/GLM-4.6'], hostGpus: 8 },
  { name: 'DeepSeek-R1 on 8xH200', args: ['--gpu', 'H200', '--gpus', '8', '--model', 'deepseek-ai/DeepSeek-R1-0528'], hostGpus: 8 },
];
const scaleAt = process.argv.indexOf('--scale');
const SCALE = scaleAt > 0 ? process.argv[scaleAt + 1]! : '0.1';
const bin = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));

async function session(args: string[]): Promise<{ results: VariantResult[]; code: number | null; wallS: number }> {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'servelab-bench-cost-'));
  const t0 = performance.now();
  const child = spawn(process.execPath, [bin, '--auto', '--sim', '--scale', SCALE, '--json', ...args], {
    cwd, env: { ...process.env, SERVELAB_CONFIG_DIR: path.join(cwd, '.config') }, stdio: ['ignore', 'pipe', 'ignore'],
  });
  const results: VariantResult[] = [];
  for await (const line of createInterface({ input: child.stdout! })) {
    if (!line.startsWith('{')) continue;
    const e = JSON.parse(line) as TuneEvent;
    if (e.type === 'variant-finished') results.push(e.result);
  }
  const code = await new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.on('exit', (c) => r(c))));
  rmSync(cwd, { recursive: true, force: true });
  return { results, code, wallS: (performance.now() - t0) / 1000 };
}

/**
 * A finished variant's simulated GPU time: its GPUs, modelled startup, benchmark duration. One
 * server benchmarks several scenarios in a row (validation): its startup is counted once.
 */
function gpuTime(r: VariantResult, launched: Set<string>): VariantGpuTime {
  const gpus = resolveParallel(r.variant.engine, r.variant.knobs).gpusUsed;
  const key = `${r.stage}/${r.variantId}`;
  const startup = launched.has(key) ? 0 : (r.startupS ?? 0);
  launched.add(key);
  const bench = r.metrics?.duration ?? 0;
  return variantGpuTime({ gpus, launchS: 0, readyS: startup, stopS: startup + bench }, r.simulated ?? false);
}

console.log(`scale ${SCALE}; simulated host; full protocol (every variant in full, one after another)\n`);
console.log('| study | variants | host GPU-hours | variant GPU-hours | startup GPU-h | benchmark GPU-h | simulated wall | this machine (s) | optimised |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const s of STUDIES) {
  const { results, code, wallS } = await session(s.args);
  const launched = new Set<string>();
  const times = results.map((r) => gpuTime(r, launched));
  const wall = simulatedWallS(times.map((t) => [t]));
  const g = sessionGpuTime(s.hostGpus, wall, times, results.every((r) => r.simulated));
  const status = code === 0 ? '' : ` (exit ${code})`;
  console.log(`| ${s.name}${status} | ${results.length} | ${formatGpuHours(g.hostGpuHours)} | ${formatGpuHours(g.variantGpuHours)} | ${formatGpuHours(g.startupGpuHours)} | ${formatGpuHours(g.benchmarkGpuHours)} | ${(wall / 60).toFixed(1)} min | ${wallS.toFixed(0)} | not wired |`);
}
console.log('\nGPU-hours are simulated time (what the modelled host would spend), at this --scale of the prompt counts: startup does not scale with it, benchmarks do.');
