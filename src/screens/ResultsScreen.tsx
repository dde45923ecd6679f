// Step 5: per-stage tables (variant, tok/s, gain vs the stage's reference, TTFT, TPOT, start-up,
// $/Mtok when priced, status with the failure reason), the winner's command, and the
// validation table (baseline vs winner on the scenario set). One page per stage.
import React from 'react';
import { Box, Text } from 'ink';
import { Footer } from '../tui/components/Footer.js';
import { Muted, Title } from '../tui/components/Title.js';
import { Table, type Column } from '../tui/components/Table.js';
import { Command } from '../tui/components/Command.js';
import { commandLines, fmtCommand, fmtDollars, fmtDuration, fmtMs, fmtPct, fmtTokS, wrapLines } from '../tui/format.js';
import { useKeymap } from '../tui/hooks/useKeymap.js';
import type { ResultRow, StageTable, ValidationRowView } from '../tui/state/results.js';
import type { VariantResult } from '../core/events.js';
import { useTheme } from '../tui/theme.js';

export interface ResultsScreenProps {
  tables: StageTable[];
  labels: Record<string, string>;
  validation: ValidationRowView[];
  winner?: VariantResult;
  winnerLabel?: string;
  /** Label of the variant the validation table measures the winner against. */
  validationBaseline?: string;
  /** The validation compared the winner with itself (the usual baseline did not run). */
  validationBaselineIsWinner?: boolean;
  objectiveLabel: string;
  priced: boolean;
  simulated: boolean;
  /** The user aborted the run (so a missing winner is not a failure). */
  aborted?: boolean;
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

const STATUS_MIN = 11;

/** Columns right of the label and left of the status: all of them fit in 80 columns. */
function numberColumns(priced: boolean): Column<ResultRow>[] {
  return [
    { key: 'toks', header: 'tok/s', width: 7, align: 'right', render: (r) => fmtTokS(r.result.metrics?.total_token_throughput) },
    { key: 'gain', header: 'gain', width: 7, align: 'right', render: (r) => (r.isCarried ? 'carried' : r.isReference ? 'ref' : fmtPct(r.gainPct, true)), tone: (r) => (r.gainPct === null || r.isCarried || r.isReference ? undefined : r.gainPct > 0 ? 'good' : 'bad') },
    { key: 'ttft', header: 'TTFT', width: 7, align: 'right', render: (r) => fmtMs(r.result.metrics?.mean_ttft_ms) },
    { key: 'tpot', header: 'TPOT', width: 7, align: 'right', render: (r) => fmtMs(r.result.metrics?.mean_tpot_ms) },
    { key: 'startup', header: 'startup', width: 7, align: 'right', render: (r) => fmtDuration(r.result.startupS) },
    ...(priced ? [{ key: 'cost', header: '$/Mtok', width: 7, align: 'right' as const, render: (r: ResultRow) => fmtDollars(r.dollarsPerMtok) }] : []),
  ];
}

/** The stage table's columns for a terminal `width` wide; the status takes what is left. */
export function resultColumns(width: number, priced: boolean): Column<ResultRow>[] {
  const nums = numberColumns(priced);
  const numsW = nums.reduce((w, c) => w + c.width + 1, 0);
  // The status keeps room for a failure's kind ("unsupported"); the reasons are spelt out below.
  const labelW = Math.max(16, Math.min(34, width - numsW - 2 - STATUS_MIN));
  const statusW = Math.max(6, width - 1 - labelW - 1 - numsW);
  return [
    { key: 'variant', header: 'variant', width: labelW, render: (r) => (r.isWinner ? '* ' : '  ') + r.label, tone: (r) => (r.isWinner ? 'good' : undefined) },
    ...nums,
    {
      key: 'status',
      header: 'status',
      width: statusW,
      render: (r) => (statusW < 24 && r.result.failure ? r.result.failure.kind : statusText(r.result)),
      tone: (r) => (r.result.status === 'ok' ? undefined : r.result.status === 'failed' ? 'bad' : 'muted'),
    },
  ];
}

/** The before/after table in the studies' order: baseline, then the winner, then the gain. */
const validationColumns: Column<ValidationRowView>[] = [
  { key: 'scenario', header: 'scenario', width: 18, render: (r) => r.scenario },
  { key: 'base', header: 'base tok/s', width: 10, align: 'right', render: (r) => fmtTokS(r.baseline?.totalTokPerS) },
  { key: 'tpotb', header: 'base TPOT', width: 10, align: 'right', render: (r) => fmtMs(r.baseline?.meanTpotMs) },
  { key: 'opt', header: 'winner tok/s', width: 13, align: 'right', render: (r) => fmtTokS(r.optimized?.totalTokPerS) },
  { key: 'tpota', header: 'winner TPOT', width: 12, align: 'right', render: (r) => fmtMs(r.optimized?.meanTpotMs) },
  { key: 'gain', header: 'gain', width: 8, align: 'right', render: (r) => fmtPct(r.gainPct, true), tone: (r) => (r.gainPct === null ? undefined : r.gainPct >= 0 ? 'good' : 'bad') },
];

/** Why each row that did not run to the end did not: the whole reason and the hint, wrapped. */
function reasonLines(rows: readonly ResultRow[], width: number): string[][] {
  return rows
    .filter((r) => r.result.status !== 'ok' && r.result.failure)
    .map((r) => wrapLines(`${r.label.trim()}: ${statusText(r.result)}${r.result.failure!.hint ? `; ${r.result.failure!.hint}` : ''}`, width, 3));
}

/** As many whole reasons as fit in `max` lines, then a pointer to the report for the rest. */
function fitReasons(reasons: readonly string[][], max: number): string[] {
  const out: string[] = [];
  for (const [i, r] of reasons.entries()) {
    const last = i === reasons.length - 1;
    if (out.length + r.length + (last ? 0 : 1) > max) {
      out.push(`… ${reasons.length - i} more reason${reasons.length - i > 1 ? 's' : ''} in the report`);
      break;
    }
    out.push(...r);
  }
  return out;
}

/** The line under a stage table: who won, by how much against what, or that the carried one stayed. */
function stageVerdict(t: StageTable, name: (id: string) => string): string {
  if (!t.winnerId) return 'no winner in this stage';
  if (t.winnerId === t.carriedId) return `${name(t.winnerId)} (carried in) stays: no candidate beat it by more than the margin`;
  // The gain is the core's, against the reference it names: the baseline in the first stage.
  const against = !t.referenceId ? null : t.referenceId === t.carriedId ? `${name(t.referenceId)} (carried in)` : t.referenceId === t.baselineId ? `the baseline ${name(t.referenceId)}` : name(t.referenceId);
  const gain = t.gainPct !== null && against && t.referenceId !== t.winnerId ? ` (${fmtPct(t.gainPct, true)} vs ${against})` : '';
  return `winner ${name(t.winnerId)}${gain}`;
}

/** The line under the validation table: what was compared with what. */
function validationVerdict(p: Pick<ResultsScreenProps, 'validationBaseline' | 'validationBaselineIsWinner' | 'winnerLabel'>): string {
  if (!p.validationBaseline || !p.winnerLabel) return '';
  if (p.validationBaselineIsWinner) return `the baseline is the winner itself (${p.winnerLabel}): no other first-stage variant ran, so there is nothing to compare`;
  return `baseline ${p.validationBaseline} vs winner ${p.winnerLabel}`;
}

/**
 * The rows and failure reasons that fit in `room` lines. The live region stays below the terminal
 * height: title, tabs, margins, header, the verdict, "Winner", the command and the footer take
 * their lines; the rows come next, then the reasons.
 */
function fitPage(table: StageTable | undefined, width: number, room: number): { rows: ResultRow[]; failures: string[] } {
  const avail = Math.max(3, room);
  const reasons = table ? reasonLines(table.rows, width) : [];
  const all = table?.rows ?? [];
  // Keep two lines for reasons when there are any, and one for "… more" when rows are left out.
  const rowRoom = Math.max(1, avail - (reasons.length ? Math.min(2, reasons[0]!.length) : 0));
  const rows = all.length > rowRoom ? all.slice(0, rowRoom - 1) : all;
  const rowLines = rows.length + (rows.length < all.length ? 1 : 0);
  return { rows, failures: fitReasons(reasons, avail - rowLines) };
}

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
  const cmdLines = cmd ? commandLines(cmd, p.width).length : 1;
  const verdict = table ? stageVerdict(table, name) : validationVerdict(p);
  const verdictLines = verdict ? wrapLines(verdict, p.width, 2) : [];
  const { rows, failures } = fitPage(table, p.width, p.height - 1 - (8 + verdictLines.length + cmdLines));
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
            <Table columns={resultColumns(p.width, p.priced)} rows={rows} rowKey={(r, i) => `${r.result.variantId}:${i}`} rowTone={(r) => (r.result.status === 'pruned' || r.result.status === 'skipped' ? 'muted' : undefined)} />
            {rows.length < table.rows.length ? <Muted>… {table.rows.length - rows.length} more rows in the report</Muted> : null}
          </>
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
      <Box marginTop={1} flexDirection="column">
        <Text bold wrap="truncate">
          Winner{p.winnerLabel ? `: ${p.winnerLabel}` : ''}
        </Text>
        {cmd ? <Command command={cmd} width={p.width} /> : <Muted>{p.aborted ? 'none: the run was aborted before a stage chose one' : 'no variant succeeded'}</Muted>}
      </Box>
      <Box marginTop={1}>
        <Footer scope="results" />
      </Box>
    </Box>
  );
}
