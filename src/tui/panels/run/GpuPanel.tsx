// GPU utilisation and memory per GPU: one line each when there is room (with the running variant
// pinned to it, when variants share the host), else one compact line.
import React from 'react';
import { Box, Text } from 'ink';
import type { GpuSample } from '../../../core/metrics.js';
import { fmtMiB, truncate } from '../../base/format.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { Muted } from '../../components/Title.js';

export interface GpuPanelProps {
  gpus: readonly GpuSample[];
  width: number;
  roomy: boolean;
  /** The running variant pinned to each GPU, by GPU index (variants sharing the host). */
  owners?: Readonly<Record<number, string>>;
}

export function GpuPanel({ gpus, width, roomy, owners }: GpuPanelProps): React.JSX.Element | null {
  if (gpus.length === 0) return null;
  if (!roomy && gpus.length > 2) {
    // Pack "index:util% memG" cells into at most two lines.
    const cells = gpus.map((g) => `${g.index}:${Math.round(g.utilPct)}% ${Math.round(g.memUsedMiB / 1024)}G`);
    const lines: string[] = [''];
    for (const cell of cells) {
      const cur = lines[lines.length - 1]!;
      if (cur && 4 + cur.length + 2 + cell.length > width) lines.push(cell);
      else lines[lines.length - 1] = cur ? `${cur}  ${cell}` : cell;
    }
    return (
      <Box flexDirection="column">
        {lines.slice(0, 2).map((l, i) => (
          <Text key={i} wrap="truncate">
            <Muted>{i === 0 ? 'GPU ' : '    '}</Muted>
            {truncate(l, width - 4)}
          </Text>
        ))}
      </Box>
    );
  }
  const ownerW = Math.max(0, ...Object.values(owners ?? {}).map((o) => [...o].length));
  return (
    <Box flexDirection="column">
      {gpus.map((g) => (
        <Text key={g.index} wrap="truncate">
          <Muted>{`GPU${g.index} `}</Muted>
          <ProgressBar ratio={g.utilPct / 100} width={10} />
          {` ${String(Math.round(g.utilPct)).padStart(3)}%  mem `}
          <ProgressBar ratio={g.memTotalMiB ? g.memUsedMiB / g.memTotalMiB : 0} width={10} />
          {` ${fmtMiB(g.memUsedMiB)} / ${fmtMiB(g.memTotalMiB)}  `}
          {g.powerW !== undefined ? `${String(Math.round(g.powerW)).padStart(4)} W  ` : null}
          {ownerW ? <Text bold>{`${(owners?.[g.index] ?? '').padEnd(ownerW)}  `}</Text> : null}
          <Muted>{g.name}</Muted>
        </Text>
      ))}
    </Box>
  );
}
