// Several variants running at once (variants of a stage on disjoint GPUs): one compact line each
// on a small terminal, or each one's full panel (status line and live figures) side by side or
// stacked on a wide one. run-layout.ts decides which and sizes the parts.
import React from 'react';
import { Box, Text } from 'ink';
import type { CurrentVariant } from '../../state/live.js';
import { useTheme } from '../../base/theme.js';
import { ProgressBar } from '../../components/ProgressBar.js';
import { Muted } from '../../components/Title.js';
import { LivePanel } from './LivePanel.js';
import { LogTail } from './LogTail.js';
import { StatusLine } from './StatusLine.js';
import { compactRows, gpuText, PANEL_LINES, type RunningLayout } from './run-layout.js';

export interface RunningVariantsProps {
  live: readonly CurrentVariant[];
  layout: Exclude<RunningLayout, { kind: 'single' }>;
  /** Each variant's label as the screen names it. */
  label: (c: CurrentVariant) => string;
  width: number;
  now: number;
  simulated: boolean;
  /** The row the skip key stops (up/down picks it); marked when set. */
  picked?: string;
}

function CompactRows({ p, shown }: { p: RunningVariantsProps; shown: number }): React.JSX.Element {
  const theme = useTheme();
  const shownLive = p.live.slice(0, shown);
  const rows = compactRows(shownLive, p.label, p.width, p.now);
  return (
    <Box flexDirection="column">
      {shownLive.map((c, i) => {
        const r = rows[i]!;
        const isPicked = c.variantId === p.picked;
        return (
          <Text key={c.variantId} wrap="truncate">
            <Text color={c.phase === 'stopping' ? theme.warn : theme.accent}>{isPicked ? `${theme.glyph.focus} ` : '● '}</Text>
            <Text bold inverse={isPicked}>
              {r.label}
            </Text>
            <Muted>{` ${r.gpus} `}</Muted>
            <Text color={c.phase === 'bench' ? theme.accent : undefined}>{`${r.phase} `}</Text>
            {r.barWidth ? <ProgressBar ratio={r.ratio} width={r.barWidth} /> : null}
            {r.barWidth ? ' ' : ''}
            {r.progress}
            <Text bold>{` ${r.tokS}`}</Text>
          </Text>
        );
      })}
      {p.live.length > shown ? <Muted>{`… ${p.live.length - shown} more running`}</Muted> : null}
    </Box>
  );
}

/** One variant's full panel, PANEL_LINES tall whatever its phase, so panels side by side line up. */
function Panel({ c, p, width }: { c: CurrentVariant; p: RunningVariantsProps; width: number }): React.JSX.Element {
  const theme = useTheme();
  const mark = c.variantId === p.picked ? `${theme.glyph.focus} ` : '';
  return (
    <Box flexDirection="column" width={width} height={PANEL_LINES}>
      <StatusLine c={c} label={`${mark}${p.label(c)} · ${gpuText(c.gpuIds)}`} now={p.now} width={width} />
      {c.phase === 'bench' ? (
        <LivePanel current={c} width={width} now={p.now} simulated={p.simulated} />
      ) : c.phase === 'launching' ? (
        <LogTail lines={c.logTail} count={PANEL_LINES - 1} width={width} />
      ) : null}
    </Box>
  );
}

export function RunningVariants(p: RunningVariantsProps): React.JSX.Element {
  const { layout } = p;
  if (layout.kind === 'rows') return <CompactRows p={p} shown={layout.shown} />;
  const rows: CurrentVariant[][] = [];
  for (let i = 0; i < p.live.length; i += layout.perRow) rows.push(p.live.slice(i, i + layout.perRow));
  return (
    <Box flexDirection="column">
      {rows.map((row) => (
        <Box key={row.map((c) => c.variantId).join('+')} columnGap={1}>
          {row.map((c) => (
            <Panel key={c.variantId} c={c} p={p} width={layout.panelWidth} />
          ))}
        </Box>
      ))}
    </Box>
  );
}
