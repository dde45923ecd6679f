// Step 5: per-stage tables (variant, tok/s, gain vs the carried winner, TTFT, TPOT, start-up,
// $/Mtok when priced, status with the failure reason), the winner's command, and the
// validation table (baseline vs winner on the scenario set). One page per stage.
import React from 'react';
import { Box, Text } from 'ink';
import { Footer } from '../components/Footer.js';
import { Muted, Title } from '../components/Title.js';
import { Table, type Column } from '../components/Table.js';
import { fmtCommand, fmtDollars, fmtDuration, fmtMs, fmtPct, fmtTokS, wrapLines } from '../ui/format.js';
import { useKeymap } from '../ui/hooks/useKeymap.js';
import type { ResultRow, StageTable, ValidationRowView } from '../ui/state/results.js';
import type { VariantResult } from '../core/events.js';
import { useTheme } from '../ui/theme.js';

export interface ResultsScreenProps {
  tables: StageTable[];
  labels: Record<string, string>;
  validation: ValidationRowView[];
  winner?: VariantResult;
  winnerLabel?: string;
  objectiveLabel: string;
  priced: boolean;
  simulated: boolean;
  page: number;
  onPage: (dir: 1 | -1, pages: number) => void;
  onNext: () => void;
  onQuit: () => void;
  isActive?: boolean;
  width: number;
  height: number;
}

function statusText(r: VariantResult): string {
  if (r.status === 'ok') return 'ok';
  return r.failure ? `${r.failure.kind}: ${r.failure.reason}` : r.status;
}

export function resultColumns(width: number, priced: boolean): Column<ResultRow>[] {
  const labelW = Math.max(16, Math.min(34, width - 56));
  const cols: Column<ResultRow>[] = [
    { key: 'variant', header: 'variant', width: labelW, render: (r) => (r.isWinner ? '* ' : '  ') + r.label, tone: (r) => (r.isWinner ? 'good' : undefined) },
    { key: 'toks', header: 'tok/s', width: 9, align: 'right', render: (r) => fmtTokS(r.result.metrics?.total_token_throughput) },
    { key: 'gain', header: 'gain', width: 7, align: 'right', render: (r) => (r.isCarried ? 'carried' : r.isReference ? 'ref' : fmtPct(r.gainPct, true)), tone: (r) => (r.gainPct === null || r.isCarried || r.isReference ? undefined : r.gainPct > 0 ? 'good' : 'bad') },
    { key: 'ttft', header: 'TTFT', width: 8, align: 'right', render: (r) => fmtMs(r.result.metrics?.mean_ttft_ms) },
    { key: 'tpot', header: 'TPOT', width: 8, align: 'right', render: (r) => fmtMs(r.result.metrics?.mean_tpot_ms) },
  ];
  const used = () => cols.reduce((w, c) => w + c.width + 1, 0);
  if (priced) cols.push({ key: 'cost', header: '$/Mtok', width: 7, align: 'right', render: (r) => fmtDollars(r.dollarsPerMtok) });
  if (width - used() - 8 >= 16) cols.push({ key: 'startup', header: 'start', width: 7, align: 'right', render: (r) => fmtDuration(r.result.startupS) });
  cols.push({
    key: 'status',
    header: 'status',
    width: Math.max(8, width - used() - 1),
    render: (r) => statusText(r.result),
    tone: (r) => (r.result.status === 'ok' ? undefined : r.result.status === 'failed' ? 'bad' : 'muted'),
  });
  return cols;
}

const validationColumns: Column<ValidationRowView>[] = [
  { key: 'scenario', header: 'scenario', width: 18, render: (r) => r.scenario },
  { key: 'base', header: 'baseline tok/s', width: 14, align: 'right', render: (r) => fmtTokS(r.baseline?.totalTokPerS) },
  { key: 'opt', header: 'winner tok/s', width: 13, align: 'right', render: (r) => fmtTokS(r.optimized?.totalTokPerS) },
  { key: 'gain', header: 'gain', width: 8, align: 'right', render: (r) => fmtPct(r.gainPct, true), tone: (r) => (r.gainPct === null ? undefined : r.gainPct >= 0 ? 'good' : 'bad') },
  { key: 'tpotb', header: 'TPOT before', width: 11, align: 'right', render: (r) => fmtMs(r.baseline?.meanTpotMs) },
  { key: 'tpota', header: 'after', width: 8, align: 'right', render: (r) => fmtMs(r.optimized?.meanTpotMs) },
];

export function ResultsScreen(p: ResultsScreenProps): React.JSX.Element {
  const theme = useTheme();
  const pages = p.tables.length + 1;
  const page = Math.min(p.page, pages - 1);
  useKeymap(
    'results',
    {
      'page-prev': () => p.onPage(-1, pages),
      'page-next': () => p.onPage(1, pages),
      next: p.onNext,
      quit: p.onQuit,
      interrupt: p.onQuit,
    },
    { isActive: p.isActive },
  );
  const table = p.tables[page];
  const tabs = [...p.tables.map((t) => t.stage), 'validation'];
  const tabsWidth = tabs.reduce((w, t) => w + t.length + 3, 0);
  const name = (id: string) => p.labels[id] ?? id;
  const cmd = p.winner ? fmtCommand(p.winner.engineArgv ?? p.winner.argv, p.winner.env) : '';
  // Everything but the table's rows takes 16 lines; the live region must stay below the terminal height.
  const maxRows = Math.max(3, p.height - 16);
  const failures = table ? table.rows.filter((r) => r.result.status === 'failed' && r.result.failure?.hint) : [];
  return (
    <Box flexDirection="column">
      <Title step={5} name="Results" note={`${p.objectiveLabel}${p.simulated ? ' · simulated' : ''}`} />
      {tabsWidth <= p.width ? (
        <Text wrap="truncate">
          {tabs.map((t, i) => (
            <Text key={t} color={i === page ? theme.accent : theme.muted} bold={i === page} dimColor={i !== page && theme.dimMuted}>
              {i === page ? `[${t}]` : ` ${t} `}{' '}
            </Text>
          ))}
        </Text>
      ) : (
        <Text wrap="truncate">
          <Text color={theme.accent} bold>{`‹ [${tabs[page]}] ›`}</Text>
          <Muted>{`  ${page + 1}/${tabs.length}${page + 1 < tabs.length ? `  next: ${tabs[page + 1]}` : ''}`}</Muted>
        </Text>
      )}
      <Box marginTop={1} flexDirection="column">
        {table ? (
          <>
            <Table columns={resultColumns(p.width, p.priced)} rows={table.rows.slice(0, maxRows)} rowKey={(r, i) => `${r.result.variantId}:${i}`} rowTone={(r) => (r.result.status === 'pruned' || r.result.status === 'skipped' ? 'muted' : undefined)} />
            {table.rows.length > maxRows ? <Muted>… {table.rows.length - maxRows} more (see the report)</Muted> : null}
            <Muted wrap="truncate">
              {!table.winnerId
                ? 'no winner in this stage'
                : table.winnerId === table.carriedId
                  ? `${name(table.winnerId)} (carried in) stays: no candidate beat it by more than the margin`
                  : `winner ${name(table.winnerId)}${table.gainPct !== null ? ` (${fmtPct(table.gainPct, true)} vs ${table.carriedId ? name(table.carriedId) : 'the first variant'})` : ''}`}
            </Muted>
            {failures.slice(0, 2).map((r) => (
              <Text key={r.result.variantId} color={theme.warn} wrap="truncate">
                {r.label}: {r.result.failure!.hint}
              </Text>
            ))}
          </>
        ) : p.validation.length ? (
          <Table columns={validationColumns} rows={p.validation} rowKey={(r) => r.scenario} maxWidth={p.width} />
        ) : (
          <Muted>No validation table (the run stopped before validating).</Muted>
        )}
      </Box>
      <Box marginTop={1} flexDirection="column">
        <Text bold>Winner{p.winnerLabel ? `: ${p.winnerLabel}` : ''}</Text>
        {cmd ? (
          wrapLines(`$ ${cmd}`, p.width, 3).map((l, i) => (
            <Text key={i} color={theme.info}>
              {l}
            </Text>
          ))
        ) : (
          <Muted>no variant succeeded</Muted>
        )}
      </Box>
      <Box marginTop={1}>
        <Footer scope="results" />
      </Box>
    </Box>
  );
}
