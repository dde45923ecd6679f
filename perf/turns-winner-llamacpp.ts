// Does multi-turn traffic change the answer? Two headless tuning sessions on the real llama-server
// (`servelab --auto --engines llamacpp`, stages engine,slots,cache) on one random-weight GGUF: one
// on multi-turn conversations (USERS users x TURNS turns on a shared SYSTEM-token system prompt:
// every later turn resends the conversation so far), one on single-turn prompts of the same mean
// length with no reuse. Prints each session's winner, tied set and measured noise, what its cache
// stage did (the single-turn session prunes it: nothing to reuse), and whether the winners differ
// by the sessions' own rule: they differ when neither winner lies in the other session's tied set.
// Needs llama-server (`servelab engines build llamacpp`). Speeds are real, outputs meaningless.
// Run: nice npx tsx perf/turns-winner-llamacpp.ts [--users 8 --turns 6] [--hidden 256 --layers 4]
// Log: perf/turns-winner-llamacpp.log.
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

const USERS = Number(arg('--users', '8'));
const TURNS = Number(arg('--turns', '6'));
const HIDDEN = Number(arg('--hidden', '256'));
const LAYERS = Number(arg('--layers', '4'));
const SYSTEM = 1000;
const INPUT = 64;
const OUTPUT = 16;
const STAGES = 'engine,slots,cache';
const BIN = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));

interface StageRecord {
  name: string;
  skipped?: string;
  results: { variantId: string; status: string }[];
}
interface Profile {
  variant: { id: string };
  workload?: { numPrompts: number };
  decision?: { noisePct?: number; noiseSource?: string; marginPct: number; tiedIds: string[]; tieBreak?: string };
  stages: StageRecord[];
}

function session(
  model: string,
  scenario: string,
  prompts: string[],
  out: string,
  port: number,
): { p: Profile; launches: number; minutes: number } {
  const t0 = performance.now();
  const args = ['--auto', '--engines', 'llamacpp', '--model', model, '--scenario', scenario, ...prompts, '--stages', STAGES];
  args.push('--validation', 'none', '--out', out, '--run-dir', path.join(out, 'run'), '--port', String(port), '--json');
  // A state folder of the script's own: the host's noise prior (docs/noise.md) starts empty, so
  // each session decides on the noise it measures itself, not on an earlier run's of this host.
  const env = { ...process.env, XDG_STATE_HOME: path.join(path.dirname(out), 'state') };
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', maxBuffer: 1 << 28, env });
  if (r.status !== 0) throw new Error(`session exited ${r.status}: ${r.stderr.slice(-2000)}`);
  const events = r.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as TuneEvent);
  const done = events.find((e): e is Extract<TuneEvent, { type: 'session-finished' }> => e.type === 'session-finished')!;
  return {
    p: JSON.parse(readFileSync(done.profilePath!, 'utf8')) as Profile,
    launches: events.filter((e) => e.type === 'variant-launching').length,
    minutes: (performance.now() - t0) / 60000,
  };
}

function describe(tag: string, s: ReturnType<typeof session>): void {
  const d = s.p.decision;
  console.log(`${tag}: winner ${s.p.variant.id}`);
  console.log(
    `  tied set [${d?.tiedIds.join(', ') ?? '?'}]; noise ±${d?.noisePct?.toFixed(1) ?? '?'}% (${d?.noiseSource ?? 'not measured'})`,
  );
  const cache = s.p.stages.find((st) => st.name === 'cache');
  const measured = cache?.results.filter((x) => x.status === 'ok').length ?? 0;
  console.log(
    `  cache stage: ${cache ? (cache.skipped ? `skipped (${cache.skipped})` : `${measured} variants measured`) : 'not in the profile'}`,
  );
  console.log(`  ${s.launches} launches, ${s.minutes.toFixed(1)} min; load ${load()}`);
}

function main(): void {
  if (!findLlamaServer(process.env.SERVELAB_LLAMA_SERVER)) throw new Error('no llama-server: run `servelab engines build llamacpp`');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'servelab-turns-winner-'));
  const model = path.join(dir, `qwen3-${HIDDEN}x${LAYERS}.gguf`);
  makeRandomGguf({ out: model, vocab: llamaCppPaths().vocab('gpt-2'), shape: { arch: 'qwen3', hidden: HIDDEN, layers: LAYERS } });
  // The single-turn prompts are as long as a conversation's mean turn: the system prompt, the mean
  // number of earlier turns (user message and reply each), and the new message.
  const meanPrompt = Math.round(SYSTEM + ((TURNS - 1) / 2) * (INPUT + OUTPUT) + INPUT);
  const multi = `multi-turn:${USERS}/${TURNS}/${SYSTEM}/${INPUT}/${OUTPUT}`;
  const single = `random:${meanPrompt}/${OUTPUT}`;
  console.log(`host: ${os.availableParallelism()} CPUs, load average at start ${load()}; nice ${os.getPriority()}`);
  console.log(`model qwen3 hidden ${HIDDEN} x ${LAYERS} layers (random weights); stages ${STAGES}`);
  const m = session(model, multi, [], path.join(dir, 'multi'), 27600);
  // As many single-turn requests as the multi-turn session sent (its conversations x turns), as many at a time as it had users.
  const requests = (m.p.workload?.numPrompts ?? USERS) * TURNS;
  console.log(
    `multi-turn ${multi}: ${m.p.workload?.numPrompts ?? '?'} conversations, ${requests} requests; single-turn ${single}, ${requests} prompts, ${USERS} at a time\n`,
  );
  describe('multi-turn', m);
  const s = session(
    model,
    single,
    ['--num-prompts', String(requests), '--max-concurrency', String(USERS)],
    path.join(dir, 'single'),
    27750,
  );
  describe('single-turn', s);
  // A slots variant's context is sized for its session's workload (slots x the longest request),
  // so the same knobs carry another -ctx-N in each session: ids are compared without it.
  const shape = (id: string) => id.replace(/-ctx-\d+/g, '');
  const mw = m.p.variant.id;
  const sw = s.p.variant.id;
  const sInM = m.p.decision?.tiedIds.map(shape).includes(shape(sw)) ?? false;
  const mInS = s.p.decision?.tiedIds.map(shape).includes(shape(mw)) ?? false;
  console.log(`\nwinners side by side (ids compared without -ctx-N):\n  multi-turn  ${mw}\n  single-turn ${sw}`);
  const verdict =
    shape(mw) === shape(sw)
      ? 'the same knobs'
      : sInM || mInS
        ? `different knobs, but ${sInM ? "the single-turn winner's knobs are in the multi-turn session's tied set" : "the multi-turn winner's knobs are in the single-turn session's tied set"}: not told apart`
        : 'they DIFFER: neither winner lies in the other session tied set';
  console.log(`-> ${verdict}`);
  console.log(`load average at end ${load()}`);
  rmSync(dir, { recursive: true, force: true });
}

main();
