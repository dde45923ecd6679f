// The budget goal (docs/budget.md) through the real session path: for each simulated host of
// test/fixtures/truth (host corrections the planner does not know), run the full protocol
// (`servelab --auto --sim --truth FILE`, today's defaults), then the same session with `--budget`
// = 0.4 x the full protocol's measured host GPU-hours (validation included, the session-cost
// event), then measure both winners again, 3 runs each on the tuning workload, through the real
// runner (src/tune/run/runner.ts: sim-serve with the same --truth, the real benchmark client), in
// this one script run. Prints the saving and whether the budget winner is within the margin of
// the full protocol's winner. Asserts nothing; it is not a test.
// Run: npx tsx model-lab/budget-goal.ts [--scale S] [--ratio R] (defaults 0.1 and 0.4).
// Log: model-lab/budget-goal.txt.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SessionGpuTime, TuneEvent } from '../src/core/events.js';
import type { Variant } from '../src/core/variant.js';
import { median } from '../src/core/stats.js';
import { simulatedHost } from '../src/host/gpus.js';
import { configFromFlags } from '../src/tune/request/from-flags.js';
import { runVariantScenarios } from '../src/tune/run/runner.js';

const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));
const TRUTH_DIR = fileURLToPath(new URL('../test/fixtures/truth/', import.meta.url));
const arg = (name: string, dflt: string) => (process.argv.indexOf(name) > 0 ? process.argv[process.argv.indexOf(name) + 1]! : dflt);
const SCALE = arg('--scale', '0.1');
const RATIO = Number(arg('--ratio', '0.4'));
const MARGIN = 2;
const STUDY = ['--sim', '--gpu', 'H100', '--gpus', '1', '--model', 'Qwen/Qwen3-14B'];

interface Session {
  cost: SessionGpuTime;
  winner: Variant;
  skipped: number;
  screened: number;
  launched: number;
}

function session(extra: string[], port: number): Session {
  const dir = mkdtempSync(join(tmpdir(), 'servelab-budgetgoal-'));
  try {
    const args = [
      '--auto',
      ...STUDY,
      '--scale',
      SCALE,
      '--json',
      '--port',
      String(port),
      '--out',
      dir,
      '--runs-dir',
      join(dir, 'runs'),
      ...extra,
    ];
    const r = spawnSync(process.execPath, [BIN, ...args], {
      encoding: 'utf8',
      maxBuffer: 1 << 28,
      env: { ...process.env, SERVELAB_CONFIG_DIR: join(dir, '.config') },
    });
    if (r.status !== 0) throw new Error(`session ${extra.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
    const events = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as TuneEvent);
    const cost = events.flatMap((e) => (e.type === 'session-cost' ? [e.cost] : [])).at(-1)!;
    const done = events.find((e): e is Extract<TuneEvent, { type: 'session-finished' }> => e.type === 'session-finished')!;
    const profile = JSON.parse(readFileSync(done.profilePath!, 'utf8')) as { variant: Variant };
    return {
      cost,
      winner: profile.variant,
      skipped: events.filter((e) => e.type === 'budget-skip').length,
      screened: events
        .filter((e) => e.type === 'budget-screened')
        .reduce((n, e) => n + (e.type === 'budget-screened' ? e.rows.length : 0), 0),
      launched: events.filter((e) => e.type === 'variant-launching').length,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `variant` measured again `n` times on the tuning workload of the truth host (one launch each). */
async function remeasure(variant: Variant, truth: string, port: number, n = 3): Promise<number[]> {
  const config = configFromFlags({ model: 'Qwen/Qwen3-14B', sim: true, gpu: 'H100', gpus: '1', truth, scale: SCALE, port: String(port) });
  const host = simulatedHost('H100', 1);
  const dir = mkdtempSync(join(tmpdir(), 'servelab-budgetgoal-re-'));
  const out: number[] = [];
  try {
    for (let i = 0; i < n; i++) {
      const [r] = await runVariantScenarios(variant, [config.scenario], {
        config,
        host,
        logsDir: dir,
        emit: () => {},
        stage: 'remeasure',
        usedPorts: new Set(),
        workloads: new Map(),
      });
      if (r?.status !== 'ok' || !r.metrics) throw new Error(`${variant.id} re-measure failed: ${r?.failure?.reason}`);
      out.push(r.metrics.total_token_throughput);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

const f = (x: number) => x.toFixed(0);
console.log(
  `# budget goal through --auto --sim --truth: Qwen3-14B on simulated 1 x H100, default stages and validation, --scale ${SCALE}; budget = ${RATIO} x the full protocol's measured host GPU-hours (validation included); both winners measured again 3 runs each (real runner, sim-serve with the same --truth); margin ${MARGIN}%`,
);
const rows: string[] = [];
let i = 0;
for (const file of readdirSync(TRUTH_DIR)
  .filter((x) => x.endsWith('.json'))
  .sort()) {
  const truth = join(TRUTH_DIR, file);
  const port = 24000 + i++ * 200;
  const full = session(['--truth', truth], port);
  const limit = full.cost.hostGpuHours * RATIO;
  const budget = session(['--truth', truth, '--budget', limit.toFixed(4)], port + 50);
  const fullRe = await remeasure(full.winner, truth, port + 100);
  const budRe = full.winner.id === budget.winner.id ? fullRe : await remeasure(budget.winner, truth, port + 150);
  const fm = median(fullRe);
  const bm = median(budRe);
  const diff = (bm / fm - 1) * 100;
  const saving = (1 - budget.cost.hostGpuHours / full.cost.hostGpuHours) * 100;
  const within = diff >= -MARGIN;
  console.log(`\n## ${file}`);
  console.log(
    `  full protocol: ${full.cost.hostGpuHours.toFixed(4)} host GPU-h, ${full.launched} launches, winner ${full.winner.id}; measured again ${fullRe.map(f).join(', ')} tok/s (median ${f(fm)})`,
  );
  console.log(
    `  --budget ${limit.toFixed(4)}: ${budget.cost.hostGpuHours.toFixed(4)} host GPU-h, ${budget.launched} launches, ${budget.screened} short runs, ${budget.skipped} kept from a run; winner ${budget.winner.id}; measured again ${budRe.map(f).join(', ')} tok/s (median ${f(bm)})${full.winner.id === budget.winner.id ? ' (same variant: the same 3 runs)' : ''}`,
  );
  console.log(
    `  saving ${saving.toFixed(0)}% of the full protocol's GPU-hours; budget winner ${diff >= 0 ? '+' : ''}${diff.toFixed(1)}% against the full winner: ${within ? 'within' : 'NOT within'} the ${MARGIN}% margin`,
  );
  rows.push(
    `${file}: saving ${saving.toFixed(0)}%, winner ${diff >= 0 ? '+' : ''}${diff.toFixed(1)}% (${within ? 'within' : 'not within'})`,
  );
}
console.log(`\nper host: ${rows.join('; ')}`);
console.log(`goal (every host within the margin at ${RATIO}x): ${rows.every((r) => r.includes('(within)')) ? 'met' : 'not met'}`);
