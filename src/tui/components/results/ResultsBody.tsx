// The Results page under the title: the stage tabs, the page's table cut to the terminal (one
// page per stage, then the validation table), its verdict and failure reasons, and the winner's
// command. Keys and title belong to the screen around it (Results in the workbench, `servelab view`).
import React from 'react';
import { Box, Text } from 'ink';
import { commandLines, wrapLines } from '../../format.js';
import { formatCommand } from '../../../core/shell-quote.js';
import type { ResultsData, StageTable } from '../../state/results.js';

export type { ResultsData };
import { useTheme } from '../../theme.js';
import { FittedTable, PageTabs } from '../../widgets/paged-table/PagedTable.js';
import { Command } from '../Command.js';
import { Table } from '../Table.js';
import { Muted } from '../Title.js';
import { resultColumns, validationColumns } from './columns.js';
import { fitPage, stageVerdict, validationVerdict } from './verdicts.js';

export interface ResultsBodyProps extends ResultsData {
  page: number;
  width: number;
  height: number;
}

/** The pages: one per stage, then the validation table. */
export const resultPages = (tables: readonly StageTable[]) => tables.length + 1;

function WinnerLines({ p, cmd }: { p: ResultsBodyProps; cmd: string }): React.JSX.Element {
  return (
    <Box marginTop={1} flexDirection="column">
      <Text bold wrap="truncate">
        Winner{p.winnerLabel ? `: ${p.winnerLabel}` : ''}
      </Text>
      {cmd ? <Command command={cmd} width={p.width} /> : <Muted>{p.aborted ? 'none: the run was aborted before a stage chose one' : 'no variant succeeded'}</Muted>}
    </Box>
  );
}

export function ResultsBody(p: ResultsBodyProps): React.JSX.Element {
  const theme = useTheme();
  const page = Math.min(p.page, resultPages(p.tables) - 1);
  const table = p.tables[page];
  const name = (id: string) => p.labels[id] ?? id;
  const cmd = p.winner ? formatCommand(p.winner.engineArgv ?? p.winner.argv, p.winner.env) : '';
  const cmdLines = cmd ? commandLines(cmd, p.width).length : 1;
  const verdict = table ? stageVerdict(table, name) : validationVerdict(p);
  const verdictLines = verdict ? wrapLines(verdict, p.width, 2) : [];
  // Title, tabs, margins, header, the verdict, "Winner", the command and the footer take their lines.
  const { rows, failures } = fitPage(table, p.width, p.height - 1 - (8 + verdictLines.length + cmdLines));
  return (
    <Box flexDirection="column">
      <PageTabs names={[...p.tables.map((t) => t.stage), 'validation']} page={page} width={p.width} />
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
          <Table columns={validationColumns} rows={p.validation} rowKey={(r) => r.scenario} maxWidth={p.width} />
        ) : (
          <Muted>No validation table (the run stopped before validating).</Muted>
        )}
        {verdictLines.map((l, i) => (
          <Muted key={`v${i}`}>{l}</Muted>
        ))}
        {failures.map((l, i) => (
          <Text key={`f${i}`} color={theme.warn}>
            {l}
          </Text>
        ))}
      </Box>
      <WinnerLines p={p} cmd={cmd} />
    </Box>
  );
}
