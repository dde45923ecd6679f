// A checklist's state: the focused row and the ids left unchecked, as a pure reducer, and the
// window of rows that fits the height with the focus always in it (ink-ui's select keeps the
// same visibleFrom/visibleTo in its state; here it is derived, so a resize cannot stale it).

export interface ChecklistState {
  focus: number;
  /** Ids of the items the user unchecked. */
  disabled: string[];
}

export type ChecklistAction =
  | { type: 'move'; dir: 1 | -1; total: number }
  /** Toggle one item, or a group: all on when any was off, otherwise all off. */
  | { type: 'toggle'; ids: readonly string[] };

export const initialChecklist: ChecklistState = { focus: 0, disabled: [] };

export function checklistReducer(s: ChecklistState, a: ChecklistAction): ChecklistState {
  switch (a.type) {
    case 'move':
      return a.total ? { ...s, focus: Math.min(a.total - 1, Math.max(0, s.focus + a.dir)) } : s;
    case 'toggle': {
      if (a.ids.length === 0) return s;
      const disabled = new Set(s.disabled);
      const turnOn = a.ids.some((id) => disabled.has(id));
      for (const id of a.ids) {
        if (turnOn) disabled.delete(id);
        else disabled.add(id);
      }
      return { ...s, disabled: [...disabled] };
    }
  }
}

export interface ChecklistWindow {
  from: number;
  to: number;
  /** Rows hidden above and below (each shown as a "more" line, which the rows make room for). */
  above: number;
  below: number;
}

/**
 * The rows to draw in `height` lines so the focused one is visible, centred when it can be.
 * The "↑ n more" and "↓ n more" lines count against the height.
 */
export function checklistWindow(total: number, focus: number, height: number): ChecklistWindow {
  const size = Math.max(1, height);
  if (total <= size) return { from: 0, to: total, above: 0, below: 0 };
  const f = Math.max(0, Math.min(total - 1, focus));
  // Rows left once the "more" markers are drawn: one marker at either end, two in the middle.
  const rows = Math.max(1, size - 2);
  let from = Math.min(Math.max(0, f - Math.floor(rows / 2)), total - rows);
  // At the very top or bottom only one marker is needed, so one more row fits.
  if (from === 0) return { from: 0, to: size - 1, above: 0, below: total - (size - 1) };
  if (from + rows >= total) {
    from = total - (size - 1);
    return { from, to: total, above: from, below: 0 };
  }
  return { from, to: from + rows, above: from, below: total - from - rows };
}
