// How the Run screen lays out the variants running now: one variant as it always was, several as
// compact rows (one line each) or, on a terminal wide and tall enough, full panels side by side
// or stacked. Pure: line counts and text only; the components draw what these say.
import { helpItems, type Scope } from '../../base/keymap.js';
import type { GpuSample } from '../../../core/metrics.js';
import { fmtNum, fmtTokS, truncate } from '../../base/format.js';
import { durationText } from '../../../core/duration-text.js';
import type { CurrentVariant, Phase } from '../../state/live.js';

/** A full panel: the status line and the live panel's six lines. */
export const PANEL_LINES = 7;
/** Full panels need this width at least (the live panel's figures); two fit side by side from 2x + 1. */
export const PANEL_MIN_WIDTH = 78;
export const WIDE_RUN = 120;

export type RunningLayout = { kind: 'single' } | { kind: 'panels'; perRow: number; panelWidth: number } | { kind: 'rows'; shown: number };

/** The layout for `n` running variants in `room` lines of a `width`-column terminal. */
export function runningLayout(n: number, width: number, room: number): RunningLayout {
  if (n <= 1) return { kind: 'single' };
  const perRow = width >= 2 * PANEL_MIN_WIDTH + 1 ? 2 : 1;
  if (width >= WIDE_RUN && Math.ceil(n / perRow) * PANEL_LINES <= room)
    return { kind: 'panels', perRow, panelWidth: Math.floor((width - (perRow - 1)) / perRow) };
  // Rows that do not fit leave one line for "… n more running".
  return { kind: 'rows', shown: n <= room ? n : Math.max(1, room - 1) };
}

/** "GPU 3", "GPU 0-3", "GPU 0,2", or "all GPUs" when the variant was not pinned. */
export function gpuText(ids: readonly number[] | undefined): string {
  if (!ids?.length) return 'all GPUs';
  const run = ids.length > 2 && ids.every((g, i) => i === 0 || g === ids[i - 1]! + 1);
  return `GPU ${run ? `${ids[0]}-${ids.at(-1)}` : ids.join(',')}`;
}

const PHASE_WORD: Record<Phase, string> = {
  launching: 'starting',
  ready: 'starting',
  warmup: 'starting',
  bench: 'benchmark',
  stopping: 'stopping',
};

export interface CompactRow {
  label: string;
  gpus: string;
  phase: string;
  /** Bar fill 0..1, and its width in columns (0: no bar, `progress` says how long it has been starting). */
  ratio: number;
  barWidth: number;
  progress: string;
  tokS: string;
}

const totalOf = (c: CurrentVariant) => c.snapshot?.total ?? c.numPrompts ?? 0;

/**
 * The running variants one line each: label, GPUs, phase, progress and live tok/s (total, as
 * the Results table's tok/s). Rows share their column widths so that they line up; the labels
 * take what the fixed parts leave (up to 28 columns), the bar up to 30.
 */
export function compactRows(
  live: readonly CurrentVariant[],
  label: (c: CurrentVariant) => string,
  width: number,
  now: number,
): CompactRow[] {
  // "● " label " " GPUs(9) " " phase(9) " " middle " " tok/s(13): the middle is the bar and the
  // count, or how long the variant has been starting.
  const fixed = 2 + 1 + 9 + 1 + 9 + 1 + 1 + 13;
  const countW = Math.max(...live.map((c) => 2 * fmtNum(totalOf(c)).length + 1));
  const labelW = Math.max(8, Math.min(28, Math.max(...live.map((c) => [...label(c)].length)), width - 1 - fixed - 14));
  const middle = Math.max(10, Math.min(30 + 1 + countW, width - 1 - fixed - labelW));
  const barWidth = Math.max(4, middle - 1 - countW);
  return live.map((c) => {
    const s = c.snapshot;
    const total = totalOf(c);
    const done = s ? s.completed + s.failed : 0;
    const bench = c.phase === 'bench' || (c.phase === 'stopping' && s !== undefined);
    return {
      label: truncate(label(c), labelW).padEnd(labelW),
      gpus: truncate(gpuText(c.gpuIds), 9).padEnd(9),
      phase: PHASE_WORD[c.phase].padEnd(9),
      ratio: total ? done / total : 0,
      barWidth: bench ? barWidth : 0,
      progress: bench
        ? `${fmtNum(done)}/${fmtNum(total)}`.padStart(countW)
        : `up ${durationText(Math.max(0, now - c.launchedAt) / 1000)}`.padEnd(middle),
      tokS: (s ? `${fmtTokS(s.totalTokPerS)} tok/s` : '').padStart(13),
    };
  });
}

/** Lines the footer's key help takes at `width` (its items wrap with two columns between them). */
export function footerLines(scope: Scope, without: readonly string[], width: number): number {
  let lines = 1;
  let used = 0;
  for (const it of helpItems(scope, { without })) {
    const w = it.label.length + 1 + it.help.length;
    if (used > 0 && used + 2 + w > width) {
      lines++;
      used = w;
    } else used += (used > 0 ? 2 : 0) + w;
  }
  return lines;
}

/** Lines the GPU panel takes (GpuPanel.tsx: one per GPU when roomy or few, else at most two). */
export function gpuPanelLines(gpus: readonly GpuSample[], roomy: boolean): number {
  return gpus.length === 0 ? 0 : !roomy && gpus.length > 2 ? Math.min(2, gpus.length) : gpus.length;
}
