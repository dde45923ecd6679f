// The words under the Results tables: each stage's verdict, the validation's, and the failure
// reasons that fit the page.
import { fmtPct, wrapLines } from '../../base/format.js';
import type { ResultRow, ResultsData, StageTable } from '../../state/results.js';
import { fitBlocks, fitRows } from '../../widgets/paged-table/state.js';
import { sessionCostLine } from '../../components/cost-text.js';
import { DUMMY_MARK, isDummy } from './columns.js';
import { statusText } from '../../../core/result-status.js';

/** Why each row that did not run to the end did not: the whole reason and the hint, wrapped. */
function reasonLines(rows: readonly ResultRow[], width: number): string[][] {
  return rows
    .filter((r) => r.result.status !== 'ok' && r.result.failure)
    .map((r) =>
      wrapLines(`${r.label.trim()}: ${statusText(r.result)}${r.result.failure!.hint ? `; ${r.result.failure!.hint}` : ''}`, width, 3),
    );
}

/** As many whole reasons as fit in `max` lines, then a pointer to the report for the rest. */
function fitReasons(reasons: readonly string[][], max: number): string[] {
  return fitBlocks(reasons, max, (n) => `… ${n} more reason${n > 1 ? 's' : ''} in the report`);
}

function keptTie(tie: string): string {
  return tie.includes(' wins on ') ? tie.replace(/\): .*$/, ')') : tie;
}

/** The line under a stage table: who won, by how much against what, or that the carried one stayed. */
export function stageVerdict(t: StageTable, name: (id: string) => string): string {
  if (!t.winnerId) return 'no winner in this stage';
  // A kept winner in a tied set stays by the declared tie-break, and the clause names the property
  // ("tied within noise: ±6% with s16: s8 holds the fewest slots"). Runs journalled under the older
  // rule said "X wins on RULE" for a pick that decided nothing: only their tie is told.
  if (t.winnerId === t.carriedId)
    return `${name(t.winnerId)} (carried in) stays: no candidate beat it by more than the margin${t.tie ? `; ${keptTie(t.tie)}` : ''}`;
  // The gain is the core's, against the reference it names: the baseline in the first stage.
  const against = !t.referenceId
    ? null
    : t.referenceId === t.carriedId
      ? `${name(t.referenceId)} (carried in)`
      : t.referenceId === t.baselineId
        ? `the baseline ${name(t.referenceId)}`
        : name(t.referenceId);
  const gain = t.gainPct !== null && against && t.referenceId !== t.winnerId ? ` (${fmtPct(t.gainPct, true)} vs ${against})` : '';
  return `winner ${name(t.winnerId)}${gain}${t.tie ? `; ${t.tie}` : ''}`;
}

/** Which file each row served, when the rows differ: "serves: vllm Qwen/Qwen3-14B · llamacpp q.gguf (Q4_K_M)". */
export function servedLines(t: StageTable | undefined, width: number): string[] {
  if (!t?.served) return [];
  const served = t.served;
  const parts = t.rows.filter((r) => served[r.result.variantId]).map((r) => `${r.label.trim()} ${served[r.result.variantId]}`);
  return wrapLines(`serves: ${parts.join(' · ')}`, width, 3);
}

/**
 * The verdict wrapped to the page: five lines when it has a tie to tell (its margin, the noise and
 * where it comes from, the tie-break's property, and what runs would tell a set-aside lead apart
 * take three lines at 120 columns, five at 80), else two. The table's rows fit around it.
 */
export function verdictLines(verdict: string, t: StageTable | undefined, width: number): string[] {
  return verdict ? wrapLines(verdict, width, t?.tie ? 5 : 2) : [];
}

/**
 * The legend for rows measured with dummy weights, with the core's reasons (each engine spells the
 * setting its own way); the winner's first, so a narrow page keeps the one that matters. None when
 * no row was. Up to LEGEND_LINES lines: three engines' reasons take four at 80 columns, and a cut
 * legend hid the spelling of the engines after the winner (the page gives up table rows instead).
 */
const LEGEND_LINES = 4;

export function dummyLegend(t: StageTable | undefined, width: number): string[] {
  const dummy = (t?.rows ?? []).filter((r) => isDummy(r.result));
  if (!dummy.length) return [];
  dummy.sort((a, b) => Number(b.result.variantId === t!.winnerId) - Number(a.result.variantId === t!.winnerId));
  const whys = [...new Set(dummy.map((r) => r.result.weights!.why))];
  return wrapLines(legendText(whys), width, LEGEND_LINES);
}

/**
 * The core gives each engine's reason as "dummy weights (SPELLING): EFFECT" (startup-cache.ts);
 * when they share the effect it is said once, so two or three engines' spellings fit in a few lines.
 */
function legendText(whys: string[]): string {
  const parts = whys.map((w) => /^dummy weights \((.+)\): ([^()]+)$/.exec(w));
  const effect = parts[0]?.[2];
  if (parts.every((m) => m && m[2] === effect))
    return `${DUMMY_MARK} dummy weights, not the real checkpoint (${effect}): ${parts.map((m) => m![1]).join('; ')}`;
  return `${DUMMY_MARK} measured with dummy weights, not the real checkpoint: ${whys.join('; ')}`;
}

/** The session's GPU-hours under every page: the core's sum, or what the variants held so far. */
export function costLines(p: Pick<ResultsData, 'cost' | 'costSoFar'>, width: number): string[] {
  if (p.cost) return wrapLines(sessionCostLine(p.cost, width), width, 2);
  return p.costSoFar ? wrapLines(`cost: ${p.costSoFar}`, width, 2) : [];
}

/** The line under the validation table: what was compared with what. */
export function validationVerdict(
  p: Pick<ResultsData, 'validationBaseline' | 'validationBaselineWhy' | 'validationBaselineIsWinner' | 'winnerLabel'>,
): string {
  if (!p.validationBaseline || !p.winnerLabel) return '';
  if (p.validationBaselineIsWinner)
    return `the baseline is the winner itself (${p.winnerLabel}): no other first-stage variant ran, so there is nothing to compare`;
  return `baseline ${p.validationBaseline}${p.validationBaselineWhy ? ` (${p.validationBaselineWhy})` : ''} vs winner ${p.winnerLabel}`;
}

/**
 * The rows and failure reasons that fit in `room` lines. The live region stays below the terminal
 * height: title, tabs, margins, header, the verdict, "Winner", the command and the footer take
 * their lines; the rows come next, then the reasons.
 */
export function fitPage(table: StageTable | undefined, width: number, room: number): { rows: ResultRow[]; failures: string[] } {
  const avail = Math.max(3, room);
  const reasons = table ? reasonLines(table.rows, width) : [];
  const all = table?.rows ?? [];
  // Keep two lines for reasons when there are any, and one for "… more" when rows are left out.
  const rowRoom = Math.max(1, avail - (reasons.length ? Math.min(2, reasons[0]!.length) : 0));
  const { rows, hidden } = fitRows(all, rowRoom);
  return { rows, failures: fitReasons(reasons, avail - rows.length - (hidden ? 1 : 0)) };
}
