// A paged table's state: which page is shown (one page per stage, say), and how many of a page's
// rows fit the lines left to it. Pure, so the screens' layout arithmetic is tested on its own.

/**
 * The page after a step. Paging stops at the first and last pages, so a burst of presses lands
 * on the end rather than wrapping back to the start.
 */
export function pageStep(page: number, dir: 1 | -1, pages: number): number {
  return pages ? Math.max(0, Math.min(pages - 1, page + dir)) : page;
}

export interface FittedRows<T> {
  rows: T[];
  /** Rows left out (drawn as one "… n more" line, which counts against the room). */
  hidden: number;
}

/** As many rows as fit `room` lines (at least one); when some are cut, one line says how many. */
export function fitRows<T>(all: readonly T[], room: number): FittedRows<T> {
  const r = Math.max(1, room);
  if (all.length <= r) return { rows: [...all], hidden: 0 };
  const rows = all.slice(0, Math.max(1, r - 1));
  return { rows, hidden: all.length - rows.length };
}

/** As many whole blocks of lines as fit `max` lines, then one line naming how many were left out. */
export function fitBlocks(blocks: readonly string[][], max: number, more: (n: number) => string): string[] {
  const out: string[] = [];
  for (const [i, b] of blocks.entries()) {
    const last = i === blocks.length - 1;
    if (out.length + b.length + (last ? 0 : 1) > max) {
      out.push(more(blocks.length - i));
      break;
    }
    out.push(...b);
  }
  return out;
}
