// tie-honesty: does the noise rule say "tied" when two variants differ by less than the noise,
// and name the right winner when they differ by much more? A one-stage session (vLLM and SGLang
// on the simulated host) whose runner returns each engine's truth times seeded run noise
// (noise-sim.ts), 20 seeds per case. Goal: truths 1% apart under ±5% noise, "tied" in at least
// 19 of 20 and never the lower truth named the winner by its figures; truths 15% apart, the right
// winner in 20 of 20. `npx tsx perf/tie-honesty.ts [--seeds N]`; log: tie-honesty.log.
import { arg } from './script-args.js';
import { noisySession, stageVerdicts, TWO_ENGINE_ARGS, type NoiseShape } from './noise-sim.js';

const SEEDS = Number(arg('--seeds', '20'));
const ARGS = TWO_ENGINE_ARGS;

interface Case {
  name: string;
  apartPct: number;
  bandPct: number;
  shape: NoiseShape;
}

const CASES: Case[] = [
  { name: 'truths 1% apart, ±5% noise (normal, 95% of runs within ±5%)', apartPct: 1, bandPct: 5, shape: 'normal' },
  { name: 'truths 15% apart, ±5% noise (normal, 95% of runs within ±5%)', apartPct: 15, bandPct: 5, shape: 'normal' },
  { name: 'truths 1% apart, ±5% noise (uniform in ±5%)', apartPct: 1, bandPct: 5, shape: 'uniform' },
  { name: 'truths 15% apart, ±5% noise (uniform in ±5%)', apartPct: 15, bandPct: 5, shape: 'uniform' },
  { name: 'stress: truths 15% apart, ±10% noise (normal, sd 5%)', apartPct: 15, bandPct: 10, shape: 'normal' },
  { name: 'stress: truths 1% apart, ±10% noise (normal, sd 5%)', apartPct: 1, bandPct: 10, shape: 'normal' },
];

for (const c of CASES) {
  let tied = 0;
  let right = 0;
  let wrong = 0;
  let launches = 0;
  const noises: number[] = [];
  for (let seed = 1; seed <= SEEDS; seed++) {
    // SGLang's truth is the higher one.
    const truth = (id: string) => (id === 'sglang' ? 1000 * (1 + c.apartPct / 100) : 1000);
    const s = await noisySession(ARGS, truth, { seed, bandPct: c.bandPct, shape: c.shape });
    const v = stageVerdicts(s.events).find((e) => e.stage === 'engine')!;
    launches += s.launches;
    if (v.noise) noises.push(v.noise.pct);
    const isTied = (v.tiedIds?.length ?? 0) > 1;
    if (isTied) tied++;
    else if (v.winnerId === 'sglang') right++;
    else wrong++;
  }
  const med = [...noises].sort((a, b) => a - b)[Math.floor(noises.length / 2)] ?? NaN;
  console.log(
    `${c.name}: tied ${tied}/${SEEDS}, right winner ${right}/${SEEDS}, wrong winner (picked by noise) ${wrong}/${SEEDS}; median noise measured ±${med.toFixed(1)}%; ${(launches / SEEDS).toFixed(1)} launches a session`,
  );
}
