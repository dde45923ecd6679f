// A one-line text field's state and its readline edits, as a pure reducer (the shape of ink-ui's
// use-*-state.ts). Positions count code points, so an accented letter or an emoji is one step.

export interface TextFieldState {
  value: string;
  /** Code points before the cursor (0 = start, the length = end). */
  cursor: number;
}

export type TextFieldAction =
  | { type: 'insert'; text: string }
  | { type: 'delete-back' }
  | { type: 'delete-forward' }
  | { type: 'left' }
  | { type: 'right' }
  | { type: 'start' }
  | { type: 'end' }
  /** Ctrl-U: erase from the start of the line to the cursor. */
  | { type: 'kill-start' }
  /** Ctrl-K: erase from the cursor to the end of the line. */
  | { type: 'kill-end' }
  /** Ctrl-W: erase the word before the cursor (readline's unix-word-rubout: words end at whitespace). */
  | { type: 'kill-word' };

export function atEnd(value: string): TextFieldState {
  return { value, cursor: [...value].length };
}

function splice(chars: string[], from: number, to: number, insert = ''): string {
  return [...chars.slice(0, from), insert, ...chars.slice(to)].join('');
}

/** Where a Ctrl-W that starts at `cursor` stops: over any whitespace, then over the word. */
function wordStart(chars: readonly string[], cursor: number): number {
  let i = cursor;
  while (i > 0 && /\s/.test(chars[i - 1]!)) i--;
  while (i > 0 && !/\s/.test(chars[i - 1]!)) i--;
  return i;
}

export function textFieldReducer(s: TextFieldState, a: TextFieldAction): TextFieldState {
  const chars = [...s.value];
  const cursor = Math.max(0, Math.min(s.cursor, chars.length));
  switch (a.type) {
    case 'insert':
      return a.text ? { value: splice(chars, cursor, cursor, a.text), cursor: cursor + [...a.text].length } : s;
    case 'delete-back':
      return cursor > 0 ? { value: splice(chars, cursor - 1, cursor), cursor: cursor - 1 } : s;
    case 'delete-forward':
      return cursor < chars.length ? { value: splice(chars, cursor, cursor + 1), cursor } : s;
    case 'left':
      return { ...s, cursor: Math.max(0, cursor - 1) };
    case 'right':
      return { ...s, cursor: Math.min(chars.length, cursor + 1) };
    case 'start':
      return { ...s, cursor: 0 };
    case 'end':
      return { ...s, cursor: chars.length };
    case 'kill-start':
      return { value: splice(chars, 0, cursor), cursor: 0 };
    case 'kill-end':
      return { value: splice(chars, cursor, chars.length), cursor };
    case 'kill-word': {
      const from = wordStart(chars, cursor);
      return { value: splice(chars, from, cursor), cursor: from };
    }
  }
}

/**
 * The visible slice of a value `width` cells wide that keeps the cursor in view, and where the
 * cursor falls in it. Long values scroll so the cursor is never cut off.
 */
export function visibleSlice(s: TextFieldState, width: number): { text: string; cursor: number } {
  const chars = [...s.value];
  const cursor = Math.max(0, Math.min(s.cursor, chars.length));
  // The cursor past the end takes a cell of its own.
  const cells = chars.length + 1;
  const w = Math.max(1, width);
  if (cells <= w) return { text: s.value, cursor };
  const start = Math.max(0, Math.min(cursor - w + 1, cells - w));
  return { text: chars.slice(start, start + w).join(''), cursor: cursor - start };
}
