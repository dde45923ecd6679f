// What a tuning session costs on the simulated host, in GPU-hours: the three studies' sessions
// (Qwen3-14B on an 8xH100 host, GLM-4.6 on 8xA100, DeepSeek-R1 on 8xH200) run headless
// (`servelab --auto --sim ... --json`) twice:
// - full protocol: every variant in full, one after another, on the whole host (--parallel off
//   --no-early-stop --repeats-max 1 --replica off), as the studies ran them;
// - optimised: parallel variants on disjoint GPUs, early stop, adaptive repeats, one replica then
//   the host (the defaults; --parallel as given here, see below).
// Figures come from the session's own accounting (the session-cost event, src/tune/cost/ledger.ts):
// simulated time, i.e. what the modelled host would spend: modelled startup + the time the server
// served the client (warm-ups, timed requests) x the simulated clock speed + the client's own setup
// at wall time, per launch (src/tune/cost/variant-cost.ts); the host's wall is the sum over waves of launches of the
// longest one (planning and the gaps between launches are not counted).
// Usage: npx tsx perf/tuning-cost.ts [--scale F] [--parallel auto|N] [--only NAME] [--modes full,optimised]
// (--modes optimised: only the optimised session, e.g. to measure one change against an earlier full run;
// --dummy-weights: the optimised session also loads dummy weights where allowed, src/tune/launch/dummy-weights.ts)
// (default scale 0.1: a tenth of each scenario's prompts; startup does not scale with it).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { SessionGpuTime, TuneEvent, VariantResult } from '../src/core/events.js';
import { formatGpuHours } from '../src/core/view-cost.js';
import { journalEntries, stageCostTable, stageCosts, type StageCost } from './cost-breakdown.js';
import { arg } from './script-args.js';

const STUDIES = [
  { name: 'Qwen3-14B on an 8xH100 host', args: ['--gpu', 'H100', '--gpus', '8', '--model', 'Qwen/Qwen3-14B'] },
  { name: 'GLM-4.6 on 8xA100', args: ['--gpu', 'A100', '--gpus', '8', '--model', 'zai-org/GLM-4.6'] },
  { name: 'DeepSeek-R1 on 8xH200', args: ['--gpu', 'H200', '--gpus', '8', '--model', 'deepseek-ai/DeepSeek-R1-0528'] },
];
const SCALE = arg('--scale', '0.1');
const PARALLEL = arg('--parallel', 'auto');
const ONLY = arg('--only', '');
const MODES = arg('--modes', 'full,optimised').split(',');
const FULL = ['--parallel', 'off', '--no-early-stop', '--repeats-max', '1', '--replica', 'off'];
const OPTIMISED = ['--parallel', PARALLEL, ...(process.argv.includes('--dummy-weights') ? ['--dummy-weights'] : [])];
const bin = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));

interface Run {
  code: number | null;
  cost: SessionGpuTime | null;
  winner: string | null;
  results: VariantResult[];
  stoppedEarly: number;
  wallS: number;
  warnings: string[];
  /** Where its GPU time went, stage by stage (from the run folder's journal). */
  stages: StageCost[];
  /** What adaptive repeats concluded, per stage that ran them. */
  repeats: string[];
  /** The validation's two sides and how the baseline was chosen (validation-started). */
  validation: string | null;
}

async function session(args: string[]): Promise<Run> {
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'servelab-bench-cost-'));
  const t0 = performance.now();
  const child = spawn(
    process.execPath,
    [bin, '--auto', '--sim', '--scale', SCALE, '--json', '--out', cwd, '--runs-dir', path.join(cwd, 'runs'), ...args],
    {
      cwd,
      env: { ...process.env, SERVELAB_CONFIG_DIR: path.join(cwd, '.config') },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const run: Run = {
    code: null,
    cost: null,
    winner: null,
    results: [],
    stoppedEarly: 0,
    wallS: 0,
    warnings: [],
    stages: [],
    repeats: [],
    validation: null,
  };
  let lastStageWinner: string | null = null;
  for await (const line of createInterface({ input: child.stdout! })) {
    if (!line.startsWith('{')) continue;
    const e = JSON.parse(line) as TuneEvent;
    if (e.type === 'variant-finished') {
      run.results.push(e.result);
      if (/^stopped early/.test(e.result.failure?.reason ?? '')) run.stoppedEarly++;
    }
    if (e.type === 'stage-finished') {
      lastStageWinner = e.winnerId;
      if (/tied within noise|run-to-run spread/.test(e.why)) run.repeats.push(`${e.stage}: ${e.why}`);
    }
    if (e.type === 'session-cost') run.cost = e.cost;
    if (e.type === 'validation-started')
      run.validation = `baseline ${e.baselineId}${e.baselineWhy ? ` (${e.baselineWhy})` : ''} vs ${e.winnerId}`;
    if (e.type === 'warning') run.warnings.push(e.message);
  }
  run.code = await new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.on('exit', (c) => r(c))));
  run.winner = lastStageWinner;
  run.stages = stageCosts(journalEntries(path.join(cwd, 'runs')));
  rmSync(cwd, { recursive: true, force: true });
  run.wallS = (performance.now() - t0) / 1000;
  return run;
}

/** The winner without its layout (tp, dp): the replica plan names the same server differently. */
function serverKnobs(id: string | null, results: VariantResult[]): string {
  const v = [...results].reverse().find((r) => r.variantId === id)?.variant;
  if (!v) return String(id);
  const { tp: _tp, dp: _dp, ...rest } = v.knobs;
  return JSON.stringify({ engine: v.engine, model: v.model, ...rest });
}

const h = (c: SessionGpuTime | null) => (c ? formatGpuHours(c.hostGpuHours) : '-');
const vh = (c: SessionGpuTime | null) =>
  c ? `${formatGpuHours(c.variantGpuHours)} (${formatGpuHours(c.startupGpuHours)} / ${formatGpuHours(c.benchmarkGpuHours)})` : '-';
const min = (c: SessionGpuTime | null) => (c ? `${(c.wallS / 60).toFixed(0)} min` : '-');

console.log(
  `scale ${SCALE}; simulated host (simulated time); optimised with --parallel ${PARALLEL}; this machine has ${os.availableParallelism()} cores\n`,
);
console.log(
  '| study | mode | launches | stopped early | host GPU-h | variant GPU-h (startup / benchmark) | simulated wall | winner | this machine (s) |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
const breakdowns: string[] = [];
for (const s of STUDIES.filter((x) => !ONLY || x.name.includes(ONLY))) {
  const none: Run = {
    code: null,
    cost: null,
    winner: null,
    results: [],
    stoppedEarly: 0,
    wallS: 0,
    warnings: [],
    stages: [],
    repeats: [],
    validation: null,
  };
  const full = MODES.includes('full') ? await session([...s.args, ...FULL]) : none;
  const opt = MODES.includes('optimised') ? await session([...s.args, ...OPTIMISED]) : none;
  for (const [mode, r] of (
    [
      ['full', full],
      ['optimised', opt],
    ] as const
  ).filter(([m]) => MODES.includes(m))) {
    const status = r.code === 0 ? '' : ` (exit ${r.code})`;
    console.log(
      `| ${s.name}${status} | ${mode} | ${r.results.length} | ${r.stoppedEarly} | ${h(r.cost)} | ${vh(r.cost)} | ${min(r.cost)} | ${r.winner} | ${r.wallS.toFixed(0)} |`,
    );
  }
  const ratio = full.cost && opt.cost && full.cost.hostGpuHours > 0 ? opt.cost.hostGpuHours / full.cost.hostGpuHours : null;
  const same = serverKnobs(full.winner, full.results) === serverKnobs(opt.winner, opt.results);
  console.log(
    `| ${s.name} | ratio | | | ${ratio === null ? '-' : `${ratio.toFixed(2)}x`} | | | ${same ? 'same server knobs' : 'DIFFERENT winner'} | |`,
  );
  for (const w of opt.warnings.filter((x) => /parallel: held back/.test(x)).slice(0, 1)) console.log(`<!-- ${s.name}: ${w} -->`);
  for (const [mode, r] of [
    ['full', full],
    ['optimised', opt],
  ] as const)
    if (r.validation) breakdowns.push(`- ${s.name}, ${mode}: validation ${r.validation}`);
  if (full !== none) breakdowns.push(stageCostTable(`\n${s.name}, full protocol: variant GPU-hours by stage`, full.stages));
  if (opt !== none)
    breakdowns.push(
      stageCostTable(`\n${s.name}, optimised: variant GPU-hours by stage`, opt.stages),
      ...opt.repeats.map((x) => `- repeats, ${x}`),
    );
}
for (const b of breakdowns) console.log(b);
console.log(
  '\nGPU-hours are simulated time (what the modelled host would spend), at this --scale of the prompt counts: startup does not scale with it, benchmarks do.',
);
console.log(
  '"Same server knobs" compares the winners without their layout (TP, DP): the optimised run tunes one replica and picks a whole-host layout last.',
);
