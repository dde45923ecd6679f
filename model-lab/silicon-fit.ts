// `npx tsx model-lab/silicon-fit.ts [--sample K] [--rounds N]`: fits the host and launch constants
// that the three studies cannot tell apart (src/model/fitted.ts stepOverheadS, perSeqOverheadS,
// moeLayerOverheadS: the studies' bursts of 1000 ShareGPT prompts always run large batches, so a
// fixed step cost and a per-sequence one look the same there) on the H100 rows of
// AIConfigurator's measured runs (model-lab/data/silicon), every K-th row. The H200 rows are
// never read. Coordinate descent over a multiplicative grid, lowering the mean over rows of
// |ln(predicted / measured)| of mean TPOT plus that of throughput per GPU. It prints the values;
// they are copied into fitted.ts by hand, and model-lab/fit.ts refits the rest on the studies
// with them frozen (--freeze).
import { readFileSync } from 'node:fs';
import { predict } from '../src/sim/predict/predict.js';
import { FITTED } from '../src/model/fitted.js';
import { parseCsv } from './silicon-rows.js';
import { toInput } from './silicon-map.js';
import { applyWhatIf } from './silicon-whatif.js';

const args = process.argv.slice(2);
const opt = (name: string, d: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1]! : d;
};
const sample = Number(opt('--sample', '8'));
const rounds = Number(opt('--rounds', '2'));
const rows = parseCsv(readFileSync(new URL('./data/silicon/rows.csv', import.meta.url), 'utf8'))
  .filter((r) => r.system === 'h100_sxm')
  .filter((_, i) => i % sample === 0)
  .map((r) => ({ r, x: toInput(r) }));

const tput = (c: number, osl: number, gpus: number, ttft: number, tpot: number) => (c * osl) / ((ttft + (osl - 1) * tpot) / 1000) / gpus;

function loss(): number {
  let sum = 0;
  for (const { r, x } of rows) {
    const warm = 2 * x.concurrency;
    const p = predict({
      engine: x.engine,
      ...(x.engineVersion ? { engineVersion: x.engineVersion } : {}),
      model: x.model,
      gpu: x.gpu,
      gpus: x.gpus,
      knobs: x.knobs,
      requests: Array.from({ length: x.concurrency * rounds + warm }, () => ({ promptLen: x.isl, outputLen: x.osl })),
      maxConcurrency: x.concurrency,
      seed: 42,
      warmupRequests: warm,
    });
    if (!p.fits || p.mean_tpot_ms === undefined || p.mean_ttft_ms === undefined) {
      sum += 2 * Math.log(3);
      continue;
    }
    const mt = Number(r.silicon_tpot_ms);
    const mf = Number(r.silicon_ttft_ms);
    sum += Math.abs(Math.log(p.mean_tpot_ms / mt));
    sum += Math.abs(
      Math.log(tput(x.concurrency, x.osl, x.gpus, p.mean_ttft_ms, p.mean_tpot_ms) / tput(x.concurrency, x.osl, x.gpus, mf, mt)),
    );
  }
  return sum / rows.length;
}

const KEYS = ['stepOverheadS', 'perSeqOverheadS', 'moeLayerOverheadS'] as const;
const BOUNDS: Record<(typeof KEYS)[number], [number, number]> = {
  stepOverheadS: [0.2e-3, 20e-3],
  perSeqOverheadS: [1e-6, 200e-6],
  moeLayerOverheadS: [5e-6, 300e-6],
};
const v: Record<string, number> = Object.fromEntries(KEYS.map((k) => [k, FITTED[k]]));
const set = () => applyWhatIf(KEYS.map((k) => `${k}=${v[k]}`).join(','));
set();
let best = loss();
console.log(`${rows.length} H100 rows (every ${sample}th), ${rounds} rounds; start ${JSON.stringify(v)} loss ${best.toFixed(4)}`);
for (let round = 0; round < 2; round++) {
  for (const k of KEYS) {
    const start = v[k]!;
    let keep = start;
    for (const f of [0.1, 0.25, 0.5, 0.7, 1.4, 2, 4, 10]) {
      v[k] = Math.min(BOUNDS[k][1], Math.max(BOUNDS[k][0], start * f));
      set();
      const l = loss();
      if (l < best - 1e-4) {
        best = l;
        keep = v[k]!;
        console.log(`  ${k} = ${keep.toPrecision(3)}: loss ${l.toFixed(4)}`);
      }
    }
    v[k] = keep;
    set();
  }
  console.log(
    `round ${round + 1}: ${JSON.stringify(Object.fromEntries(KEYS.map((k) => [k, Number(v[k]!.toPrecision(3))])))} loss ${best.toFixed(4)}`,
  );
}
