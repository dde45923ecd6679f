// Step 6: where the profile and the report were written, and how to bring the server back.
import React from 'react';
import { Box, Text } from 'ink';
import { Footer } from '../tui/components/Footer.js';
import { Muted, Title } from '../tui/components/Title.js';
import { Command } from '../tui/components/Command.js';
import { shellQuote } from '../core/shell-quote.js';
import { useKeymap } from '../tui/hooks/useKeymap.js';
import { useTheme } from '../tui/base/theme.js';

export interface SaveScreenProps {
  profilePath: string | null;
  reportPath: string | null;
  runDir?: string;
  simulated: boolean;
  exitCode: number;
  onDone: () => void;
  isActive?: boolean;
  width: number;
}

export function replayCommand(profilePath: string, simulated: boolean): string {
  return `npx servelab replay ${shellQuote(profilePath)}${simulated ? ' --sim' : ''}`;
}

export function SaveScreen(p: SaveScreenProps): React.JSX.Element {
  const theme = useTheme();
  useKeymap('save', { next: p.onDone, quit: p.onDone, interrupt: p.onDone }, { isActive: p.isActive });
  // Paths wrap rather than lose their end: the user copies them.
  const row = (label: string, value: string | null | undefined) => (
    <Text>
      <Text bold>{label.padEnd(9)}</Text>
      {value ?? <Muted>not written</Muted>}
    </Text>
  );
  return (
    <Box flexDirection="column">
      <Title step={6} name="Save" />
      <Box flexDirection="column" marginTop={1}>
        {p.profilePath ? (
          <Text color={theme.good}>{theme.glyph.ok} Profile saved.</Text>
        ) : (
          <Text color={theme.warn}>
            No profile was saved{p.exitCode === 130 ? ' (aborted)' : p.exitCode !== 0 ? ' (no variant succeeded)' : ''}.
          </Text>
        )}
        {row('profile', p.profilePath)}
        {row('report', p.reportPath)}
        {row('journal', p.runDir)}
      </Box>
      {p.profilePath ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>Replay it (checks for regressions on this or another host):</Text>
          <Command command={replayCommand(p.profilePath, p.simulated)} width={p.width} />
          <Muted>Serve it, or export it as a container:</Muted>
          <Command command={`npx servelab serve ${shellQuote(p.profilePath)}`} width={p.width} muted />
          <Command command={`npx servelab export ${shellQuote(p.profilePath)} --format docker`} width={p.width} muted />
        </Box>
      ) : p.runDir ? (
        <Box marginTop={1} flexDirection="column">
          <Muted>Continue it:</Muted>
          <Command command={`npx servelab --resume ${shellQuote(p.runDir)}`} width={p.width} muted />
        </Box>
      ) : null}
      <Box marginTop={1}>
        <Footer scope="save" />
      </Box>
    </Box>
  );
}
