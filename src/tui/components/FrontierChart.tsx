// The frontier chart on screen: renderChartCells (src/sweep/chart-text.ts, pure) drawn with one
// colour per series. Series colours are a palette, not semantic colours: a chart's lines have no
// meaning beyond telling series apart, and the legend's marker glyphs tell them apart without
// colour (NO_COLOR: the theme has no accent, so nothing is coloured).
import React from 'react';
import { Box, Text } from 'ink';
import type { ChartSeries } from '../../sweep/chart-scale.js';
import { renderChartCells, type ChartCell } from '../../sweep/chart-text.js';
import { useTheme } from '../base/theme.js';
import { useTerminalSize } from '../hooks/useTerminalSize.js';

const SERIES_COLOURS = ['cyan', 'yellow', 'green', 'magenta', 'red', 'blue', 'white', 'gray'];

/** Runs of cells with the same series, so a row is a few <Text>s, not one per character. */
function runs(row: ChartCell[]): { text: string; series: number }[] {
  const out: { text: string; series: number }[] = [];
  for (const c of row) {
    const last = out[out.length - 1];
    if (last && last.series === c.series) last.text += c.ch;
    else out.push({ text: c.ch, series: c.series });
  }
  return out;
}

export function FrontierChart({
  series,
  width,
  height,
}: {
  series: readonly ChartSeries[];
  width: number;
  height: number;
}): React.JSX.Element {
  const theme = useTheme();
  const coloured = theme.accent !== undefined;
  // Line-only series (the frontier) are drawn in the default colour; variants take the palette in order.
  const colourOf: (string | undefined)[] = [];
  let k = 0;
  for (const s of series) colourOf.push(s.lineOnly ? undefined : SERIES_COLOURS[k++ % SERIES_COLOURS.length]);
  const rows = renderChartCells(series, width, height);
  return (
    <Box flexDirection="column">
      {rows.map((row, i) => (
        <Text key={i} wrap="truncate">
          {runs(row).map((r, j) => (
            <Text key={j} {...(coloured && r.series >= 0 && colourOf[r.series] ? { color: colourOf[r.series] } : {})}>
              {r.text}
            </Text>
          ))}
        </Text>
      ))}
    </Box>
  );
}

/** A sweep in progress: a status line and the chart, sized to the terminal (at least 80 x 24 used well). */
export function LiveSweep({ title, status, series }: { title: string; status: string; series: readonly ChartSeries[] }): React.JSX.Element {
  const { columns, rows } = useTerminalSize();
  const theme = useTheme();
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        {title}
      </Text>
      <Text wrap="truncate" {...(theme.muted ? { color: theme.muted } : {})}>
        {status}
      </Text>
      <FrontierChart series={series} width={Math.max(30, columns - 1)} height={Math.max(10, rows - 3)} />
    </Box>
  );
}
