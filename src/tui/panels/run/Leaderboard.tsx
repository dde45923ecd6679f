// Finished variants and stage verdicts, printed once above the live region (Ink <Static>), so
// a long run never redraws them and the scrollback keeps the whole stage history.
import React from 'react';
import { Static, Text } from 'ink';
import type { VariantResult } from '../../../core/events.js';
import { formatGpuHours } from '../../../core/view-cost.js';
import type { StaticItem } from '../../state/run.js';
import { fmtMs, fmtPct, fmtTokS, relativeLabel, truncate, wrapLines } from '../../base/format.js';
import { durationText } from '../../../core/duration-text.js';
import { useTheme, type Theme } from '../../base/theme.js';
import { pad } from '../../components/Table.js';
import { statusText } from '../../../core/result-status.js';

export function variantLine(r: VariantResult, label: string, width: number): string {
  const m = r.status === 'ok' ? r.metrics : undefined;
  const cells = m
    ? [
        `${fmtTokS(m.total_token_throughput)} tok/s`.padStart(12),
        `TTFT ${fmtMs(m.mean_ttft_ms)}`.padEnd(12),
        `TPOT ${fmtMs(m.mean_tpot_ms)}`.padEnd(11),
        // With host calibration: the plan's prior and the host-calibrated prediction with its band, beside the measurement.
        ...(width >= 110 && r.predicted && r.calibrated?.observations
          ? [`pred ${fmtTokS(r.predicted.totalTokPerS)}, cal ${fmtTokS(r.calibrated.totalTokPerS)} +-${Math.round(r.calibrated.bandPct)}%`]
          : []),
        ...(width >= 100 && r.startupS !== undefined ? [`up ${durationText(r.startupS)}`] : []),
        ...(width >= 120 && r.gpuTime ? [`${formatGpuHours(r.gpuTime.gpuS / 3600)} GPU-h`] : []),
        // Which measurements used dummy weights is said wherever they are shown.
        ...(r.weights?.kind === 'dummy' ? [width >= 100 ? 'dummy weights' : 'dummy'] : []),
      ]
    : [];
  const fixed = 2 + 13 + cells.reduce((w, c) => w + c.length + 1, 0);
  if (!m) {
    // A failure's reason matters more than lining up with the numbers: the label takes only its
    // length, and the reason wraps onto indented lines (printed once, so the lines cost nothing later).
    const why = statusText(r);
    const [first, ...rest] = wrapLines(`${pad(r.stage, 12)} ${truncate(label, 30)}  ${why}`, width - 2, 3);
    const indent = ' '.repeat(15);
    return [first ?? '', ...wrapLines(rest.join(' '), width - 2 - indent.length, 2).map((l) => indent + l)]
      .filter((l, i) => i === 0 || l.trim())
      .join('\n');
  }
  const head = `${pad(r.stage, 12)} ${pad(label, Math.max(12, Math.min(40, width - fixed - 1)))}`;
  return truncate(`${head} ${cells.join(' ')}`.trimEnd(), width - 2);
}

function tone(r: VariantResult, theme: Theme): string | undefined {
  if (r.status === 'ok') return undefined;
  return r.status === 'failed' ? theme.bad : theme.muted;
}

export function stageLine(item: Extract<StaticItem, { kind: 'stage' }>, labels: Record<string, string>, skipped?: string): string {
  const name = (id: string) => labels[id] ?? id;
  if (skipped) return `── stage ${item.stage}: skipped (${skipped}) ──`;
  if (!item.winnerId) return `── stage ${item.stage}: no winner ──`;
  // A kept winner stays by the greedy rule, whoever tied among the challengers (Results tells the tie).
  // A tied set names its members and the property that chose: "tied with s16, s32: s8 holds the fewest slots".
  const others = (item.tiedIds ?? []).filter((id) => id !== item.winnerId).map(name);
  const set = others.length && item.tieBreak ? ` · tied with ${others.join(', ')}: ${name(item.winnerId)} ${item.tieBreak}` : '';
  if (item.kept) return `── stage ${item.stage}: ${name(item.winnerId)} stays${set} ──`;
  const tie = set || (item.tied ? ' · tied within noise' : '');
  return `── stage ${item.stage}: winner ${name(item.winnerId)}${item.gainPct ? ` (${fmtPct(item.gainPct, true)})` : ''}${tie} ──`;
}

export interface LeaderboardProps {
  items: readonly StaticItem[];
  labels: Record<string, string>;
  /** Stages the plan skipped, with the reason. */
  skipped?: Record<string, string>;
  width: number;
}

export function Leaderboard({ items, labels, skipped, width }: LeaderboardProps): React.JSX.Element {
  const theme = useTheme();
  return (
    <Static items={[...items]}>
      {(item) => {
        const why = item.kind === 'stage' ? (item.skipped ?? skipped?.[item.stage]) : undefined;
        return item.kind === 'variant' ? (
          <Text
            key={item.key}
            color={tone(item.result, theme)}
            dimColor={item.result.status !== 'ok' && item.result.status !== 'failed' && theme.dimMuted}
          >
            <Text color={item.result.status === 'ok' ? theme.good : theme.bad}>
              {item.result.status === 'ok' ? theme.glyph.ok : theme.glyph.fail}{' '}
            </Text>
            {variantLine(
              item.result,
              relativeLabel(
                labels[item.result.variantId] ?? item.result.variant.label ?? item.result.variantId,
                item.carriedId ? labels[item.carriedId] : undefined,
              ),
              width,
            )}
          </Text>
        ) : (
          <Text key={item.key} bold={!why} color={why ? theme.muted : theme.accent} dimColor={Boolean(why) && theme.dimMuted}>
            {truncate(stageLine(item, labels, why), width)}
          </Text>
        );
      }}
    </Static>
  );
}
