// `npx tsx model-lab/silicon-import.ts SILICON_SAMPLE_CSV`: brings NVIDIA AIConfigurator's table of
// measured serving runs (aic-core/src/aiconfigurator_core/systems/silicon_sample.csv, github
// ai-dynamo/aiconfigurator at commit 095f58a51c4ca8e61b66ec108d86f223f8d559ce, Apache-2.0) into
// model-lab/data/silicon/: the rows servelab can express (rows.csv) and every other row with the
// reason it was left out (dropped.csv). The mapping of a kept row to servelab's inputs is
// model-lab/silicon-map.ts; units and columns: model-lab/data/silicon/README.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { dropReason, MODEL_OF } from './silicon-map.js';
import { parseCsv, rowsToCsv, type SiliconRow, KEPT_COLUMNS, concurrencyOf } from './silicon-rows.js';

const path = process.argv[2];
if (!path) {
  console.error('usage: npx tsx model-lab/silicon-import.ts PATH/TO/silicon_sample.csv');
  process.exit(2);
}
const all = parseCsv(readFileSync(path, 'utf8'));
const kept: SiliconRow[] = [];
const dropped: Record<string, string>[] = [];
for (const r of all) {
  const why = dropReason(r);
  if (why) {
    dropped.push({ id: r.id!, system: r.system!, reason: why });
    continue;
  }
  // The upstream source column names a file on its authors' machine: only what follows 'data/' is kept.
  const source = (r.silicon_data_source ?? '').replace(/source_file=\/\S*?\/data\//, 'source_file=data/');
  kept.push({ ...r, silicon_data_source: source, concurrency: String(concurrencyOf(r)) } as SiliconRow);
}
const dir = new URL('./data/silicon/', import.meta.url);
writeFileSync(new URL('rows.csv', dir), rowsToCsv(kept, KEPT_COLUMNS));
writeFileSync(new URL('dropped.csv', dir), rowsToCsv(dropped, ['id', 'system', 'reason']));
const by = (xs: { system?: string }[]) =>
  Object.entries(xs.reduce<Record<string, number>>((a, x) => ((a[x.system!] = (a[x.system!] ?? 0) + 1), a), {}))
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
console.log(`${all.length} rows: kept ${kept.length} (${by(kept)}), dropped ${dropped.length}`);
const reasons = dropped.reduce<Record<string, number>>((a, d) => ((a[d.reason!] = (a[d.reason!] ?? 0) + 1), a), {});
for (const [k, v] of Object.entries(reasons).sort((a, b) => b[1] - a[1])) console.log(`  ${String(v).padStart(5)}  ${k}`);
console.log(`models mapped: ${Object.keys(MODEL_OF).join(', ')}`);
