// The help bar, drawn from the keymap so it always matches what the keys do.
import React from 'react';
import { Box, Text } from 'ink';
import { helpItems, type Scope } from '../base/keymap.js';
import { useTheme } from '../base/theme.js';

export function Footer({
  scope,
  without,
  textEntry,
}: {
  scope: Scope;
  without?: readonly string[];
  textEntry?: boolean;
}): React.JSX.Element {
  const theme = useTheme();
  const items = helpItems(scope, { without, textEntry });
  return (
    <Box flexWrap="wrap" columnGap={2}>
      {items.map((it) => (
        <Text key={it.label + it.help}>
          <Text bold color={theme.accent}>
            {it.label}
          </Text>
          <Text color={theme.muted} dimColor={theme.dimMuted}>
            {' '}
            {it.help}
          </Text>
        </Text>
      ))}
    </Box>
  );
}
