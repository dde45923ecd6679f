// `npx tsx bench/validate.ts`: the model against published results it was not fitted on
// (src/model/data/published.ts). Prints every row, the error per GPU and engine, and the engine
// ranking per group; the figures docs/calibration.md quotes come from here.
import { PUBLISHED } from '../src/model/data/published.js';
import { summarize, validateOne } from '../src/sim/validate.js';

const pct = (x: number | null) => (x === null ? 'does not fit' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);
const wl = (w: (typeof PUBLISHED)[number]['workload']) => (w.kind === 'sharegpt' ? 'ShareGPT' : `random ${w.input}/${w.output}`);
const s = summarize(PUBLISHED.map((r) => validateOne(r)));
console.log('| model | GPU | engine | knobs | workload | published | simulated | error |');
console.log('|---|---|---|---|---|---|---|---|');
for (const x of s.rows) {
  const knobs = Object.entries(x.r.knobs).map(([k, v]) => `${k}=${v}`).join(' ') || '–';
  console.log(`| ${x.r.model} | ${x.r.gpu} | ${x.r.engine} | ${knobs} | ${wl(x.r.workload)} | ${x.r.totalTokPerS.toFixed(0)} | ${x.simulated === null ? x.reason : x.simulated.toFixed(0)} | ${pct(x.error)} |`);
}
console.log(`\nheld-out rows: ${s.rows.length}; median |error| ${(s.medianAbs * 100).toFixed(1)}%, worst ${(s.worstAbs * 100).toFixed(1)}%\n`);
console.log('| GPU engine | rows | median abs error | worst |');
console.log('|---|---|---|---|');
for (const b of s.bySlice) console.log(`| ${b.slice} | ${b.n} | ${(b.medianAbs * 100).toFixed(1)}% | ${(b.worstAbs * 100).toFixed(1)}% |`);
console.log('\n| group | published order | simulated order | right |');
console.log('|---|---|---|---|');
for (const g of s.groups) console.log(`| ${g.group} | ${g.published.join(' > ')} | ${g.simulated.join(' > ')} | ${g.right ? 'yes' : 'no'} |`);
