// The Results page under the title: the stage tabs, the page's table cut to the terminal (one
// page per stage, then the validation table), its verdict and failure reasons, and the winner's
// command. Keys and title belong to the screen around it (Results in the workbench, `servelab view`).
import React from 'react';
import { Box, Text } from 'ink';
import { commandLines } from '../../base/format.js';
import { formatCommand } from '../../../core/shell-quote.js';
import { servingArgv } from '../../../tune/launch/dummy-weights.js';
import type { ResultsData } from '../../state/results.js';
import { useTheme } from '../../base/theme.js';
import { FittedTable, PageTabs } from '../../widgets/paged-table/PagedTable.js';
import { Command } from '../../components/Command.js';
import { Table } from '../../components/Table.js';
import { Muted } from '../../components/Title.js';
import { SweepPage } from '../sweep/SweepPage.js';
import { CapacityPanel } from '../capacity/CapacityPanel.js';
import { qualityRows } from './quality-lines.js';
import { trafficLines } from './traffic-lines.js';
import { resultColumns, validationColumns } from './columns.js';
import { costLines, dummyLegend, fitPage, servedLines, stageVerdict, validationVerdict, verdictLines as wrapVerdict } from './verdicts.js';

export interface ResultsBodyProps extends ResultsData {
  page: number;
  width: number;
  height: number;
}

/** The pages: one per stage, the load sweep when there was one, the validation table, then the capacity search when there was one. */
export const resultPages = (d: Pick<ResultsData, 'tables' | 'sweep' | 'capacity'>) =>
  d.tables.length + (d.sweep ? 1 : 0) + 1 + (d.capacity ? 1 : 0);

/** The tabs' names, in page order. */
const pageNames = (d: Pick<ResultsData, 'tables' | 'sweep' | 'capacity'>) => [
  ...d.tables.map((t) => t.stage),
  ...(d.sweep ? ['sweep'] : []),
  'validation',
  ...(d.capacity ? ['capacity'] : []),
];

function WinnerLines({ p, cmd }: { p: ResultsBodyProps; cmd: string }): React.JSX.Element {
  return (
    <Box marginTop={1} flexDirection="column">
      <Text bold wrap="truncate">
        Winner{p.winnerLabel ? `: ${p.winnerLabel}` : ''}
      </Text>
      {cmd ? (
        <Command command={cmd} width={p.width} />
      ) : (
        <Muted>{p.aborted ? 'none: the run was aborted before a stage chose one' : 'no variant succeeded'}</Muted>
      )}
    </Box>
  );
}

export function ResultsBody(p: ResultsBodyProps): React.JSX.Element {
  const page = Math.min(p.page, resultPages(p) - 1);
  if (p.sweep && page === p.tables.length) {
    return (
      <Box flexDirection="column">
        <PageTabs names={pageNames(p)} page={page} width={p.width} />
        <Box marginTop={1} flexDirection="column">
          {/* Title, tabs, the margins and the footer take 6 lines. */}
          <SweepPage sweep={p.sweep} width={p.width} height={p.height - 6} />
        </Box>
      </Box>
    );
  }
  if (p.capacity && page === resultPages(p) - 1) {
    return (
      <Box flexDirection="column">
        <PageTabs names={pageNames(p)} page={page} width={p.width} />
        <Box marginTop={1} flexDirection="column">
          <CapacityPanel capacity={p.capacity} width={p.width} height={p.height - 6} />
        </Box>
      </Box>
    );
  }
  return <StagePage {...p} page={page} />;
}

function StagePage(p: ResultsBodyProps): React.JSX.Element {
  const theme = useTheme();
  const page = p.page;
  const table = p.tables[page];
  const name = (id: string) => p.labels[id] ?? id;
  // The command that serves the winner: a launch on dummy weights loses those flags, as in the profile.
  const cmd = p.winner
    ? formatCommand(servingArgv(p.winner.engineArgv ?? p.winner.argv, p.winner.variant.engine, p.winner.weights), p.winner.env)
    : '';
  const cmdLines = cmd ? commandLines(cmd, p.width).length : 1;
  const verdict = table ? stageVerdict(table, name) : validationVerdict(p);
  const verdictLines = wrapVerdict(verdict, table, p.width);
  const legend = [...servedLines(table, p.width), ...dummyLegend(table, p.width)];
  const traffic = trafficLines(table, p.width);
  const cost = costLines(p, p.width);
  // --quality N: each checked row's agreement with its reference, below-floor marks, the random-weights note.
  const quality = qualityRows(table, p.width, Math.max(0, Math.floor((p.height - 14) / 2)));
  // Title, tabs, margins, header, the verdict, the legend, the quality, the cost, "Winner", the command and the footer take their lines.
  const { rows, failures } = fitPage(
    table,
    p.width,
    p.height - 1 - (8 + verdictLines.length + legend.length + traffic.length + quality.length + cost.length + cmdLines),
  );
  return (
    <Box flexDirection="column">
      <PageTabs names={pageNames(p)} page={page} width={p.width} />
      <Box marginTop={1} flexDirection="column">
        {table ? (
          <FittedTable
            columns={resultColumns(p.width, p.priced)}
            rows={table.rows}
            // The rows fitPage kept, plus the "more" line when it cut some.
            room={rows.length + (rows.length < table.rows.length ? 1 : 0)}
            rowKey={(r, i) => `${r.result.variantId}:${i}`}
            rowTone={(r) => (r.result.status === 'pruned' || r.result.status === 'skipped' ? 'muted' : undefined)}
            moreText="more rows in the report"
          />
        ) : p.validation.length ? (
          <Box flexDirection="column">
            <Table columns={validationColumns} rows={p.validation} rowKey={(r) => r.scenario} maxWidth={p.width} />
            {p.validationRegression ? <Text color={theme.warn}>REGRESSION: {p.validationRegression}</Text> : null}
            {p.noRegressWhy ? <Text wrap="wrap">{p.noRegressWhy}</Text> : null}
          </Box>
        ) : (
          <Muted>
            {p.validationOff
              ? 'No validation table: validation was off for this run (--validation none, or Validation: none on the Model screen).'
              : 'No validation table (the run stopped before validating).'}
          </Muted>
        )}
        {legend.map((l, i) => (
          <Muted key={`d${i}`}>{l}</Muted>
        ))}
        {traffic.map((l, i) => (
          <Text key={`t${i}`} wrap="truncate">
            {l}
          </Text>
        ))}
        {quality.map((l, i) => (
          <Text key={`q${i}`} wrap="truncate" {...(l.warn ? { color: theme.warn } : {})}>
            {l.text}
          </Text>
        ))}
        {verdictLines.map((l, i) => (
          <Muted key={`v${i}`}>{l}</Muted>
        ))}
        {failures.map((l, i) => (
          <Text key={`f${i}`} color={theme.warn}>
            {l}
          </Text>
        ))}
        {cost.map((l, i) => (
          <Muted key={`c${i}`}>{l}</Muted>
        ))}
      </Box>
      <WinnerLines p={p} cmd={cmd} />
    </Box>
  );
}
