// `npx tsx model-lab/silicon-check.ts [--rounds N] [--filter TEXT] [--rows]`: servelab's model
// against the measured runs of AIConfigurator's silicon_sample.csv (model-lab/data/silicon/, brought
// in by silicon-import.ts). Each row runs through `servelab predict`'s own function
// (src/sim/predict/predict.ts) with the row's engine, release, GPU, parallelism, serve limits and
// aiperf's closed loop (silicon-map.ts), and the error tables are printed for the H100 rows (the
// fit may use them) and the H200 rows (held out: never fitted), overall and by engine, model and
// concurrency band, for throughput per GPU, mean TTFT and mean TPOT apart.
// Throughput per GPU is not in the table: for a closed loop of C clients with fixed lengths it is
// C x OSL / (TTFT + (OSL - 1) x TPOT) / GPUs, computed the same way from the measured and the
// predicted means.
import { readFileSync } from 'node:fs';
import { predict } from '../src/sim/predict/predict.js';
import { parseCsv } from './silicon-rows.js';
import { toInput, type SiliconInput } from './silicon-map.js';
import { errorTables, type Outcome } from './silicon-tables.js';
import { applyWhatIf } from './silicon-whatif.js';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
// aiperf sends 20 x C requests after 2 x C warm-up ones; with fixed lengths every round looks the
// same, so fewer rounds give the same means much faster (the log says how many were used).
const rounds = Number(opt('--rounds') ?? 3);
const filter = opt('--filter');
// --sample K: every K-th row (quick what-ifs); --set NAME=VALUE,...: fitted constants changed for this run (silicon-whatif.ts).
const sample = Number(opt('--sample') ?? 1);
const set = opt('--set');
if (set) applyWhatIf(set);
// --no-warmup: count aiperf's warm-up requests in the figures as `servelab predict` does without warmupRequests.
const warmup = !args.includes('--no-warmup');

const rows = parseCsv(readFileSync(new URL('./data/silicon/rows.csv', import.meta.url), 'utf8')).filter(
  (r, i) => (!filter || Object.values(r).join(' ').includes(filter)) && i % sample === 0,
);

function throughputPerGpu(x: SiliconInput, ttftMs: number, tpotMs: number): number {
  return (x.concurrency * x.osl) / ((ttftMs + (x.osl - 1) * tpotMs) / 1000) / x.gpus;
}

const outcomes: Outcome[] = [];
const t0 = Date.now();
for (const r of rows) {
  const x = toInput(r);
  // aiperf: 2 x C warm-up requests first, left out of its statistics.
  const warm = warmup ? 2 * x.concurrency : 0;
  const n = x.concurrency * rounds + warm;
  const p = predict({
    engine: x.engine,
    ...(x.engineVersion ? { engineVersion: x.engineVersion } : {}),
    model: x.model,
    gpu: x.gpu,
    gpus: x.gpus,
    knobs: x.knobs,
    requests: Array.from({ length: n }, () => ({ promptLen: x.isl, outputLen: x.osl })),
    maxConcurrency: x.concurrency,
    seed: 42,
    ...(warm ? { warmupRequests: warm } : {}),
  });
  const mTtft = Number(r.silicon_ttft_ms);
  const mTpot = Number(r.silicon_tpot_ms);
  const fits = p.fits && p.mean_ttft_ms !== undefined && p.mean_tpot_ms !== undefined;
  outcomes.push({
    row: r,
    input: x,
    fits,
    ...(fits ? {} : { reason: p.reason ?? 'does not fit' }),
    measured: { tput: throughputPerGpu(x, mTtft, mTpot), ttft: mTtft, tpot: mTpot },
    ...(fits
      ? { predicted: { tput: throughputPerGpu(x, p.mean_ttft_ms!, p.mean_tpot_ms!), ttft: p.mean_ttft_ms!, tpot: p.mean_tpot_ms! } }
      : {}),
    preemptions: p.preemptions ?? 0,
  });
}
console.log(
  `# servelab's model against AIConfigurator's silicon_sample.csv (ai-dynamo/aiconfigurator@095f58a5, Apache-2.0)\n` +
    `${rows.length} rows${filter ? ` matching '${filter}'` : ''}${sample > 1 ? ` (every ${sample}th)` : ''}; ${rounds} rounds of C requests per row after ${warmup ? '2 x C warm-up requests left out' : 'no warm-up'} (aiperf: 20 after 2 warm-up)${set ? `; what-if ${set}` : ''}; ${((Date.now() - t0) / 1000).toFixed(0)} s`,
);
console.log(errorTables(outcomes, { perRow: args.includes('--rows') }));
