// The capacity search in the TUI: the Run screen's live panel while the winner's server is
// probed, and the Results screen's capacity page. The lines come from capacity-text.ts.
import React from 'react';
import { Box, Text } from 'ink';
import type { CapacityView } from '../../../core/view-capacity.js';
import { useTheme } from '../../base/theme.js';
import { capacityLines } from './capacity-text.js';

export function CapacityPanel({ capacity, width, height }: { capacity: CapacityView; width: number; height: number }): React.JSX.Element {
  const theme = useTheme();
  const color = { good: theme.good, warn: theme.warn, info: theme.info, muted: theme.muted } as const;
  return (
    <Box flexDirection="column">
      {capacityLines(capacity, width, height).map((l, i) => (
        <Text key={i} wrap="truncate" {...(l.tone && color[l.tone] ? { color: color[l.tone]! } : {})}>
          {l.text}
        </Text>
      ))}
    </Box>
  );
}
