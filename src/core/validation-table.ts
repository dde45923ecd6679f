// The before/after validation table's columns: one set for the Markdown report
// (profiles/report/tables.ts) and the headless summary (cli/text.ts). Each view keeps its own
// number style and table layout; the headers and what each column holds are decided here.
import type { ValidationRow } from './events.js';
import type { TpotMode } from './tpot.js';

/**
 * The headers. The rows keep servelab's TPOT (the first token left out) in either mode, so when
 * the other tables count the first token in (`--tpot inclusive`) these say they do not.
 */
export function validationHead(tpot: TpotMode): string[] {
  const tpotCol = (side: string) => `${side} TPOT ms${tpot === 'inclusive' ? ' (excl. 1st)' : ''}`;
  return ['scenario', 'baseline tok/s', tpotCol('baseline'), 'optimized tok/s', tpotCol('optimized'), 'gain'];
}

/** One row's cells under validationHead, numbers in the view's `num` and the gain in its signed `pct`. */
export function validationCells(r: ValidationRow, num: (n: number | undefined) => string, pct: (p: number | null) => string): string[] {
  return [
    r.scenario,
    num(r.baseline?.totalTokPerS),
    num(r.baseline?.meanTpotMs),
    num(r.optimized?.totalTokPerS),
    num(r.optimized?.meanTpotMs),
    pct(r.gainPct),
  ];
}

/** One row's regression by name: "sharegpt -20.3% (beyond the 2% margin)", or "sharegpt (failed; the baseline ran)". */
function regressionName(r: ValidationRow): string {
  if (r.gainPct === null) return `${r.scenario} (failed; the baseline ran)`;
  const margin = r.marginPct !== undefined ? ` (beyond the ${Number(r.marginPct.toFixed(1))}% margin)` : '';
  return `${r.scenario} ${r.gainPct.toFixed(1)}%${margin}`;
}

/**
 * The named regressions of a before/after table, one line for every view (summary, report, Results
 * screen, the --auto exit line): "regression vs the baseline on sharegpt -20.3% (beyond the 2%
 * margin)"; null when the winner loses beyond the margin nowhere.
 */
export function regressionLine(rows: readonly ValidationRow[]): string | null {
  const hit = rows.filter((r) => r.regression);
  return hit.length ? `regression vs the baseline on ${hit.map(regressionName).join(', ')}` : null;
}
