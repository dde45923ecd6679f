// The quality check (--quality N) on a Results stage page: each checked row's agreement with its
// reference (exact-match rate, mean shared prefix), eval accuracy, the below-floor mark and the
// random-weights note, in the words of src/quality/text.ts (the --auto summary's), cut to the room.
import { randomWeightsNote } from '../../../quality/greedy.js';
import { qualityText } from '../../../quality/text.js';
import { wrapLines } from '../../base/format.js';
import type { StageTable } from '../../state/results.js';

export interface QualityLine {
  text: string;
  /** Below the floor, or a speculative mismatch: drawn as a warning. */
  warn: boolean;
}

export function qualityRows(table: StageTable | undefined, width: number, room: number): QualityLine[] {
  const checked = (table?.rows ?? []).filter((r) => r.result.quality);
  if (!checked.length || room <= 0) return [];
  const note = randomWeightsNote(checked.some((r) => r.result.quality!.randomWeights));
  const noteLines = note ? wrapLines(`note: ${note}`, width, 2).map((text) => ({ text, warn: false })) : [];
  const rows = checked.flatMap((r) => {
    const q = r.result.quality!;
    const warn = q.belowFloor !== undefined || !!q.speculativeMismatch;
    return wrapLines(`quality ${r.label}: ${qualityText(q)}`, width, 2).map((text) => ({ text, warn }));
  });
  const avail = Math.max(1, room - noteLines.length);
  const kept =
    rows.length > avail
      ? [...rows.slice(0, avail - 1), { text: `… quality of ${checked.length} variant(s) in full in the report`, warn: false }]
      : rows;
  return [...kept, ...noteLines];
}
