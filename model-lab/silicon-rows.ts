// The rows of AIConfigurator's silicon_sample.csv as model-lab reads them (model-lab/data/silicon/
// README.md says where they come from and what each column means): a small CSV reader and writer
// (the upstream file has no quoted fields; a field with a comma is quoted on the way out) and the
// concurrency each run was measured at.
export type SiliconRow = Record<string, string>;

/** The upstream columns kept in rows.csv, in their order, plus `concurrency` (read out of the source column). */
export const KEPT_COLUMNS = [
  'id',
  'silicon_data_source',
  'backend',
  'backend_version',
  'model_path',
  'system',
  'precision',
  'mode',
  'isl',
  'osl',
  'gemm_quant_mode',
  'moe_quant_mode',
  'batch_size',
  'tp_size',
  'pp_size',
  'attention_dp_size',
  'moe_tp_size',
  'moe_ep_size',
  'silicon_ttft_ms',
  'silicon_tpot_ms',
  'concurrency',
];

function splitLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') ((cur += '"'), i++);
      else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') (out.push(cur), (cur = ''));
    else cur += c;
  }
  out.push(cur);
  return out;
}

export function parseCsv(text: string): SiliconRow[] {
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
  const head = splitLine(lines[0]!);
  return lines.slice(1).map((l) => {
    const cells = splitLine(l);
    return Object.fromEntries(head.map((h, i) => [h, cells[i] ?? '']));
  });
}

const cell = (v: string | undefined) => (v === undefined ? '' : /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

export function rowsToCsv(rows: SiliconRow[], columns: string[]): string {
  return [columns.join(','), ...rows.map((r) => columns.map((c) => cell(r[c])).join(','))].join('\n') + '\n';
}

/**
 * The client's concurrency: `silicon_concurrency=N` in the source column (aiperf --concurrency),
 * else the `_cN_` of the row id, else batch_size (the generator sets the server's max batch to it).
 */
export function concurrencyOf(r: SiliconRow): number {
  const src = /silicon_concurrency=(\d+)/.exec(r.silicon_data_source ?? '');
  if (src) return Number(src[1]);
  const id = /_c(\d+)(?:_|$)/.exec(r.id ?? '');
  if (id) return Number(id[1]);
  return Number(r.batch_size);
}
