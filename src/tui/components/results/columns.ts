// The Results tables' columns: a stage table (variant, tok/s, gain vs the stage's reference, TTFT,
// TPOT, start-up, $/Mtok when priced, status) that fits the terminal, and the validation table.
import type { VariantResult } from '../../../core/events.js';
import { fmtDollars, fmtDuration, fmtMs, fmtPct, fmtTokS } from '../../format.js';
import type { ResultRow, ValidationRowView } from '../../state/results.js';
import type { Column } from '../Table.js';

export function statusText(r: VariantResult): string {
  if (r.status === 'ok') return 'ok';
  return r.failure ? `${r.failure.kind}: ${r.failure.reason}` : r.status;
}

const STATUS_MIN = 11;

/** Columns right of the label and left of the status: all of them fit in 80 columns. */
function numberColumns(priced: boolean): Column<ResultRow>[] {
  return [
    { key: 'toks', header: 'tok/s', width: 7, align: 'right', render: (r) => fmtTokS(r.result.metrics?.total_token_throughput) },
    { key: 'gain', header: 'gain', width: 7, align: 'right', render: (r) => (r.isCarried ? 'carried' : r.isReference ? 'ref' : fmtPct(r.gainPct, true)), tone: (r) => (r.gainPct === null || r.isCarried || r.isReference ? undefined : r.gainPct > 0 ? 'good' : 'bad') },
    { key: 'ttft', header: 'TTFT', width: 7, align: 'right', render: (r) => fmtMs(r.result.metrics?.mean_ttft_ms) },
    { key: 'tpot', header: 'TPOT', width: 7, align: 'right', render: (r) => fmtMs(r.result.metrics?.mean_tpot_ms) },
    { key: 'startup', header: 'startup', width: 7, align: 'right', render: (r) => fmtDuration(r.result.startupS) },
    ...(priced ? [{ key: 'cost', header: '$/Mtok', width: 7, align: 'right' as const, render: (r: ResultRow) => fmtDollars(r.dollarsPerMtok) }] : []),
  ];
}

/** The stage table's columns for a terminal `width` wide; the status takes what is left. */
export function resultColumns(width: number, priced: boolean): Column<ResultRow>[] {
  const nums = numberColumns(priced);
  const numsW = nums.reduce((w, c) => w + c.width + 1, 0);
  // The status keeps room for a failure's kind ("unsupported"); the reasons are spelt out below.
  const labelW = Math.max(16, Math.min(34, width - numsW - 2 - STATUS_MIN));
  const statusW = Math.max(6, width - 1 - labelW - 1 - numsW);
  return [
    { key: 'variant', header: 'variant', width: labelW, render: (r) => (r.isWinner ? '* ' : '  ') + r.label, tone: (r) => (r.isWinner ? 'good' : undefined) },
    ...nums,
    {
      key: 'status',
      header: 'status',
      width: statusW,
      render: (r) => (statusW < 24 && r.result.failure ? r.result.failure.kind : statusText(r.result)),
      tone: (r) => (r.result.status === 'ok' ? undefined : r.result.status === 'failed' ? 'bad' : 'muted'),
    },
  ];
}

/** The before/after table in the studies' order: baseline, then the winner, then the gain. */
export const validationColumns: Column<ValidationRowView>[] = [
  { key: 'scenario', header: 'scenario', width: 18, render: (r) => r.scenario },
  { key: 'base', header: 'base tok/s', width: 10, align: 'right', render: (r) => fmtTokS(r.baseline?.totalTokPerS) },
  { key: 'tpotb', header: 'base TPOT', width: 10, align: 'right', render: (r) => fmtMs(r.baseline?.meanTpotMs) },
  { key: 'opt', header: 'winner tok/s', width: 13, align: 'right', render: (r) => fmtTokS(r.optimized?.totalTokPerS) },
  { key: 'tpota', header: 'winner TPOT', width: 12, align: 'right', render: (r) => fmtMs(r.optimized?.meanTpotMs) },
  { key: 'gain', header: 'gain', width: 8, align: 'right', render: (r) => fmtPct(r.gainPct, true), tone: (r) => (r.gainPct === null ? undefined : r.gainPct >= 0 ? 'good' : 'bad') },
];

