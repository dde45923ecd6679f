// `npx tsx model-lab/validate.ts`: the model against published results (src/model/data/published.ts).
// HELD-OUT rows (split 'held-out': never fitted on) first, with the error per GPU and engine and
// the engine ranking per group; then the same summary for the TRAINING rows (in-sample, for
// comparison only). The figures docs/calibration.md quotes come from here.
import { PUBLISHED } from '../src/model/data/published.js';
import type { PublishedResult } from '../src/model/data/published-result.js';
import { isNotAsPublished } from '../src/model/data/not-as-published.js';
import { summarize, validateOne } from './sim-validation.js';

const pct = (x: number | null) => (x === null ? 'does not fit' : `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);
const wl = (w: PublishedResult['workload']) => (w.kind === 'sharegpt' ? 'ShareGPT' : `random ${w.input}/${w.output}`);
const p1 = (x: number) => `${(x * 100).toFixed(1)}%`;

function report(title: string, rows: PublishedResult[]): void {
  const s = summarize(rows.map((r) => validateOne(r)));
  console.log(`\n## ${title}\n`);
  console.log('| model | GPU | engine | knobs | workload | published | simulated | error |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const x of s.rows) {
    const knobs =
      Object.entries(x.r.knobs)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ') || '–';
    console.log(
      `| ${x.r.model} | ${x.r.gpu} | ${x.r.engine} | ${knobs}${x.r.caveat ? ' (*)' : ''} | ${wl(x.r.workload)} | ${x.r.totalTokPerS.toFixed(0)} | ${x.simulated === null ? x.reason : x.simulated.toFixed(0)} | ${pct(x.error)} |`,
    );
  }
  const runs = s.rows.filter((x) => x.error !== null).map((x) => Math.abs(x.error!));
  const sg = summarize(s.rows.filter((x) => x.r.workload.kind === 'sharegpt').map((x) => x));
  console.log(
    `\n${title}: ${s.rows.length} rows; median |error| ${p1(s.medianAbs)} (a refused row counts as infinite), worst ${p1(s.worstAbs)}; refused ${s.rows.length - runs.length}; rows that run: worst ${p1(Math.max(...runs))}; ShareGPT rows (${sg.rows.length}): median ${p1(sg.medianAbs)}`,
  );
  const asPublished = s.rows.filter((x) => !isNotAsPublished(x.r.caveat));
  if (asPublished.length < s.rows.length) {
    const a = summarize(asPublished);
    console.log(
      `without the ${s.rows.length - asPublished.length} rows whose published command cannot start as stated (caveat 'not reproducible as published', src/model/data/not-as-published.ts): ${a.rows.length} rows; median |error| ${p1(a.medianAbs)}, worst ${p1(a.worstAbs)}`,
    );
  }
  console.log(
    '(*) a caveat in published.ts: a flag the model does not represent, a flag the page omits, or a run not reproducible as published\n',
  );
  console.log('| GPU engine | rows | median abs error | worst |');
  console.log('|---|---|---|---|');
  for (const b of s.bySlice) console.log(`| ${b.slice} | ${b.n} | ${p1(b.medianAbs)} | ${p1(b.worstAbs)} |`);
  if (!s.groups.length) return;
  console.log('\n| group | published order | simulated order | right |');
  console.log('|---|---|---|---|');
  for (const g of s.groups)
    console.log(`| ${g.group} | ${g.published.join(' > ')} | ${g.simulated.join(' > ')} | ${g.right ? 'yes' : 'no'} |`);
}

report(
  'held-out',
  PUBLISHED.filter((r) => r.split === 'held-out'),
);
report(
  'training (in-sample)',
  PUBLISHED.filter((r) => r.split === 'train'),
);
