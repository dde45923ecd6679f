// Do two tuning sessions on the real engine give the same answer? Pairs of headless sessions
// (`servelab --auto --engines llamacpp`, stages engine,quantization,slots,threads) on one
// random-weight GGUF; each session measures this host's noise itself and records its decision
// (profile `decision`: noisePct, tiedIds). A pair agrees when both name the same winner, or when
// each session's winner lies in the other's tied set. Also prints whether each winner beats
// llama-server's defaults (the engine stage's row) by more than the session's measured noise, and
// the launches each session spent.
// Needs llama-server (`servelab engines build llamacpp`). Speeds are real, outputs meaningless.
// Run: nice npx tsx perf/noise-agreement.ts [--pairs 3] [--prompts 24] [--hidden 512 --layers 8]
// Log: perf/noise-agreement.log.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TuneEvent } from '../src/core/events.js';
import { findLlamaServer } from '../src/engines/llamacpp/detect.js';
import { llamaCppPaths } from '../src/host/llamacpp-build.js';
import { makeRandomGguf } from '../src/gguf/make.js';
import { arg, loadAverage as load } from './script-args.js';

const PAIRS = Number(arg('--pairs', '3'));
const PROMPTS = arg('--prompts', '24');
const STAGES = arg('--stages', 'engine,quantization,slots,threads');
const HIDDEN = Number(arg('--hidden', '512'));
const LAYERS = Number(arg('--layers', '8'));
const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));

interface Decision {
  noisePct?: number;
  noiseRuns?: number;
  noiseSource?: string;
  marginPct: number;
  tiedIds: string[];
  tieBreak?: string;
}

interface Session {
  /** Each stage's winner, tied set and effective margin, for reading a disagreement. */
  stages: string[];
  winner: string;
  decision: Decision | undefined;
  launched: number;
  minutes: number;
  /** Winner over the engine stage's defaults row, %, in the session's own figures. */
  overDefaultsPct: number | null;
  /** The session kept llama-server's defaults. */
  winnerIsDefaults: boolean;
}

function session(model: string, out: string, port: number): Session {
  const t0 = performance.now();
  const args = [
    '--auto',
    '--engines',
    'llamacpp',
    '--model',
    model,
    '--scenario',
    'random:128/32',
    '--num-prompts',
    PROMPTS,
    '--stages',
    STAGES,
    '--validation',
    'none',
    '--out',
    out,
    '--run-dir',
    path.join(out, 'run'),
    '--port',
    String(port),
    '--json',
  ];
  // A state folder of the script's own: the host's noise prior (docs/noise.md) starts empty and
  // grows with each session of the run, as it would for a user tuning the same workload again.
  const env = { ...process.env, XDG_STATE_HOME: STATE };
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, env });
  if (r.status !== 0) throw new Error(`session exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const events = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as TuneEvent);
  const done = events.find((e): e is Extract<TuneEvent, { type: 'session-finished' }> => e.type === 'session-finished')!;
  const profile = JSON.parse(readFileSync(done.profilePath!, 'utf8')) as {
    variant: { id: string };
    metrics: { total_token_throughput: number };
    decision?: Decision;
    stages: {
      name: string;
      winnerId: string | null;
      tiedIds?: string[];
      marginPct?: number;
      tieBreak?: string;
      results: { variantId: string; status: string; failure?: { reason: string }; metrics?: { total_token_throughput: number } }[];
    }[];
  };
  // Variants early stop cut that the tie-break wanted measured: each ran once in full (repeats.ts).
  const inFull = events.filter(
    (e): e is Extract<TuneEvent, { type: 'confirm-started' }> => e.type === 'confirm-started' && / was stopped early/.test(e.why),
  );
  const defaultsRow = profile.stages.find((s) => s.name === 'engine')?.results.find((x) => x.status === 'ok');
  const defaults = defaultsRow?.metrics?.total_token_throughput;
  return {
    stages: profile.stages.map((st) => {
      const stopped = st.results
        .filter((x) => x.status === 'pruned' && x.failure?.reason.startsWith('stopped early'))
        .map((x) => x.variantId);
      const rerun = inFull.filter((e) => e.stage === st.name).flatMap((e) => e.variantIds);
      return `${st.name}: ${st.winnerId ?? 'none'}${st.tiedIds ? ` tied [${st.tiedIds.join(', ')}]` : ''}${st.marginPct !== undefined ? ` margin ±${st.marginPct.toFixed(1)}%` : ''}${st.tieBreak ? ` (${st.tieBreak})` : ''}${stopped.length ? `; stopped early [${stopped.join(', ')}]` : ''}${rerun.length ? `; cut, then run in full [${rerun.join(', ')}]` : ''}`;
    }),
    winner: profile.variant.id,
    decision: profile.decision,
    launched: events.filter((e) => e.type === 'variant-launching').length,
    minutes: (performance.now() - t0) / 60000,
    // The defaults against their own first run is the noise, not a gain: no figure then.
    overDefaultsPct:
      defaults && defaultsRow?.variantId !== profile.variant.id ? (profile.metrics.total_token_throughput / defaults - 1) * 100 : null,
    winnerIsDefaults: defaultsRow?.variantId === profile.variant.id,
  };
}

const pct = (n: number | undefined | null) => (n === undefined || n === null ? '?' : `${n >= 0 ? '+' : ''}${n.toFixed(1)}%`);

function describe(tag: string, s: Session): void {
  const d = s.decision;
  console.log(
    `  ${tag}: winner ${s.winner}; tied set [${d?.tiedIds.join(', ') ?? '?'}]; noise ±${d?.noisePct?.toFixed(1) ?? '?'}% (${d?.noiseSource ?? 'not measured'}); margin used max(${d?.marginPct ?? '?'}%, noise)${d?.tieBreak ? `; tie broken on ${d.tieBreak}` : ''}`,
  );
  const beats = s.overDefaultsPct !== null && d?.noisePct !== undefined ? s.overDefaultsPct > Math.max(d.marginPct, d.noisePct) : false;
  console.log(
    `      ${s.launched} launches, ${s.minutes.toFixed(1)} min; ${s.winnerIsDefaults ? 'the winner is llama-server defaults' : `winner vs llama-server defaults in-session ${pct(s.overDefaultsPct)} -> ${beats ? 'beyond the noise' : 'NOT beyond the noise'}`}; load ${load()}`,
  );
  for (const line of s.stages) console.log(`      ${line}`);
}

let STATE = '';

function main(): void {
  if (!findLlamaServer(process.env.SERVELAB_LLAMA_SERVER)) throw new Error('no llama-server: run `servelab engines build llamacpp`');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-noise-agree-'));
  STATE = path.join(dir, 'state');
  const model = path.join(dir, `qwen3-${HIDDEN}x${LAYERS}.gguf`);
  makeRandomGguf({ out: model, vocab: llamaCppPaths().vocab('gpt-2'), shape: { arch: 'qwen3', hidden: HIDDEN, layers: LAYERS } });
  console.log(`host: ${os.availableParallelism()} CPUs, load average at start ${load()}; nice ${os.getPriority()}`);
  console.log(
    `model qwen3 hidden ${HIDDEN} x ${LAYERS} layers (random weights); workload random 128/32, ${PROMPTS} prompts; stages ${STAGES}\n`,
  );
  let agreed = 0;
  let launches = 0;
  for (let p = 1; p <= PAIRS; p++) {
    console.log(`pair ${p}:`);
    const a = session(model, path.join(dir, `p${p}a`), 27000 + p * 300);
    describe('session A', a);
    const b = session(model, path.join(dir, `p${p}b`), 27150 + p * 300);
    describe('session B', b);
    launches += a.launched + b.launched;
    const same = a.winner === b.winner;
    const crossed = (b.decision?.tiedIds.includes(a.winner) ?? false) && (a.decision?.tiedIds.includes(b.winner) ?? false);
    const ok = same || crossed;
    if (ok) agreed++;
    console.log(
      `  -> ${same ? 'same winner' : crossed ? "each winner in the other's tied set" : 'DISAGREE: different winners, not in each other tied sets'}\n`,
    );
  }
  console.log(
    `agreement: ${agreed} of ${PAIRS} pairs (goal ${PAIRS} of ${PAIRS}); ${launches} launches in all; load average at end ${load()}`,
  );
  rmSync(dir, { recursive: true, force: true });
}

main();
