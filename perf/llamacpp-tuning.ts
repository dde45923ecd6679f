// Does tuning llama-server pay here? Two headless sessions (`servelab --auto --engines llamacpp`)
// on the same random-weight GGUF pick a winner each; then the winner and llama-server's defaults
// are measured 3 times each, alternating, on the same workload with `servelab bench` (total and
// output tok/s, mean TTFT and TPOT), with the run-to-run spread. Goal: the winner beats the
// defaults by more than the spread, and the two sessions agree (same winner, or within the margin).
// Startup and CPU-seconds per variant come from the sessions' own results (in their profiles).
// Usage: nice npx tsx perf/llamacpp-tuning.ts [--prompts N] [--stages LIST] [--hidden 512 --layers 8]
// Random weights: outputs are meaningless, speeds are real. No GPU needed.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Knobs } from '../src/core/variant.js';
import { llamacpp } from '../src/engines/index.js';
import { engineLaunchHooks } from '../src/engines/launch-hooks.js';
import { findLlamaServer } from '../src/engines/llamacpp-detect.js';
import { llamaCppPaths } from '../src/host/llamacpp-build.js';
import { findFreePort } from '../src/host/ports.js';
import { launchServer } from '../src/host/process.js';
import { makeRandomGguf } from '../src/model/gguf/make.js';
import type { Profile } from '../src/profiles/schema.js';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const PROMPTS = arg('--prompts', '16');
const STAGES = arg('--stages', 'engine,slots,batch-size,threads');
const HIDDEN = Number(arg('--hidden', '512'));
const LAYERS = Number(arg('--layers', '8'));
const IN = 128;
const OUT = 32;
const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));
const servelab = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });

interface Figures {
  total: number;
  output: number;
  ttft: number;
  tpot: number;
}

async function measure(server: string, model: string, knobs: Knobs, dir: string, tag: string): Promise<Figures> {
  const port = await findFreePort({ from: 27000 });
  const runDir = path.join(dir, tag);
  const spec = llamacpp.command(
    { id: tag, engine: 'llamacpp', model, knobs },
    { host: '127.0.0.1', port, runDir, runtime: { kind: 'native', executable: server } },
  );
  const h = await launchServer(spec, { runDir, graceMs: 3000, ...engineLaunchHooks((l, e) => llamacpp.classifyFailure(l, e)) });
  try {
    const ready = await h.waitReady(120_000);
    if (!ready.ready) throw new Error(`${tag}: ${ready.failure.reason}`);
    const r = servelab([
      'bench',
      '--base-url',
      `http://127.0.0.1:${port}`,
      '--backend',
      'openai',
      '--endpoint',
      '/v1/completions',
      '--model',
      model,
      '--dataset-name',
      'random',
      '--random-input-len',
      String(IN),
      '--random-output-len',
      String(OUT),
      '--num-prompts',
      PROMPTS,
      '--num-warmups',
      '2',
      '--save-result',
      '--result-dir',
      runDir,
      '--seed',
      '7',
    ]);
    if (r.status !== 0) throw new Error(`${tag}: bench failed: ${r.stderr.slice(-600)}`);
    const res = JSON.parse(
      readFileSync(
        path.join(
          runDir,
          readdirSync(runDir).find((f) => f.endsWith('.json'))!,
        ),
        'utf8',
      ),
    ) as Record<string, number>;
    return { total: res.total_token_throughput!, output: res.output_throughput!, ttft: res.mean_ttft_ms!, tpot: res.mean_tpot_ms! };
  } finally {
    await h.stop();
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const spread = (xs: number[]) => ((Math.max(...xs) - Math.min(...xs)) / mean(xs)) * 100;

function session(model: string, dir: string, n: number): Profile {
  const out = path.join(dir, `s${n}`);
  const r = servelab([
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
    String(28000 + n * 200),
  ]);
  if (r.status !== 0) throw new Error(`session ${n} exited ${r.status}: ${r.stderr.slice(-800)}`);
  const file = /^Profile: (\S+)/m.exec(r.stdout)![1]!;
  return JSON.parse(readFileSync(file, 'utf8')) as Profile;
}

async function main(): Promise<void> {
  const server = findLlamaServer(process.env.SERVELAB_LLAMA_SERVER)?.path;
  if (!server) throw new Error('no llama-server: run `servelab engines build llamacpp`');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-lltune-'));
  const model = path.join(dir, `qwen3-${HIDDEN}x${LAYERS}.gguf`);
  makeRandomGguf({ out: model, vocab: llamaCppPaths().vocab('gpt-2'), shape: { arch: 'qwen3', hidden: HIDDEN, layers: LAYERS } });
  console.log(
    `load average at start ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} on ${os.availableParallelism()} threads; model qwen3 hidden ${HIDDEN} x ${LAYERS} layers (random weights)`,
  );
  console.log(`workload random ${IN}/${OUT}, ${PROMPTS} prompts all at once; stages ${STAGES}\n`);
  const profiles = [session(model, dir, 1), session(model, dir, 2)];
  for (const [i, p] of profiles.entries()) {
    console.log(
      `session ${i + 1}: winner ${p.variant.id} (${p.variant.label}), ${p.metrics.total_token_throughput.toFixed(1)} tok/s in its session`,
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
  const winner = profiles[0]!.variant.knobs;
  const runs: Record<'defaults' | 'winner', Figures[]> = { defaults: [], winner: [] };
  for (let i = 0; i < 3; i++) {
    runs.defaults.push(await measure(server, model, {}, dir, `defaults-${i}`));
    runs.winner.push(await measure(server, model, winner, dir, `winner-${i}`));
  }
  console.log(`\n3 runs each, alternating (servelab bench, ${PROMPTS} prompts, 2 warm-ups):`);
  console.log('            total tok/s (spread)   output tok/s   mean TTFT ms   mean TPOT ms');
  for (const k of ['defaults', 'winner'] as const) {
    const f = runs[k];
    console.log(
      `  ${k.padEnd(9)} ${mean(f.map((x) => x.total))
        .toFixed(1)
        .padStart(9)} (${spread(f.map((x) => x.total)).toFixed(1)}%)   ${mean(f.map((x) => x.output))
        .toFixed(1)
        .padStart(12)}   ${mean(f.map((x) => x.ttft))
        .toFixed(0)
        .padStart(12)}   ${mean(f.map((x) => x.tpot))
        .toFixed(1)
        .padStart(12)}`,
    );
    console.log(`            runs: ${f.map((x) => x.total.toFixed(1)).join(', ')}`);
  }
  const gain = (mean(runs.winner.map((x) => x.total)) / mean(runs.defaults.map((x) => x.total)) - 1) * 100;
  const worst = Math.max(spread(runs.winner.map((x) => x.total)), spread(runs.defaults.map((x) => x.total)));
  console.log(
    `\nwinner vs defaults: ${gain >= 0 ? '+' : ''}${gain.toFixed(1)}% total tok/s; the larger run-to-run spread is ${worst.toFixed(1)}% -> ${gain > worst ? 'beats the spread' : 'within the spread'}`,
  );
  console.log(
    `load average at end ${os
      .loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}`,
  );
  rmSync(dir, { recursive: true, force: true });
}

await main();
