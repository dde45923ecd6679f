// The paged table's view: a tab line naming the pages (or "‹ [page] ›  n/m" when the names do not
// fit), then the page's table cut to the lines it is given, with "… n more rows" when cut.
import React from 'react';
import { Box, Text } from 'ink';
import { Table, type Column, type Tone } from '../../components/Table.js';
import { Muted } from '../../components/Title.js';
import { useTheme } from '../../base/theme.js';
import { fitRows } from './state.js';

export function PageTabs({ names, page, width }: { names: readonly string[]; page: number; width: number }): React.JSX.Element {
  const theme = useTheme();
  const tabsWidth = names.reduce((w, t) => w + t.length + 3, 0);
  if (tabsWidth <= width) {
    return (
      <Text wrap="truncate">
        {names.map((t, i) => (
          <Text key={t} color={i === page ? theme.accent : theme.muted} bold={i === page} dimColor={i !== page && theme.dimMuted}>
            {i === page ? `[${t}]` : ` ${t} `}{' '}
          </Text>
        ))}
      </Text>
    );
  }
  return (
    <Text wrap="truncate">
      <Text color={theme.accent} bold>{`‹ [${names[page]}] ›`}</Text>
      <Muted>{`  ${page + 1}/${names.length}${page + 1 < names.length ? `  next: ${names[page + 1]}` : ''}`}</Muted>
    </Text>
  );
}

export interface FittedTableProps<T> {
  columns: Column<T>[];
  rows: readonly T[];
  /** Lines for the rows (the header aside), the "… more" line included. */
  room: number;
  rowKey: (row: T, index: number) => string;
  rowTone?: (row: T) => Tone | undefined;
  maxWidth?: number;
  /** What the "more" line says after the count, e.g. "more rows in the report". */
  moreText?: string;
}

export function FittedTable<T>(p: FittedTableProps<T>): React.JSX.Element {
  const { rows, hidden } = fitRows(p.rows, p.room);
  return (
    <Box flexDirection="column">
      <Table
        columns={p.columns}
        rows={rows}
        rowKey={p.rowKey}
        {...(p.rowTone ? { rowTone: p.rowTone } : {})}
        {...(p.maxWidth ? { maxWidth: p.maxWidth } : {})}
      />
      {hidden > 0 ? <Muted>{`… ${hidden} ${p.moreText ?? 'more rows'}`}</Muted> : null}
    </Box>
  );
}
