// agreement-power: how often two tuning sessions agree, as a function of the gain to find, the
// host's run noise and --repeats-max. A one-stage session (vLLM and SGLang on the simulated host,
// noise-sim.ts) stands in for the llama.cpp sessions' quantization stage (F16, the defaults,
// against Q4_0): the same rule, the higher truth is the one to find, and when the two tie the
// tie-break keeps the other (here the plan's first, there F16's precision). A session "finds" the
// gain when it names the higher truth beyond its margin. Two sessions agree when both find it or
// both tie (then both keep the same one); one that finds it beside one that ties is a pair whose
// winners are not each in the other's tied set (perf/noise-agreement.log, 05:00Z, pair 2). So a
// pair agrees with probability p^2 + (1 - p)^2 and three pairs with its cube. The noise here is
// measured from the session's own runs alone (no host prior), which makes its first decisions
// wider than a later stage's. `npx tsx perf/agreement-power.ts [--seeds N]`; log: agreement-power.log.
import { arg } from './script-args.js';
import { noisySession, stageVerdicts, TWO_ENGINE_ARGS } from './noise-sim.js';

const SEEDS = Number(arg('--seeds', '60'));
const ARGS = TWO_ENGINE_ARGS;

// Gains and noises of the real engine here: Q4_0 about 28% over F16 at hidden 1024 x 8 (by hand,
// perf/noise-agreement.log), run noise sd 6-10% (its sessions' ±14.9-20.2% are t x sd).
const CASES = [
  { gainPct: 28, sdPct: 7.5 },
  { gainPct: 28, sdPct: 10 },
  { gainPct: 40, sdPct: 7.5 },
];

for (const c of CASES)
  for (const max of [3, 4, 5]) {
    let found = 0;
    let tied = 0;
    let wrong = 0;
    let launches = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const truth = (id: string) => (id === 'sglang' ? 1000 * (1 + c.gainPct / 100) : 1000);
      const s = await noisySession([...ARGS, '--repeats-max', String(max)], truth, { seed, bandPct: 2 * c.sdPct, shape: 'normal' });
      const v = stageVerdicts(s.events).find((e) => e.stage === 'engine')!;
      launches += s.launches;
      if ((v.tiedIds?.length ?? 0) > 1) tied++;
      else if (v.winnerId === 'sglang') found++;
      else wrong++;
    }
    const p = found / SEEDS;
    const pair = p * p + (1 - p) * (1 - p);
    console.log(
      `gain ${c.gainPct}%, run noise sd ${c.sdPct}%, --repeats-max ${max}: found ${found}/${SEEDS}, tied ${tied}, wrong ${wrong}; a pair agrees ~${pair.toFixed(2)}, 3 of 3 pairs ~${(pair ** 3).toFixed(2)}; ${(launches / SEEDS).toFixed(1)} launches a session`,
    );
  }
