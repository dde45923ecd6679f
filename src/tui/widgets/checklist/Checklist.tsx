// The checklist's view: the window of rows that fits `height` lines, the focused one always in
// view, with "↑ n more" / "↓ n more" where rows are cut. Each row draws itself (renderRow).
import React from 'react';
import { Box } from 'ink';
import { Muted } from '../../components/Title.js';
import { checklistWindow } from './state.js';

export interface ChecklistProps<T> {
  rows: readonly T[];
  focus: number;
  /** Lines the list may use, the "more" lines included. */
  height: number;
  rowKey: (row: T, index: number) => string;
  renderRow: (row: T, focused: boolean) => React.JSX.Element;
}

export function Checklist<T>(p: ChecklistProps<T>): React.JSX.Element {
  const w = checklistWindow(p.rows.length, p.focus, p.height);
  return (
    <Box flexDirection="column">
      {w.above > 0 ? <Muted>{`  ↑ ${w.above} more`}</Muted> : null}
      {p.rows.slice(w.from, w.to).map((row, i) => (
        <React.Fragment key={p.rowKey(row, w.from + i)}>{p.renderRow(row, w.from + i === p.focus)}</React.Fragment>
      ))}
      {w.below > 0 ? <Muted>{`  ↓ ${w.below} more`}</Muted> : null}
    </Box>
  );
}
