// Does tuning llama-server pay here? Two headless sessions (`servelab --auto --engines llamacpp`)
// on the same random-weight GGUF pick a winner each; then llama-server's defaults (A) and the
// winner (B) are measured again, interleaved ABABAB so that load drift hits both alike, through
// the session's own runner (src/tune/run/runner.ts runVariant: the same launch path, flags, client,
// warm-ups and prompts as the session's rows), with the run-to-run spread. Goal: the winner beats
// the defaults by more than the spread, and the two sessions agree (same winner, or within the margin).
// Each re-run prints the load average and what other processes took of the CPUs meanwhile
// (/proc/stat busy time minus the server's and this process's own), because on a shared 2-core
// machine a llama-server whose threads fill every core slows by 10-20x when anything else runs.
// Startup and CPU-seconds per variant come from the sessions' own results (in their profiles).
// Usage: nice npx tsx perf/llamacpp-tuning.ts [--prompts N] [--stages LIST] [--runs N] [--hidden 512 --layers 8]
// Random weights: outputs are meaningless, speeds are real. No GPU needed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { VariantResult } from '../src/core/events.js';
import type { Variant } from '../src/core/variant.js';
import { findLlamaServer } from '../src/engines/llamacpp/detect.js';
import { cpuOnlyHost } from '../src/host/cpu.js';
import { llamaCppPaths } from '../src/host/llamacpp-build.js';
import { makeRandomGguf } from '../src/gguf/make.js';
import type { Profile } from '../src/profiles/schema/profile.js';
import { parseAutoArgs } from '../src/cli/auto-args.js';
import { runVariant } from '../src/tune/run/runner.js';
import { arg, loadAverage as load } from './script-args.js';

const PROMPTS = arg('--prompts', '16');
const STAGES = arg('--stages', 'engine,slots,batch-size,threads');
const RUNS = Number(arg('--runs', '3'));
const HIDDEN = Number(arg('--hidden', '512'));
const LAYERS = Number(arg('--layers', '8'));
const IN = 128;
const OUT = 32;
const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));
const servelab = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

/** The session's own flags: the re-runs parse the same ones, so they get its scenario, warm-ups and timeouts. */
const sessionArgs = (model: string, out: string, port: number) => [
  '--auto',
  '--engines',
  'llamacpp',
  '--model',
  model,
  '--scenario',
  `random:${IN}/${OUT}`,
  '--num-prompts',
  PROMPTS,
  '--stages',
  STAGES,
  '--out',
  out,
  '--run-dir',
  path.join(out, 'run'),
  '--port',
  String(port),
];

function session(model: string, dir: string, n: number): Profile {
  const out = path.join(dir, `s${n}`);
  const r = servelab(sessionArgs(model, out, 28000 + n * 200));
  if (r.status !== 0) throw new Error(`session ${n} exited ${r.status}: ${r.stderr.slice(-800)}`);
  const file = /^Profile: (\S+)/m.exec(r.stdout)![1]!;
  return JSON.parse(readFileSync(file, 'utf8')) as Profile;
}

/** Busy CPU-seconds of the whole machine (/proc/stat: every field but idle and iowait), 100 ticks a second. */
function machineBusyS(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  return (f.reduce((a, b) => a + b, 0) - f[3]! - f[4]!) / 100;
}

interface Run {
  r: VariantResult;
  load1: number;
  othersCpus: number;
  wallS: number;
}

/** One launch of `variant` through the session's runner, with what the rest of the machine did meanwhile. */
async function rerun(variant: Variant, model: string, dir: string, tag: string): Promise<Run> {
  const opts = parseAutoArgs(sessionArgs(model, path.join(dir, tag), 29000));
  const config = opts.config!;
  const busy0 = machineBusyS();
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await runVariant(variant, config.scenario, {
    config,
    host: cpuOnlyHost(),
    logsDir: path.join(dir, tag, 'logs'),
    emit: () => {},
    stage: 'recheck',
    usedPorts: new Set(),
  });
  const wallS = (performance.now() - t0) / 1000;
  const self = process.cpuUsage(self0);
  const others = machineBusyS() - busy0 - (r.cpuS ?? 0) - (self.user + self.system) / 1e6;
  if (r.status !== 'ok') throw new Error(`${tag}: ${r.status}: ${r.failure?.reason ?? ''}`);
  return { r, load1: os.loadavg()[0]!, othersCpus: Math.max(0, others) / wallS, wallS };
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const spread = (xs: number[]) => ((Math.max(...xs) - Math.min(...xs)) / mean(xs)) * 100;
/** The argv without its port (each launch gets its own). */
const flags = (argv: readonly string[] | undefined) =>
  (argv ?? []).filter((a, i, all) => a !== '--port' && all[i - 1] !== '--port').join(' ');

async function main(): Promise<void> {
  const server = findLlamaServer(process.env.SERVELAB_LLAMA_SERVER)?.path;
  if (!server) throw new Error('no llama-server: run `servelab engines build llamacpp`');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-lltune-'));
  const model = path.join(dir, `qwen3-${HIDDEN}x${LAYERS}.gguf`);
  makeRandomGguf({ out: model, vocab: llamaCppPaths().vocab('gpt-2'), shape: { arch: 'qwen3', hidden: HIDDEN, layers: LAYERS } });
  console.log(
    `load average at start ${load()} on ${os.availableParallelism()} threads; nice ${os.getPriority()}; model qwen3 hidden ${HIDDEN} x ${LAYERS} layers (random weights)`,
  );
  console.log(`workload random ${IN}/${OUT}, ${PROMPTS} prompts all at once; stages ${STAGES}\n`);
  const profiles = [session(model, dir, 1), session(model, dir, 2)];
  for (const [i, p] of profiles.entries()) {
    console.log(
      `session ${i + 1}: winner ${p.variant.id} (${p.variant.label}), ${p.metrics.total_token_throughput.toFixed(1)} tok/s in its session; load average after ${load()}`,
    );
    for (const s of p.stages)
      for (const r of s.results) {
        if (r.status === 'ok' || r.cpuS !== undefined)
          console.log(
            `  ${s.name.padEnd(10)} ${r.variantId.padEnd(44)} ${r.status.padEnd(8)} start-up ${r.startupS?.toFixed(1) ?? '-'} s, CPU ${r.cpuS?.toFixed(1) ?? '-'} s, ${r.metrics ? `${r.metrics.total_token_throughput.toFixed(1)} tok/s` : ''}`,
          );
      }
  }
  const same = profiles[0]!.variant.id === profiles[1]!.variant.id;
  console.log(`\ntwo sessions pick the same winner: ${same ? 'yes' : `no (${profiles[0]!.variant.id} vs ${profiles[1]!.variant.id})`}`);
  const engineRow = profiles[0]!.stages.find((s) => s.name === 'engine')!.results.find((r) => r.variantId === 'llamacpp')!;
  // Every distinct winner is measured again beside the defaults: two sessions agree when their
  // winners' re-measured throughputs are within the session's margin of each other.
  const sides: Record<string, { variant: Variant; argv: string[] | undefined }> = {
    defaults: { variant: engineRow.variant as Variant, argv: engineRow.engineArgv },
    winner: { variant: profiles[0]!.variant as Variant, argv: profiles[0]!.engineArgv },
    ...(same ? {} : { winner2: { variant: profiles[1]!.variant as Variant, argv: profiles[1]!.engineArgv } }),
  };
  const keys = Object.keys(sides);
  const runs: Record<string, Run[]> = Object.fromEntries(keys.map((k) => [k, []]));
  console.log(
    `\n${RUNS} runs each through the session's runner (same flags, client, ${'4'} warm-ups, prompts), interleaved ${keys.map((_, i) => 'ABC'[i]).join('')}...:`,
  );
  for (let i = 0; i < RUNS; i++) {
    for (const k of keys) {
      const run = await rerun(sides[k]!.variant, model, dir, `${k}-${i}`);
      runs[k]!.push(run);
      const sameFlags = flags(run.r.engineArgv) === flags(sides[k]!.argv);
      console.log(
        `  ${k.padEnd(9)} run ${i + 1}: ${run.r.metrics!.total_token_throughput.toFixed(1).padStart(7)} tok/s, wall ${run.wallS.toFixed(1)} s, server CPU ${run.r.cpuS?.toFixed(1)} s; load1 ${run.load1.toFixed(2)}, other processes ${run.othersCpus.toFixed(2)} CPUs${sameFlags ? '' : `; FLAGS DIFFER from the session's: ${flags(run.r.engineArgv)}`}`,
      );
    }
  }
  console.log('\n            total tok/s (spread)   output tok/s   mean TTFT ms   mean TPOT ms');
  for (const k of keys) {
    const m = runs[k]!.map((x) => x.r.metrics!);
    console.log(
      `  ${k.padEnd(9)} ${mean(m.map((x) => x.total_token_throughput))
        .toFixed(1)
        .padStart(9)} (${spread(m.map((x) => x.total_token_throughput)).toFixed(1)}%)   ${mean(m.map((x) => x.output_throughput))
        .toFixed(1)
        .padStart(12)}   ${mean(m.map((x) => x.mean_ttft_ms))
        .toFixed(0)
        .padStart(12)}   ${mean(m.map((x) => x.mean_tpot_ms))
        .toFixed(1)
        .padStart(12)}`,
    );
    console.log(`            runs: ${m.map((x) => x.total_token_throughput.toFixed(1)).join(', ')}`);
  }
  const tot = (k: string) => runs[k]!.map((x) => x.r.metrics!.total_token_throughput);
  const pct = (n: number) => `${n >= 0 ? '+' : ''}${n.toFixed(1)}%`;
  for (const w of keys.filter((k) => k !== 'defaults')) {
    const gain = (mean(tot(w)) / mean(tot('defaults')) - 1) * 100;
    const worst = Math.max(spread(tot(w)), spread(tot('defaults')));
    console.log(
      `\n${w} vs defaults: ${pct(gain)} total tok/s; the larger run-to-run spread is ${worst.toFixed(1)}% -> ${gain > worst ? 'beats the spread' : gain < -worst ? 'loses by more than the spread' : 'within the spread'}`,
    );
    const pairs = tot(w).map((x, i) => (x / tot('defaults')[i]! - 1) * 100);
    console.log(`${w} vs defaults, run by run (back to back): ${pairs.map(pct).join(', ')}`);
  }
  if (!same) {
    const margin = parseAutoArgs(sessionArgs(model, dir, 28000)).config!.marginPct; // the sessions' own margin
    const gap = (mean(tot('winner2')) / mean(tot('winner')) - 1) * 100;
    console.log(
      `\nthe two sessions' winners, re-measured: ${pct(gap)} apart; the session's margin is ${margin}% -> ${Math.abs(gap) <= margin ? 'agree within the margin' : 'do not agree'}`,
    );
  }
  console.log(`load average at end ${load()}`);
  rmSync(dir, { recursive: true, force: true });
}

await main();
