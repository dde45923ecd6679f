// The Run screen while the finalists are swept: what is swept, the latest point and the frontier
// chart growing point by point (the same series as the --auto summary's chart:
// src/sweep/view-chart.ts).
import React from 'react';
import { Box, Text } from 'ink';
import type { SweepView } from '../../../core/view-sweep.js';
import { sweepChartSeries } from '../../../sweep/view-chart.js';
import { truncate } from '../../base/format.js';
import { useTheme } from '../../base/theme.js';
import { FrontierChart } from '../../components/FrontierChart.js';
import { Muted } from '../../components/Title.js';
import { latestPointLine, sweepHeader } from './sweep-text.js';

/** Chart rows for a terminal `height` tall: what the screen's other lines leave, up to 40. */
export function liveChartRows(height: number, otherRows: number): number {
  return Math.max(11, Math.min(40, height - otherRows));
}

export function SweepPanel({ sweep, width, height }: { sweep: SweepView; width: number; height: number }): React.JSX.Element {
  const theme = useTheme();
  const series = sweepChartSeries(sweep);
  const last = latestPointLine(sweep);
  return (
    <Box flexDirection="column">
      <Text color={theme.info} wrap="truncate">
        {truncate(sweepHeader(sweep), width)}
      </Text>
      <Text wrap="truncate">{truncate(last ?? 'waiting for the first point…', width)}</Text>
      {series.length ? (
        <FrontierChart series={series} width={Math.max(30, width - 1)} height={height} />
      ) : (
        <Muted>the chart appears with the first measured point</Muted>
      )}
    </Box>
  );
}
