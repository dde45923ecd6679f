// noise-cost: what the noise rule's confirmations and repeats cost in launches, against the same
// plan before the rule (run this file from a checkout of the earlier commit with noise-sim.ts
// beside it for the "before" figure; the log keeps both). Sessions on the simulated H100 plan
// below, each variant's truth fixed by a hash of its id (spread ±30%), its runs under seeded
// ±5% noise (noise-sim.ts). `npx tsx perf/noise-cost.ts [--seeds N] [--repeats-max N]` (the
// session's flag, passed on: what a higher cap would cost); log: noise-cost.log.
import { noisySession, stageVerdicts } from './noise-sim.js';

const seedsArg = process.argv.indexOf('--seeds');
const SEEDS = seedsArg > 0 ? Number(process.argv[seedsArg + 1]) : 10;
const repeatsArg = process.argv.indexOf('--repeats-max');
const REPEATS = repeatsArg > 0 ? ['--repeats-max', process.argv[repeatsArg + 1]!] : [];
const ARGS = [
  '--sim',
  '--model',
  'Qwen/Qwen3-14B',
  '--gpu',
  'H100',
  '--gpus',
  '1',
  '--scale',
  '0.02',
  '--validation',
  'sharegpt-like',
  '--no-early-stop',
  ...REPEATS,
];

/** A fixed truth per variant id: 700..1300 tok/s. */
function truth(id: string): number {
  let h = 2166136261;
  for (const c of id) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return 700 + ((h >>> 0) % 600);
}

let total = 0;
let measured = 0;
const winners = new Map<string, number>();
for (let seed = 1; seed <= SEEDS; seed++) {
  const s = await noisySession(ARGS, truth, { seed, bandPct: 5, shape: 'normal' });
  total += s.launches;
  const verdicts = stageVerdicts(s.events);
  const finished = s.events.filter((e) => e.type === 'variant-finished').length;
  measured += finished;
  const w = verdicts.at(-1)?.winnerId ?? 'none';
  winners.set(w, (winners.get(w) ?? 0) + 1);
}
console.log(
  `${SEEDS} sessions, ${(total / SEEDS).toFixed(1)} launches a session (tuning stages), ${(measured / SEEDS).toFixed(1)} variant results a session`,
);
console.log(`final winners: ${[...winners].map(([w, n]) => `${w} ${n}`).join(', ')}`);
