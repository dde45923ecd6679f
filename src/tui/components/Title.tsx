import React from 'react';
import { Box, Text } from 'ink';
import { useTheme } from '../base/theme.js';

/** The screen heading: step number, name, and a right-hand note (e.g. "simulated H100 x1"). */
export function Title({ step, name, note }: { step: number; name: string; note?: string }): React.JSX.Element {
  const theme = useTheme();
  return (
    // A long note (a run folder's path) keeps a space after the name and gives up its start, not its end.
    <Box justifyContent="space-between" columnGap={1}>
      <Box flexShrink={0}>
        <Text bold color={theme.accent}>
          servelab · {step}/6 {name}
        </Text>
      </Box>
      {note ? (
        <Text color={theme.warn} wrap="truncate-start">
          {note}
        </Text>
      ) : null}
    </Box>
  );
}

/** Secondary text in the theme's muted tone. */
export function Muted({ children, wrap }: { children: React.ReactNode; wrap?: 'truncate' | 'wrap' }): React.JSX.Element {
  const theme = useTheme();
  return (
    <Text color={theme.muted} dimColor={theme.dimMuted} wrap={wrap}>
      {children}
    </Text>
  );
}
