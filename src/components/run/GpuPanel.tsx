// GPU utilisation and memory per GPU: one line each when there is room, else one compact line.
import React from 'react';
import { Box, Text } from 'ink';
import type { GpuSample } from '../../core/events.js';
import { fmtMiB, truncate } from '../../ui/format.js';
import { ProgressBar } from '../ProgressBar.js';
import { Muted } from '../Title.js';

export function GpuPanel({ gpus, width, roomy }: { gpus: readonly GpuSample[]; width: number; roomy: boolean }): React.JSX.Element | null {
  if (gpus.length === 0) return null;
  if (!roomy && gpus.length > 2) {
    const cells = gpus.map((g) => `${g.index}:${Math.round(g.utilPct)}% ${Math.round(g.memUsedMiB / 1024)}G`);
    return (
      <Text wrap="truncate">
        <Muted>GPU </Muted>
        {truncate(cells.join('  '), width - 4)}
      </Text>
    );
  }
  return (
    <Box flexDirection="column">
      {gpus.map((g) => (
        <Text key={g.index} wrap="truncate">
          <Muted>{`GPU${g.index} `}</Muted>
          <ProgressBar ratio={g.utilPct / 100} width={10} />
          {` ${String(Math.round(g.utilPct)).padStart(3)}%  mem `}
          <ProgressBar ratio={g.memTotalMiB ? g.memUsedMiB / g.memTotalMiB : 0} width={10} />
          {` ${fmtMiB(g.memUsedMiB)} / ${fmtMiB(g.memTotalMiB)}  `}
          <Muted>{g.name}</Muted>
        </Text>
      ))}
    </Box>
  );
}
