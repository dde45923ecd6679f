// Step 3: the plan as a checklist. Stages and their candidate variants, pruned ones greyed with
// their reason, estimated time per variant and in total, the greedy-search caveat, the exact
// command of the focused variant, and the dummy-weights choice (--dummy-weights) with each stage's
// weights line from the plan the core made with it.
import React from 'react';
import { Box, Text } from 'ink';
import { Footer } from '../tui/components/Footer.js';
import { Muted, Title } from '../tui/components/Title.js';
import { Command } from '../tui/components/Command.js';
import { commandLines, fmtTokS, truncate, wrapLines } from '../tui/base/format.js';
import { durationText } from '../core/duration-text.js';
import { useKeymap } from '../tui/hooks/useKeymap.js';
import { useTheme } from '../tui/base/theme.js';
import { Checklist } from '../tui/widgets/checklist/Checklist.js';
import { useChecklist } from '../tui/widgets/checklist/use-checklist.js';
import { planRows, selectedVariants, type PlanRow } from '../tui/view.js';
import type { PlanStageView, PlanView } from '../tui/services/types.js';
import type { ScreenProps } from '../tui/screen-props.js';

export interface PlanScreenProps extends ScreenProps {
  plan: PlanView | null;
  error?: string;
  focus: number;
  disabled: readonly string[];
  onMove: (dir: 1 | -1, rows: number) => void;
  onToggle: (ids: string[]) => void;
  /** Dummy weights for the tuning launches, as chosen (the plan shown may still be the one before). */
  dummyWeights?: boolean;
  /** The dummy-weights key: flip the choice (the App plans again with it). */
  onDummyWeights?: () => void;
  onNext: () => void;
  onBack: () => void;
}

/** Lines kept for the focused variant's command: at least 3, more when a command needs them (up to 6). */
const CMD_LINES = 3;
const CMD_LINES_MAX = 6;

function rowIds(row: PlanRow | undefined): string[] {
  if (!row) return [];
  if (row.kind === 'variant') return row.variant.pruned ? [] : [row.variant.id];
  return row.stage.skipped ? [] : row.stage.variants.filter((v) => !v.pruned).map((v) => v.id);
}

/** What a focused stage heading shows where a variant shows its command. */
function stageLines(stage: PlanStageView, width: number, max: number): string[] {
  const pruned = stage.variants.filter((v) => v.pruned).length;
  const count = `${stage.variants.length} candidates${pruned ? ` (${pruned} pruned)` : ''}`;
  const head = `${stage.title ?? stage.name}: ${stage.skipped ? `skipped (${stage.skipped})` : count}`;
  return [head, ...(stage.weights ? [stage.weights] : []), ...(stage.notes ?? [])].flatMap((t) => wrapLines(t, width, max)).slice(0, max);
}

/** Why Enter cannot go on: nothing runs in the first stage, which sets the baseline. */
function firstStageProblem(plan: PlanView | null, off: ReadonlySet<string>): string | undefined {
  const first = plan?.stages[0];
  if (!first || first.skipped || first.variants.some((v) => !v.pruned && !off.has(v.id))) return undefined;
  const allPruned = first.variants.length > 0 && first.variants.every((v) => v.pruned);
  return allPruned
    ? `no ${first.name} candidate can run on this host (see the reasons): esc to go back and pick another model or more GPUs`
    : `check at least one ${first.name} candidate: the first stage sets the baseline`;
}

function PlanRowLine({
  row,
  focused,
  off,
  labelW,
}: {
  row: PlanRow;
  focused: boolean;
  off: ReadonlySet<string>;
  labelW: number;
}): React.JSX.Element {
  const theme = useTheme();
  const mark = focused ? theme.glyph.focus : ' ';
  if (row.kind === 'stage') {
    return (
      <Text wrap="truncate" color={focused ? theme.accent : undefined}>
        {mark} <Text bold>{row.stage.name}</Text>
        {row.stage.skipped ? <Muted> skipped: {row.stage.skipped}</Muted> : row.stage.weights ? <Muted> {row.stage.weights}</Muted> : null}
      </Text>
    );
  }
  const v = row.variant;
  const on = !v.pruned && !off.has(v.id);
  const box = v.pruned ? '[-]' : on ? theme.glyph.on : theme.glyph.off;
  if (v.pruned) {
    return (
      <Text wrap="truncate" color={focused ? theme.accent : undefined}>
        {mark} <Muted>{`  ${box} ${v.label}  ${v.notRun ?? 'pruned'}: ${v.pruned}`}</Muted>
      </Text>
    );
  }
  return (
    <Text wrap="truncate">
      <Text color={focused ? theme.accent : undefined} bold={focused}>
        {mark}
      </Text>{' '}
      <Text
        color={on ? undefined : theme.muted}
        dimColor={!on && theme.dimMuted}
      >{`  ${box} ${truncate(v.label, labelW).padEnd(labelW)}`}</Text>
      <Muted>{` ${durationText(v.estimateS).padStart(EST_W - 2)}`}</Muted>
      {v.predictedTokS ? <Muted>{`  ~${fmtTokS(v.predictedTokS)} tok/s${errorText(v.predictedErrorPct)}`}</Muted> : null}
    </Text>
  );
}

const EST_W = 10;

/** The model's measured error beside its prediction: the median miss of held-out runs at this engine and concurrency. */
const errorText = (pct: number | undefined) => (pct === undefined ? '' : ` +-${Math.round(pct)}%`);

/** The dummy-weights choice in one line; each stage's row says which of its launches use them. */
function WeightsLine({ on, width }: { on: boolean; width: number }): React.JSX.Element {
  const theme = useTheme();
  const text = on
    ? 'dummy weights on (stages say where): validation loads the real weights'
    : 'dummy weights off: every launch loads the real weights';
  return (
    <Text wrap="truncate" color={on ? theme.info : theme.muted}>
      {truncate(text, width)}
    </Text>
  );
}

/** Under the list: the focused variant's exact command, or what a focused stage or pruned row means. */
function FocusDetail({ focused, width, lines }: { focused: PlanRow | undefined; width: number; lines: number }): React.JSX.Element {
  const theme = useTheme();
  const cmd = focused?.kind === 'variant' && !focused.variant.pruned ? focused.variant.command : '';
  const text =
    focused?.kind === 'stage'
      ? stageLines(focused.stage, width, lines)
      : focused?.variant.pruned
        ? wrapLines(`${focused.variant.notRun ?? 'pruned'}: ${focused.variant.pruned}`, width, lines)
        : [];
  return (
    <Box flexDirection="column" height={lines}>
      {cmd ? (
        <Command command={cmd} width={width} />
      ) : (
        text.map((line, i) => (
          <Text key={i} color={theme.info}>
            {line}
          </Text>
        ))
      )}
    </Box>
  );
}

/** One height for every focus, so the checklist does not jump as the focus moves. */
function commandHeight(rows: readonly PlanRow[], width: number): number {
  const lines = rows.map((r) => (r.kind === 'variant' && !r.variant.pruned ? commandLines(r.variant.command, width).length : 0));
  return Math.min(CMD_LINES_MAX, Math.max(CMD_LINES, ...lines));
}

export function PlanScreen(p: PlanScreenProps): React.JSX.Element {
  const theme = useTheme();
  const rows = p.plan ? planRows(p.plan) : [];
  const focus = Math.min(p.focus, Math.max(0, rows.length - 1));
  const focused = rows[focus];
  const selected = p.plan ? selectedVariants(p.plan, p.disabled) : [];
  const off = new Set(p.disabled);
  const problem = firstStageProblem(p.plan, off);
  const isActive = p.isActive ?? true;
  useChecklist(
    'plan',
    {
      onMove: (dir) => p.onMove(dir, rows.length),
      onToggle: () => p.onToggle(focused?.kind === 'variant' ? rowIds(focused) : []),
      onToggleGroup: () => focused && p.onToggle(rowIds({ kind: 'stage', stage: focused.stage })),
    },
    { isActive },
  );
  useKeymap(
    'plan',
    {
      next: () => selected.length > 0 && !problem && p.onNext(),
      back: p.onBack,
      'dummy-weights': () => p.onDummyWeights?.(),
      quit: p.onQuit,
      interrupt: p.onInterrupt ?? p.onQuit,
    },
    { isActive },
  );
  const cmdLines = commandHeight(rows, p.width);
  // Title, caveat (2), weights, command, footer (2) and margins: what the checklist (with its two "more" lines) leaves to the rows.
  const listLines = Math.max(4, p.height - 11 - cmdLines - (p.plan?.budget ? 1 : 0)) + 2;
  const validationS = selected.length ? (p.plan?.validationS ?? 0) : 0;
  const totalS = selected.reduce((s, v) => s + (v.estimateS ?? 0), validationS);
  const labelW = Math.max(16, Math.min(40, p.width - EST_W - 22));
  return (
    <Box flexDirection="column">
      <Title
        step={3}
        name="Plan"
        note={p.plan ? `${selected.length} variants · est. ${durationText(totalS)}${validationS ? ' with validation' : ''}` : undefined}
      />
      {p.error ? <Text color={theme.bad}>{p.error}</Text> : null}
      {p.plan?.budget ? <Muted wrap="truncate">{p.plan.budget}</Muted> : null}
      {!p.plan ? (
        p.error ? null : (
          <Muted>Planning…</Muted>
        )
      ) : (
        <Box flexDirection="column">
          <Checklist
            rows={rows}
            focus={focus}
            height={listLines}
            rowKey={(row) => (row.kind === 'stage' ? `s:${row.stage.name}` : row.variant.id)}
            renderRow={(row, isFocus) => <PlanRowLine row={row} focused={isFocus} off={off} labelW={labelW} />}
          />
          {problem ? <Text color={theme.bad}>{problem}</Text> : null}
          <Box marginTop={1} flexDirection="column">
            {wrapLines(p.plan.caveat, p.width, 2).map((line, i) => (
              <Text key={i} color={theme.warn}>
                {line}
              </Text>
            ))}
          </Box>
          <WeightsLine on={p.dummyWeights ?? false} width={p.width} />
          <FocusDetail focused={focused} width={p.width} lines={cmdLines} />
        </Box>
      )}
      <Box marginTop={1}>
        <Footer scope="plan" />
      </Box>
    </Box>
  );
}
