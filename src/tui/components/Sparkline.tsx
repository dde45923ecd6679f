import React from 'react';
import { Text } from 'ink';
import { sparkline } from '../base/format.js';
import { useTheme } from '../base/theme.js';

/** The last `width` points of a series as block characters. */
export function Sparkline({ values, width }: { values: readonly number[]; width: number }): React.JSX.Element {
  const theme = useTheme();
  const line = sparkline(values, width, theme.glyph.spark);
  return <Text color={theme.accent}>{line.padEnd(Math.max(0, width), ' ')}</Text>;
}
