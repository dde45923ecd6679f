// The budget goal (docs/budget.md) on the real host: llama.cpp's llama-server on this machine's CPU, a
// random-weight GGUF (outputs meaningless, speeds real). The full protocol (`servelab --auto
// --engines llamacpp`, every llama.cpp stage, validation included), then the same session with
// `--budget` = RATIO x the full session's measured host-hours (a host without GPUs is one device:
// its wall hours, src/tune/session/session.ts), then both winners measured again 3 runs each,
// interleaved ABAB so that load drift hits both alike, through the session's own runner. Prints
// the saving and whether the budget winner is within the session's margin of the full winner.
// Needs a quiet machine: on 2 shared cores a llama-server slows 10-20x when anything else runs.
// Run: nice npx tsx model-lab/budget-goal-llamacpp.ts [--ratio 0.4] [--prompts 48]
// Log: model-lab/budget-goal-llamacpp.txt.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TuneEvent } from '../src/core/events.js';
import type { Variant } from '../src/core/variant.js';
import { findLlamaServer } from '../src/engines/llamacpp/detect.js';
import { cpuOnlyHost } from '../src/host/cpu.js';
import { llamaCppPaths } from '../src/host/llamacpp-build.js';
import { makeRandomGguf } from '../src/gguf/make.js';
import { parseAutoArgs } from '../src/cli/auto-args.js';
import { runVariant } from '../src/tune/run/runner.js';
import { effectiveMarginPct, noiseText, pooledNoise } from '../src/core/noise-rule.js';

const arg = (name: string, dflt: string) => (process.argv.indexOf(name) > 0 ? process.argv[process.argv.indexOf(name) + 1]! : dflt);
const RATIO = Number(arg('--ratio', '0.4'));
const PROMPTS = arg('--prompts', '48');
const RUNS = 3;
const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));
const load = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const sessionArgs = (model: string, out: string, port: number) => [
  '--auto',
  '--engines',
  'llamacpp',
  '--model',
  model,
  '--scenario',
  'random:128/32',
  '--num-prompts',
  PROMPTS,
  '--out',
  out,
  '--run-dir',
  path.join(out, 'run'),
  '--port',
  String(port),
];

interface Session {
  hours: number;
  winner: Variant;
  launched: number;
  skipped: number;
  winnerTokPerS: number;
  /** The session's final tied set and its measured noise (the profile's `decision`). */
  tied: string[];
  noisePct?: number;
}

function session(model: string, out: string, port: number, extra: string[] = []): Session {
  // A state folder of the script's own: the host's noise prior (docs/noise.md) starts empty, and
  // the budget session pools the full session's noise, as a user's second session would; the
  // user's own state (other workloads, loaded runs) stays out of it.
  const env = { ...process.env, XDG_STATE_HOME: path.join(path.dirname(out), 'state') };
  const r = spawnSync(process.execPath, [BIN, ...sessionArgs(model, out, port), '--json', ...extra], {
    encoding: 'utf8',
    maxBuffer: 1 << 28,
    env,
  });
  if (r.status !== 0) throw new Error(`session ${extra.join(' ')} exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const events = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as TuneEvent);
  const cost = events.flatMap((e) => (e.type === 'session-cost' ? [e.cost] : [])).at(-1)!;
  const done = events.find((e): e is Extract<TuneEvent, { type: 'session-finished' }> => e.type === 'session-finished')!;
  const profile = JSON.parse(readFileSync(done.profilePath!, 'utf8')) as {
    variant: Variant;
    metrics: { total_token_throughput: number };
    decision?: { tiedIds: string[]; noisePct?: number };
  };
  return {
    hours: cost.wallS / 3600,
    winner: profile.variant,
    launched: events.filter((e) => e.type === 'variant-launching').length,
    skipped: events.filter((e) => e.type === 'budget-skip').length,
    winnerTokPerS: profile.metrics.total_token_throughput,
    tied: profile.decision?.tiedIds ?? [profile.variant.id],
    ...(profile.decision?.noisePct !== undefined ? { noisePct: profile.decision.noisePct } : {}),
  };
}

async function rerun(variant: Variant, model: string, dir: string, tag: string): Promise<number> {
  const config = parseAutoArgs(sessionArgs(model, path.join(dir, tag), 29500)).config!;
  const r = await runVariant(variant, config.scenario, {
    config,
    host: cpuOnlyHost(),
    logsDir: path.join(dir, tag, 'logs'),
    emit: () => {},
    stage: 'recheck',
    usedPorts: new Set(),
  });
  if (r.status !== 'ok' || !r.metrics) throw new Error(`${tag}: ${r.status}: ${r.failure?.reason ?? ''}`);
  return r.metrics.total_token_throughput;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const spread = (xs: number[]) => ((Math.max(...xs) - Math.min(...xs)) / median(xs)) * 100;
const f = (x: number) => x.toFixed(1);

async function main(): Promise<void> {
  if (!findLlamaServer(process.env.SERVELAB_LLAMA_SERVER)) throw new Error('no llama-server: run `servelab engines build llamacpp`');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-llbudget-'));
  const model = path.join(dir, 'qwen3-512x8.gguf');
  makeRandomGguf({ out: model, vocab: llamaCppPaths().vocab('gpt-2'), shape: { arch: 'qwen3', hidden: 512, layers: 8 } });
  const margin = parseAutoArgs(sessionArgs(model, dir, 28000)).config!.marginPct;
  console.log(
    `# budget goal on the real host: llama-server on ${os.availableParallelism()} CPU threads, qwen3 512 x 8 random weights, random 128/32, ${PROMPTS} prompts; every llama.cpp stage; budget = ${RATIO} x the full session's host-hours; margin ${margin}%`,
  );
  console.log(`load average at start ${load()}`);
  const full = session(model, path.join(dir, 'full'), 27000);
  const limit = full.hours * RATIO;
  const bud = session(model, path.join(dir, 'budget'), 27300, ['--budget', limit.toFixed(5)]);
  console.log(
    `full protocol: ${(full.hours * 60).toFixed(1)} min, ${full.launched} launches, winner ${full.winner.id} (${f(full.winnerTokPerS)} tok/s in its session)`,
  );
  console.log(
    `  tied set [${full.tied.join(', ')}]; noise ${full.noisePct !== undefined ? `±${full.noisePct.toFixed(1)}%` : 'not measured'}`,
  );
  console.log(
    `--budget ${limit.toFixed(5)} host-h (${(limit * 60).toFixed(1)} min): ${(bud.hours * 60).toFixed(1)} min, ${bud.launched} launches, ${bud.skipped} kept from a run; winner ${bud.winner.id} (${f(bud.winnerTokPerS)} tok/s in its session)`,
  );
  const same = full.winner.id === bud.winner.id;
  const a: number[] = [];
  const b: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    a.push(await rerun(full.winner, model, dir, `full-${i}`));
    if (!same) b.push(await rerun(bud.winner, model, dir, `budget-${i}`));
    console.log(
      `  run ${i + 1}: full winner ${f(a.at(-1)!)} tok/s${same ? '' : `, budget winner ${f(b.at(-1)!)} tok/s`}; load1 ${os.loadavg()[0]!.toFixed(2)}`,
    );
  }
  const bm = same ? median(a) : median(b);
  const diff = (bm / median(a) - 1) * 100;
  const saving = (1 - bud.hours / full.hours) * 100;
  console.log(
    `measured again, medians: full ${f(median(a))} (spread ${f(spread(a))}%), budget ${f(bm)}${same ? ' (same variant: the same runs)' : ` (spread ${f(spread(b))}%)`}`,
  );
  console.log(
    `saving ${saving.toFixed(0)}% of the full protocol's host-hours; budget winner ${diff >= 0 ? '+' : ''}${diff.toFixed(1)}% against the full winner: ${diff >= -margin ? 'within' : 'NOT within'} the ${margin}% margin`,
  );
  // The rule sessions decide by (src/core/noise-rule.ts): the two winners' re-runs are told apart
  // only beyond max(--margin, the pooled noise of these runs, scaled to two means of RUNS runs).
  const noise = pooledNoise(
    same
      ? [{ label: 'full winner', values: a }]
      : [
          { label: 'full winner', values: a },
          { label: 'budget winner', values: b },
        ],
  );
  const eff = effectiveMarginPct(margin, noise, RUNS, RUNS);
  console.log(
    `by the noise rule: budget winner ${full.tied.includes(bud.winner.id) ? 'IN' : 'NOT in'} the full protocol's tied set; re-measured ${diff.toFixed(1)}% against an effective margin of ${eff.toFixed(1)}% (${noise ? noiseText(noise) : 'no noise measured'}): ${Math.abs(diff) <= eff ? 'tied (within the noise)' : diff > 0 ? 'the budget winner is better beyond the noise' : 'the budget winner is worse beyond the noise'}`,
  );
  console.log(`load average at end ${load()}`);
  rmSync(dir, { recursive: true, force: true });
}

await main();
