import React from 'react';
import { Text } from 'ink';
import { useTheme } from '../base/theme.js';

/** A bar `width` columns wide filled to `ratio` (0..1). */
export function ProgressBar({ ratio, width }: { ratio: number; width: number }): React.JSX.Element {
  const theme = useTheme();
  const r = Number.isFinite(ratio) ? Math.min(1, Math.max(0, ratio)) : 0;
  const full = Math.round(r * width);
  return (
    <Text>
      <Text color={theme.good}>{theme.glyph.barFull.repeat(full)}</Text>
      <Text color={theme.muted} dimColor={theme.dimMuted}>
        {theme.glyph.barEmpty.repeat(Math.max(0, width - full))}
      </Text>
    </Text>
  );
}
