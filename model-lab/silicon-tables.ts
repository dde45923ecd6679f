// The error tables of silicon-check.ts: per set (H100 rows, which the fit may use; H200 rows, held
// out), overall and by engine, model, concurrency band and engine x concurrency band; for
// throughput per GPU, mean TTFT and mean TPOT apart, the median |error| and the median signed
// error (predicted / measured - 1). A row the model refuses (does not fit) is counted apart.
import type { SiliconInput } from './silicon-map.js';
import type { SiliconRow } from './silicon-rows.js';

interface Figures {
  tput: number;
  ttft: number;
  tpot: number;
}

export interface Outcome {
  row: SiliconRow;
  input: SiliconInput;
  fits: boolean;
  reason?: string;
  measured: Figures;
  predicted?: Figures;
  preemptions: number;
}

const METRICS = ['tput', 'ttft', 'tpot'] as const;
const median = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const pct = (x: number, signed = false) => (Number.isNaN(x) ? '–' : `${signed && x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`);

/** The concurrency band a row's client ran at. */
export function band(c: number): string {
  return c <= 8 ? 'C 1-8' : c <= 32 ? 'C 9-32' : c <= 128 ? 'C 33-128' : 'C > 128';
}

function errors(o: Outcome, m: (typeof METRICS)[number]): number {
  return o.predicted![m] / o.measured[m] - 1;
}

export interface Summary {
  n: number;
  refused: number;
  medAbs: Figures;
  medSigned: Figures;
}

export function summarize(os: Outcome[]): Summary {
  const ok = os.filter((o) => o.fits);
  const f = (g: (xs: number[]) => number) =>
    Object.fromEntries(METRICS.map((m) => [m, g(ok.map((o) => errors(o, m)))])) as unknown as Figures;
  return { n: os.length, refused: os.length - ok.length, medAbs: f((xs) => median(xs.map(Math.abs))), medSigned: f(median) };
}

function table(title: string, groups: [string, Outcome[]][]): string[] {
  const out = [
    `\n${title}\n`,
    '| slice | rows | refused | tput/GPU abs | tput/GPU signed | TTFT abs | TTFT signed | TPOT abs | TPOT signed |',
    '|---|---|---|---|---|---|---|---|---|',
  ];
  for (const [name, os] of groups) {
    const s = summarize(os);
    out.push(
      `| ${name} | ${s.n} | ${s.refused} | ${pct(s.medAbs.tput)} | ${pct(s.medSigned.tput, true)} | ${pct(s.medAbs.ttft)} | ${pct(s.medSigned.ttft, true)} | ${pct(s.medAbs.tpot)} | ${pct(s.medSigned.tpot, true)} |`,
    );
  }
  return out;
}

function groupBy(os: Outcome[], key: (o: Outcome) => string): [string, Outcome[]][] {
  const m = new Map<string, Outcome[]>();
  for (const o of os) m.set(key(o), [...(m.get(key(o)) ?? []), o]);
  return [...m.entries()].sort((a, b) => a[0].localeCompare(b[0]));
}

const bandOrder = (g: [string, Outcome[]][]) => {
  const order = ['C 1-8', 'C 9-32', 'C 33-128', 'C > 128'];
  return g.sort(
    (a, b) => order.indexOf(a[0].replace(/^.* /, 'C ')) - order.indexOf(b[0].replace(/^.* /, 'C ')) || a[0].localeCompare(b[0]),
  );
};

function perRow(os: Outcome[]): string[] {
  const out = [
    '\n| id | engine | version | model | GPUs | C | ISL/OSL | TTFT ms meas/pred | TPOT ms meas/pred | tput/GPU err |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const o of os) {
    const x = o.input;
    const p = o.predicted;
    out.push(
      `| ${o.row.id} | ${x.engine} | ${x.engineVersion ?? '–'} | ${x.model} | ${x.gpus} | ${x.concurrency} | ${x.isl}/${x.osl} | ${o.measured.ttft.toFixed(1)} / ${p ? p.ttft.toFixed(1) : o.reason} | ${o.measured.tpot.toFixed(2)} / ${p ? p.tpot.toFixed(2) : '–'} | ${p ? pct(errors(o, 'tput'), true) : '–'} |`,
    );
  }
  return out;
}

/** Every table, H100 (in sample) then H200 (held out). */
export function errorTables(os: Outcome[], o: { perRow: boolean }): string {
  const out: string[] = [];
  const sets: [string, Outcome[]][] = [
    ['H200 (held out: never fitted)', os.filter((x) => x.input.gpu === 'H200')],
    ['H100 (in sample: the fit may use these rows)', os.filter((x) => x.input.gpu === 'H100')],
  ];
  out.push(...table('## Overall', [...sets, ['all', os]]));
  for (const [name, set] of sets) {
    if (!set.length) continue;
    out.push(`\n## ${name}`);
    const ok = set.filter((x) => x.fits);
    const high = ok.filter((x) => x.predicted!.tpot > x.measured.tpot).length;
    out.push(`\nTPOT predicted too high in ${high} of ${ok.length} rows that fit (${pct(high / Math.max(1, ok.length))}).`);
    out.push(
      ...table(
        `### ${name}: by engine`,
        groupBy(set, (x) => x.input.engine),
      ),
    );
    out.push(
      ...table(
        `### ${name}: by model`,
        groupBy(set, (x) => x.input.model),
      ),
    );
    out.push(...table(`### ${name}: by concurrency band`, bandOrder(groupBy(set, (x) => band(x.input.concurrency)))));
    out.push(
      ...table(
        `### ${name}: by engine and concurrency band`,
        bandOrder(groupBy(set, (x) => `${x.input.engine} ${band(x.input.concurrency)}`)),
      ),
    );
    const refused = set.filter((x) => !x.fits);
    if (refused.length) {
      out.push(`\nRefused (${refused.length}):`);
      for (const [why, xs] of groupBy(refused, (x) => x.reason ?? '')) out.push(`  ${xs.length} x ${why}`);
    }
    if (o.perRow) out.push(...perRow(set));
  }
  out.push(...bandsForPredict(sets[0]![1]));
  return out.join('\n');
}

/** The H200 figures per engine and band as src/model/data/measured-error.ts holds them. */
function bandsForPredict(h200: Outcome[]): string[] {
  const out = ['\n## For src/model/data/measured-error.ts (H200, held out)\n'];
  const bands: [string, number][] = [
    ['C 1-8', 8],
    ['C 9-32', 32],
    ['C 33-128', 128],
    ['C > 128', Infinity],
  ];
  for (const engine of ['vllm', 'sglang', 'trtllm']) {
    out.push(`  ${engine}: [`);
    for (const [name, upTo] of bands) {
      const s = summarize(h200.filter((o) => o.input.engine === engine && band(o.input.concurrency) === name));
      if (!s.n) continue;
      const label = upTo === Infinity ? 'concurrency above 128' : `concurrency ${name.slice(2)}`;
      const r = (x: number) => Number(x.toFixed(3));
      out.push(
        `    { upTo: ${upTo === Infinity ? 'Infinity' : upTo}, label: '${label}', rows: ${s.n - s.refused}, tputPerGpu: ${r(s.medAbs.tput)}, tpot: ${r(s.medAbs.tpot)}, ttft: ${r(s.medAbs.ttft)} },`,
      );
    }
    out.push('  ],');
  }
  return out;
}
