// Step 3: the plan as a checklist. Stages and their candidate variants, pruned ones greyed with
// their reason, estimated time per variant and in total, the greedy-search caveat, and the exact
// command of the focused variant.
import React from 'react';
import { Box, Text } from 'ink';
import { Footer } from '../tui/components/Footer.js';
import { Muted, Title } from '../tui/components/Title.js';
import { Command } from '../tui/components/Command.js';
import { commandLines, fmtDuration, fmtTokS, truncate, wrapLines } from '../tui/format.js';
import { useKeymap } from '../tui/hooks/useKeymap.js';
import { useTheme } from '../tui/theme.js';
import { planRows, selectedVariants, type PlanRow } from '../tui/view.js';
import type { PlanStageView, PlanView } from '../tune/workbench-types.js';

export interface PlanScreenProps {
  plan: PlanView | null;
  error?: string;
  focus: number;
  disabled: readonly string[];
  onMove: (dir: 1 | -1, rows: number) => void;
  onToggle: (ids: string[]) => void;
  onNext: () => void;
  onBack: () => void;
  onQuit: () => void;
  /** Ctrl+C: quit with the interrupt exit code (defaults to onQuit). */
  onInterrupt?: () => void;
  isActive?: boolean;
  width: number;
  height: number;
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
  return [head, ...(stage.notes ?? [])].flatMap((t) => wrapLines(t, width, max)).slice(0, max);
}

/** The slice of rows to draw so the focused one is always visible. */
function windowOf(total: number, focus: number, size: number): [number, number] {
  if (total <= size) return [0, total];
  const start = Math.min(Math.max(0, focus - Math.floor(size / 2)), total - size);
  return [start, start + size];
}

export function PlanScreen(p: PlanScreenProps): React.JSX.Element {
  const theme = useTheme();
  const rows = p.plan ? planRows(p.plan) : [];
  const focus = Math.min(p.focus, Math.max(0, rows.length - 1));
  const focused = rows[focus];
  const selected = p.plan ? selectedVariants(p.plan, p.disabled) : [];
  const off = new Set(p.disabled);
  // The first stage's winner is the baseline every later stage is measured against.
  const first = p.plan?.stages[0];
  const allPruned = !!first && first.variants.length > 0 && first.variants.every((v) => v.pruned);
  const problem = !first || first.skipped || first.variants.some((v) => !v.pruned && !off.has(v.id))
    ? undefined
    : allPruned
      ? `no ${first.name} candidate can run on this host (see the reasons): esc to go back and pick another model or more GPUs`
      : `check at least one ${first.name} candidate: the first stage sets the baseline`;
  useKeymap(
    'plan',
    {
      up: () => p.onMove(-1, rows.length),
      down: () => p.onMove(1, rows.length),
      toggle: () => p.onToggle(focused?.kind === 'variant' ? rowIds(focused) : []),
      'toggle-stage': () => focused && p.onToggle(rowIds({ kind: 'stage', stage: focused.stage })),
      next: () => selected.length > 0 && !problem && p.onNext(),
      back: p.onBack,
      quit: p.onQuit,
      interrupt: p.onInterrupt ?? p.onQuit,
    },
    { isActive: p.isActive },
  );
  // One height for every focus, so the checklist does not jump as the focus moves.
  const cmdLines = Math.min(CMD_LINES_MAX, Math.max(CMD_LINES, ...rows.map((r) => (r.kind === 'variant' && !r.variant.pruned ? commandLines(r.variant.command, p.width).length : 0))));
  // Title, caveat (2), command, footer (2) and margins: what the checklist leaves to the rows.
  const listRows = Math.max(4, p.height - 10 - cmdLines);
  const [from, to] = windowOf(rows.length, focus, listRows);
  const validationS = selected.length ? (p.plan?.validationS ?? 0) : 0;
  const totalS = selected.reduce((s, v) => s + (v.estimateS ?? 0), validationS);
  const estW = 10;
  const labelW = Math.max(16, Math.min(40, p.width - estW - 22));
  const cmd = focused?.kind === 'variant' && !focused.variant.pruned ? focused.variant.command : '';
  return (
    <Box flexDirection="column">
      <Title step={3} name="Plan" note={p.plan ? `${selected.length} variants · est. ${fmtDuration(totalS)}${validationS ? ' with validation' : ''}` : undefined} />
      {p.error ? <Text color={theme.bad}>{p.error}</Text> : null}
      {!p.plan ? (
        p.error ? null : <Muted>Planning…</Muted>
      ) : (
        <Box flexDirection="column">
          {from > 0 ? <Muted>  ↑ {from} more</Muted> : null}
          {rows.slice(from, to).map((row, i) => {
            const isFocus = from + i === focus;
            const mark = isFocus ? theme.glyph.focus : ' ';
            if (row.kind === 'stage') {
              return (
                <Text key={`s:${row.stage.name}`} wrap="truncate" color={isFocus ? theme.accent : undefined}>
                  {mark} <Text bold>{row.stage.name}</Text>
                  {row.stage.skipped ? <Muted> skipped: {row.stage.skipped}</Muted> : null}
                </Text>
              );
            }
            const v = row.variant;
            const on = !v.pruned && !off.has(v.id);
            const box = v.pruned ? '[-]' : on ? theme.glyph.on : theme.glyph.off;
            const text = `${box} ${truncate(v.label, labelW).padEnd(labelW)}`;
            if (v.pruned) {
              return (
                <Text key={v.id} wrap="truncate" color={isFocus ? theme.accent : undefined}>
                  {mark} <Muted>{`  ${box} ${v.label}  pruned: ${v.pruned}`}</Muted>
                </Text>
              );
            }
            return (
              <Text key={v.id} wrap="truncate">
                <Text color={isFocus ? theme.accent : undefined} bold={isFocus}>
                  {mark}
                </Text>{' '}
                <Text color={on ? undefined : theme.muted} dimColor={!on && theme.dimMuted}>{`  ${text}`}</Text>
                <Muted>{` ${fmtDuration(v.estimateS).padStart(estW - 2)}`}</Muted>
                {v.predictedTokS ? <Muted>{`  ~${fmtTokS(v.predictedTokS)} tok/s`}</Muted> : null}
              </Text>
            );
          })}
          {to < rows.length ? <Muted>  ↓ {rows.length - to} more</Muted> : null}
          {problem ? <Text color={theme.bad}>{problem}</Text> : null}
          <Box marginTop={1} flexDirection="column">
            {wrapLines(p.plan.caveat, p.width, 2).map((line, i) => (
              <Text key={i} color={theme.warn}>
                {line}
              </Text>
            ))}
          </Box>
          <Box flexDirection="column" height={cmdLines}>
            {cmd ? (
              <Command command={cmd} width={p.width} />
            ) : (focused?.kind === 'stage'
                ? stageLines(focused.stage, p.width, cmdLines)
                : focused?.variant.pruned
                  ? wrapLines(`pruned: ${focused.variant.pruned}`, p.width, cmdLines)
                  : []
              ).map((line, i) => (
                <Text key={i} color={theme.info}>
                  {line}
                </Text>
              ))
            }
          </Box>
        </Box>
      )}
      <Box marginTop={1}>
        <Footer scope="plan" />
      </Box>
    </Box>
  );
}
