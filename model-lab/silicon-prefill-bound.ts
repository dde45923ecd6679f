// `npx tsx model-lab/silicon-prefill-bound.ts`: what the measured runs of AIConfigurator's
// silicon_sample.csv (data/silicon/) imply about prefill, from the table alone and first
// principles, with no servelab model in the way. A closed loop of C clients with fixed lengths
// completes C / (TTFT + (OSL - 1) x TPOT) requests per second; each needs ISL x 2 x active
// parameters FLOPs of prefill GEMMs (attention left out, so this is a floor). Divided by the GPUs'
// dense datasheet peak (FP8 for FP8 weights on Hopper, else BF16), it is the share of the peak that
// prefill alone must have used. A share near or above the whole of the peak, while decode also ran,
// means the prompts cost less than ISL fresh tokens (prefix-cache hits, or lengths other than the
// columns say): the model, which charges every prompt token, cannot follow those rows.
// Prints figures only.
import { readFileSync } from 'node:fs';
import { parseCsv } from './silicon-rows.js';
import { toInput } from './silicon-map.js';
import { findGpu } from '../src/model/gpus.js';
import { getModel } from '../src/model/models.js';
import { paramCounts } from '../src/model/param-counts.js';

const rows = parseCsv(readFileSync(new URL('./data/silicon/rows.csv', import.meta.url), 'utf8'));
const groups = new Map<string, number[]>();
for (const r of rows) {
  const x = toInput(r);
  const m = getModel(x.model)!;
  const g = findGpu(x.gpu)!;
  const latencyS = (Number(r.silicon_ttft_ms) + (x.osl - 1) * Number(r.silicon_tpot_ms)) / 1000;
  const flopsPerS = (x.concurrency / latencyS) * x.isl * 2 * paramCounts(m).active;
  const peak = (m.weightDtype === 'fp8' || x.knobs.quantization === 'fp8' ? g.fp8Flops : g.bf16Flops) * x.gpus;
  const key = `${x.gpu} ${x.engine} ${x.model}`;
  if (!groups.has(key)) groups.set(key, []);
  groups.get(key)!.push(flopsPerS / peak);
}
const q = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
console.log('# Prefill share of the dense peak that the measured runs imply (attention left out: a floor)\n');
console.log('| GPU engine model | rows | median | p90 | max | rows over 50% | over 80% |');
console.log('|---|---|---|---|---|---|---|');
for (const [k, xs] of [...groups].sort()) {
  console.log(
    `| ${k} | ${xs.length} | ${pct(q(xs, 0.5))} | ${pct(q(xs, 0.9))} | ${pct(Math.max(...xs))} | ${xs.filter((x) => x > 0.5).length} | ${xs.filter((x) => x > 0.8).length} |`,
  );
}
