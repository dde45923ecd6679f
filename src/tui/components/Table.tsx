// A small table: columns with a header, a width, an alignment and a cell renderer.
// In-house because ink-table 3.1.0 is CommonJS and cannot require() Ink 6 (ERR_REQUIRE_ASYNC_MODULE).
import React from 'react';
import { Box, Text } from 'ink';
import { truncate } from '../base/format.js';
import { useTheme } from '../base/theme.js';

export type Tone = 'good' | 'bad' | 'warn' | 'muted' | 'accent';

export interface Column<T> {
  key: string;
  header: string;
  /** Width in columns; the cell text is cut with an ellipsis past it. */
  width: number;
  align?: 'left' | 'right';
  /** Text of the cell; colour comes from `tone`. */
  render: (row: T, index: number) => string;
  tone?: (row: T, index: number) => Tone | undefined;
}

export interface TableProps<T> {
  columns: readonly Column<T>[];
  rows: readonly T[];
  rowKey: (row: T, index: number) => string;
  /** A whole-row tone (e.g. muted for pruned rows), applied where a cell has none. */
  rowTone?: (row: T, index: number) => Tone | undefined;
  /** Drop columns from the right until the table fits this width. */
  maxWidth?: number;
  emptyText?: string;
}

export function fitColumns<T>(columns: readonly Column<T>[], maxWidth: number | undefined): Column<T>[] {
  if (!maxWidth) return [...columns];
  const out = [...columns];
  const width = () => out.reduce((w, c) => w + c.width + 1, -1);
  while (out.length > 1 && width() > maxWidth) out.pop();
  return out;
}

export function pad(text: string, width: number, align: 'left' | 'right' = 'left'): string {
  const t = truncate(text, width);
  const fill = ' '.repeat(Math.max(0, width - [...t].length));
  return align === 'right' ? fill + t : t + fill;
}

export function Table<T>({ columns, rows, rowKey, rowTone, maxWidth, emptyText }: TableProps<T>): React.JSX.Element {
  const theme = useTheme();
  const cols = fitColumns(columns, maxWidth);
  const colour = (tone: ReturnType<NonNullable<Column<T>['tone']>>) => (tone ? theme[tone] : undefined);
  return (
    <Box flexDirection="column">
      <Text bold>{cols.map((c) => pad(c.header, c.width, c.align)).join(' ')}</Text>
      {rows.length === 0 && emptyText ? (
        <Text color={theme.muted} dimColor={theme.dimMuted}>
          {emptyText}
        </Text>
      ) : null}
      {rows.map((row, i) => {
        const rt = rowTone?.(row, i);
        return (
          <Text key={rowKey(row, i)} wrap="truncate">
            {cols.map((c, ci) => {
              const tone = c.tone?.(row, i) ?? rt;
              return (
                <Text key={c.key} color={colour(tone)} dimColor={tone === 'muted' && theme.dimMuted}>
                  {pad(c.render(row, i), c.width, c.align) + (ci < cols.length - 1 ? ' ' : '')}
                </Text>
              );
            })}
          </Text>
        );
      })}
    </Box>
  );
}
