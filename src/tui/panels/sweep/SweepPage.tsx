// The Results screen's sweep page: the frontier chart, the frontier table (the choice marked)
// and the core's choice sentence with its reason and the runner-up.
import React from 'react';
import { Box, Text } from 'ink';
import type { SweepView } from '../../../core/view-sweep.js';
import { sweepChartSeries } from '../../../sweep/view-chart.js';
import { wrapLines } from '../../base/format.js';
import { useTheme } from '../../base/theme.js';
import { FrontierChart } from '../../components/FrontierChart.js';
import { Table } from '../../components/Table.js';
import { Muted } from '../../components/Title.js';
import { frontierColumns, frontierRows } from './sweep-text.js';

/** The choice in words: the sentence (chosen or only shown), its reason, the runner-up; or why there is none. */
export function choiceLines(s: SweepView, withWhy = true): string[] {
  if (!s.choice)
    return [s.done ? `No choice: ${s.noChoice ?? 'nothing measured'}; the staged winner stands.` : 'The sweep did not finish.'];
  return [
    `${s.decides ? 'Chosen' : 'Frontier choice (not applied: the objective is not frontier)'}: ${s.choice.sentence}`,
    ...(withWhy ? [`why: ${s.choice.why}`] : []),
    ...(s.choice.runnerUp ? [`runner-up: ${s.choice.runnerUp}`] : []),
  ];
}

export function SweepPage({ sweep, width, height }: { sweep: SweepView; width: number; height: number }): React.JSX.Element {
  const theme = useTheme();
  const series = sweepChartSeries(sweep);
  // On a short terminal the reason gives way to the chart (the report has it).
  const words = choiceLines(sweep, height >= 26).flatMap((l, i) =>
    wrapLines(l, width, i === 0 ? 3 : 2).map((t) => ({ t, first: i === 0 })),
  );
  const all = frontierRows(sweep);
  // The table keeps at most a third of the screen; the chart takes the rest (at least 11 rows, what the chart needs with its legend).
  const tableRows = Math.min(all.length, Math.max(2, Math.floor(height / 3) - 1));
  const rows = all.length > tableRows ? [...all.filter((r) => r.chosen), ...all.filter((r) => !r.chosen)].slice(0, tableRows) : all;
  const chartRows = Math.max(11, height - words.length - (rows.length ? rows.length + 1 : 1) - (all.length > rows.length ? 1 : 0));
  return (
    <Box flexDirection="column">
      {series.length ? (
        <FrontierChart series={series} width={Math.max(30, width - 1)} height={chartRows} />
      ) : (
        <Muted>no point was measured</Muted>
      )}
      {rows.length ? (
        <Table columns={frontierColumns(width)} rows={rows} rowKey={(r) => `${r.label}:${r.load.value}`} maxWidth={width} />
      ) : (
        <Muted>no frontier</Muted>
      )}
      {all.length > rows.length ? <Muted>{`${all.length - rows.length} more frontier point(s) in the report`}</Muted> : null}
      {words.map(({ t, first }, i) => (
        <Text key={i} wrap="truncate" {...(first ? { color: sweep.choice ? theme.good : theme.warn } : {})}>
          {t}
        </Text>
      ))}
    </Box>
  );
}
