// The Results tables' columns: a stage table (variant, tok/s, gain vs the stage's reference, TTFT,
// TPOT, start-up, GPU-hours, $/Mtok when priced, status) that fits the terminal, and the
// validation table. A wide terminal adds the benchmark time and the GPUs each variant held.
import type { VariantResult, ValidationRow } from '../../../core/events.js';
import { formatGpuHours } from '../../../core/view-cost.js';
import { isStoppedEarly, STOPPED_EARLY, statusText } from '../../../core/result-status.js';
import { isSameServer, SAME_SERVER_STATUS } from '../../../tune/decide/same-server.js';
import { fmtDollars, fmtMs, fmtPct, fmtTokS, truncate } from '../../base/format.js';
import { durationText } from '../../../core/duration-text.js';
import type { ResultRow } from '../../state/results.js';
import type { Column } from '../../components/Table.js';

/** The mark after a label measured with dummy weights (explained under the table). */
export const DUMMY_MARK = '†';

export const isDummy = (r: VariantResult) => r.weights?.kind === 'dummy';

/** The status in a narrow column: the kind alone ("stopped early", "oom"); the reasons are spelt out below. */
function shortStatus(r: VariantResult): string {
  // --quality-floor: measured, but it cannot win (src/tune/decide/decide.ts); the quality line says why.
  if (r.status === 'ok') return r.quality?.belowFloor !== undefined ? 'below floor' : 'ok';
  if (isStoppedEarly(r)) return STOPPED_EARLY;
  if (isSameServer(r)) return SAME_SERVER_STATUS;
  return r.failure?.kind ?? r.status;
}

/** Room for "stopped early" and a failure's kind ("unsupported"). */
const STATUS_MIN = STOPPED_EARLY.length;
/** From this width the table adds the benchmark time and the GPUs held. */
export const WIDE_RESULTS = 120;
const NARROW_PRICED = 90;

// A launch on a host without GPUs held none: '-' (the cost line under the table gives its CPU-seconds).
const gpuHours = (r: ResultRow) => (r.result.gpuTime && r.result.gpuTime.gpus > 0 ? formatGpuHours(r.result.gpuTime.gpuS / 3600) : '-');

/** GPUs the launch held (what its GPU-h multiplies); "-" when not known. */
function gpusHeld(r: VariantResult): string {
  return r.gpuTime ? String(r.gpuTime.gpus) : r.gpuIds?.length ? String(r.gpuIds.length) : '-';
}

/**
 * Columns right of the label and left of the status: all of them fit in 80 columns. Below
 * NARROW_PRICED a priced table gives the start-up column to $/Mtok (GPU-h still counts the start-up).
 */
function numberColumns(priced: boolean, width: number): Column<ResultRow>[] {
  const wide = width >= WIDE_RESULTS;
  const startup = !priced || width >= NARROW_PRICED;
  return [
    { key: 'toks', header: 'tok/s', width: 7, align: 'right', render: (r) => fmtTokS(r.result.metrics?.total_token_throughput) },
    {
      key: 'gain',
      header: 'gain',
      width: 7,
      align: 'right',
      render: (r) => (r.isCarried ? 'carried' : r.isReference ? 'ref' : fmtPct(r.gainPct, true)),
      tone: (r) => (r.gainPct === null || r.isCarried || r.isReference ? undefined : r.gainPct > 0 ? 'good' : 'bad'),
    },
    { key: 'ttft', header: 'TTFT', width: 7, align: 'right', render: (r) => fmtMs(r.result.metrics?.mean_ttft_ms) },
    { key: 'tpot', header: 'TPOT', width: 7, align: 'right', render: (r) => fmtMs(r.result.metrics?.mean_tpot_ms) },
    ...(startup
      ? [
          {
            key: 'startup',
            header: 'startup',
            width: 7,
            align: 'right' as const,
            render: (r: ResultRow) => durationText(r.result.startupS),
          },
        ]
      : []),
    ...(wide
      ? [
          {
            key: 'bench',
            header: 'bench',
            width: 6,
            align: 'right' as const,
            render: (r: ResultRow) => durationText(r.result.gpuTime?.benchmarkS),
          },
          { key: 'gpus', header: 'GPUs', width: 4, align: 'right' as const, render: (r: ResultRow) => gpusHeld(r.result) },
        ]
      : []),
    // GPUs held x launch to stop, startup and benchmark together (simulated time on the simulated host).
    { key: 'gpuh', header: 'GPU-h', width: 5, align: 'right', render: gpuHours },
    ...(priced
      ? [{ key: 'cost', header: '$/Mtok', width: 7, align: 'right' as const, render: (r: ResultRow) => fmtDollars(r.dollarsPerMtok) }]
      : []),
  ];
}

/** The label cell: the winner's star, the label cut to fit, and the dummy-weights mark kept whole. */
function labelCell(r: ResultRow, width: number): string {
  const mark = isDummy(r.result) ? ` ${DUMMY_MARK}` : '';
  return `${r.isWinner ? '* ' : '  '}${truncate(r.label, width - 2 - mark.length)}${mark}`;
}

/** The stage table's columns for a terminal `width` wide; the status takes what is left. */
export function resultColumns(width: number, priced: boolean): Column<ResultRow>[] {
  const nums = numberColumns(priced, width);
  const numsW = nums.reduce((w, c) => w + c.width + 1, 0);
  // The status keeps room for "stopped early" and a failure's kind; the reasons are spelt out below.
  const labelW = Math.max(16, Math.min(34, width - numsW - 2 - STATUS_MIN));
  const statusW = Math.max(6, width - 1 - labelW - 1 - numsW);
  return [
    {
      key: 'variant',
      header: 'variant',
      width: labelW,
      render: (r) => labelCell(r, labelW),
      tone: (r) => (r.isWinner ? 'good' : undefined),
    },
    ...nums,
    {
      key: 'status',
      header: 'status',
      width: statusW,
      render: (r) => r.notEligible ?? (statusW < 24 ? shortStatus(r.result) : statusText(r.result)),
      tone: (r) => (r.notEligible ? 'bad' : r.result.status === 'ok' ? undefined : r.result.status === 'failed' ? 'bad' : 'muted'),
    },
  ];
}

/** The before/after table in the studies' order: baseline, then the winner, then the gain. */
export const validationColumns: Column<ValidationRow>[] = [
  { key: 'scenario', header: 'scenario', width: 18, render: (r) => r.scenario },
  { key: 'base', header: 'base tok/s', width: 10, align: 'right', render: (r) => fmtTokS(r.baseline?.totalTokPerS) },
  { key: 'tpotb', header: 'base TPOT', width: 10, align: 'right', render: (r) => fmtMs(r.baseline?.meanTpotMs) },
  { key: 'opt', header: 'winner tok/s', width: 13, align: 'right', render: (r) => fmtTokS(r.optimized?.totalTokPerS) },
  { key: 'tpota', header: 'winner TPOT', width: 12, align: 'right', render: (r) => fmtMs(r.optimized?.meanTpotMs) },
  {
    key: 'gain',
    header: 'gain',
    width: 8,
    align: 'right',
    render: (r) => fmtPct(r.gainPct, true),
    tone: (r) => (r.gainPct === null ? undefined : r.gainPct >= 0 ? 'good' : 'bad'),
  },
];
