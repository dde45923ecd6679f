// The running variant's status line: its phase (launching, ready, warming up, benchmarking,
// stopping), its name, what it is doing and for how long. Used by the Run and Replay screens.
import React from 'react';
import { Text } from 'ink';
import { durationText } from '../../../core/duration-text.js';
import type { CurrentVariant, Phase } from '../../state/live.js';
import { useTheme } from '../../base/theme.js';
import { Muted } from '../../components/Title.js';

const PHASE_TEXT: Record<Phase, string> = {
  launching: 'launching',
  ready: 'ready',
  warmup: 'warming up',
  bench: 'benchmarking',
  stopping: 'stopping server',
};

export function StatusLine({ c, label, now, width }: { c: CurrentVariant; label: string; now: number; width?: number }): React.JSX.Element {
  const theme = useTheme();
  const since = (now - c.launchedAt) / 1000;
  const details =
    c.phase === 'launching'
      ? [`port ${c.port}`]
      : c.phase === 'bench'
        ? // Longest first: the prompt count is also on the progress line, so it goes first when short of room.
          [`${c.scenario ?? ''}${c.numPrompts ? ` · ${c.numPrompts} prompts` : ''}`, c.scenario ?? '']
        : c.startupS !== undefined
          ? [`started in ${durationText(c.startupS)}`]
          : [];
  const phase = `● ${PHASE_TEXT[c.phase].padEnd(13)} `;
  const elapsed = `elapsed ${durationText(since)}`;
  // Room for the elapsed figure to grow ("9.9s" -> "1m05s") without the line being cut.
  const fits = (d: string) => !width || [...`${phase}${label}  ${d}  ${elapsed}`].length + 2 <= width - 1;
  const detail = [...details, ''].find(fits) ?? '';
  return (
    <Text wrap="truncate">
      <Text color={c.phase === 'stopping' ? theme.warn : theme.accent}>{phase}</Text>
      <Text bold>{label}</Text>
      <Muted>{`  ${detail ? `${detail}  ` : ''}${elapsed}`}</Muted>
    </Text>
  );
}
