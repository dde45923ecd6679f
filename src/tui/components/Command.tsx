// A command the user will copy: shown whole, laid out by commandLines (flag and value together,
// ` \` continuations), never cut with an ellipsis.
import React from 'react';
import { Box, Text } from 'ink';
import { commandLines } from '../base/format.js';
import { useTheme } from '../base/theme.js';

export function Command({
  command,
  width,
  prefix = '$ ',
  muted,
}: {
  command: string;
  width: number;
  prefix?: string;
  muted?: boolean;
}): React.JSX.Element {
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      {commandLines(command, width, prefix).map((line, i) => (
        <Text key={i} color={muted ? theme.muted : theme.info} dimColor={muted && theme.dimMuted} wrap="truncate">
          {line}
        </Text>
      ))}
    </Box>
  );
}
