// Step 4: the session as it runs. Finished variants above (static), then the session's GPU-hours,
// the running variant's lifecycle (launching with its log tail and elapsed time, ready, warming
// up, benchmarking with live panels) or, when variants share the host, every running variant as
// compact rows or full panels; GPU and server state, and the keys to steer: skip, stop after
// stage, abort, log.
import React, { useState } from 'react';
import { Box, Text } from 'ink';
import { runText } from '../core/run-of-runs.js';
import { liveCost } from '../core/view-cost.js';
import { budgetLeftText } from '../core/view-budget.js';
import { noiseLines } from '../tui/panels/run/noise-lines.js';
import type { SweepView } from '../core/view-sweep.js';
import type { CapacityView } from '../core/view-capacity.js';
import { CapacityPanel } from '../tui/panels/capacity/CapacityPanel.js';
import { liveCostText } from '../tui/components/cost-text.js';
import { Footer } from '../tui/components/Footer.js';
import { Muted, Title } from '../tui/components/Title.js';
import { GpuPanel } from '../tui/panels/run/GpuPanel.js';
import { Leaderboard } from '../tui/panels/run/Leaderboard.js';
import { LivePanel } from '../tui/panels/run/LivePanel.js';
import { LogTail } from '../tui/panels/run/LogTail.js';
import { messageLines, RunFinished, RunMessages } from '../tui/panels/run/RunMessages.js';
import { RunningVariants } from '../tui/panels/run/RunningVariants.js';
import { footerLines, gpuPanelLines, runningLayout } from '../tui/panels/run/run-layout.js';
import { relativeLabel, wrapLines } from '../tui/base/format.js';
import { useKeymap } from '../tui/hooks/useKeymap.js';
import { useNow } from '../tui/hooks/useNow.js';
import type { RunState } from '../tui/state/run.js';
import type { CurrentVariant } from '../tui/state/live.js';
import { pickable, skipTarget } from '../tui/state/pick.js';
import { StatusLine } from '../tui/panels/run/StatusLine.js';
import { liveChartRows, SweepPanel } from '../tui/panels/sweep/SweepPanel.js';
import type { ScreenProps } from '../tui/screen-props.js';
import { useTheme } from '../tui/base/theme.js';

export interface RunScreenProps extends ScreenProps {
  run: RunState;
  labels: Record<string, string>;
  /** Stages the plan skipped, with the reason (for the leaderboard). */
  skippedStages?: Record<string, string>;
  note?: string;
  /** The skip key: stop the picked running variant (the run state resolves which). */
  onSkip: () => void;
  /** Pick the running row above (-1) or below (+1) for the skip key. */
  onPick?: (dir: 1 | -1) => void;
  onStopAfterStage: () => void;
  onAbort: () => void;
  onNext: () => void;
  /** Changes after a resize: the leaderboard prints again (see useRedrawOnResize). */
  redrawKey?: number;
}

/**
 * "stage 2 batching · variant 2/5", or with variants side by side "· 4 running, 1/5 done",
 * shortened to the `room` the title leaves (the title never wraps).
 */
function stageNote(run: RunState, room: number): string {
  const c = run.current;
  if (!c) return '';
  const stage = run.stages.find((s) => s.name === c.stage);
  if (!stage) return c.stage;
  const head = `stage ${stage.index + 1} ${stage.name}`;
  if (run.live.length <= 1) return `${head} · variant ${stage.variants.indexOf(c.variantId) + 1}/${stage.variants.length}`;
  const measured = new Set(run.results.filter((r) => r.stage === stage.name).map((r) => r.variantId));
  // A variant measured already in this stage, or the winner carried in, runs again for adaptive repeats.
  const carried = run.view.stages.find((s) => s.name === stage.name)?.carriedId;
  const again = run.live.filter((v) => measured.has(v.variantId) || v.variantId === carried).length;
  const repeats = again === 0 ? '' : again === run.live.length ? ' (repeats)' : ` (${again} repeats)`;
  const running = `${head} · ${run.live.length} running`;
  const choices = [`${running}${repeats}, ${measured.size}/${stage.variants.length} done`, `${running}${repeats}`, running, head];
  return choices.find((t) => t.length <= room) ?? head;
}

interface OneVariantProps {
  c: CurrentVariant;
  label: string;
  showLog: boolean;
  sweep: SweepView | undefined;
  /** The capacity search on the winner's server, while it runs. */
  capacity: CapacityView | undefined;
  chartRows: number;
  logRows: number;
  width: number;
  now: number;
  simulated: boolean;
}

/** The running variant alone (or the one whose log is shown): its status line, then its log, live panel or the sweep chart. */
function OneVariant({ c, label, showLog, sweep, capacity, chartRows, logRows, width, now, simulated }: OneVariantProps): React.JSX.Element {
  return (
    <>
      <StatusLine c={c} label={label} now={now} width={width} />
      {capacity && !showLog && c.phase !== 'launching' ? (
        <CapacityPanel capacity={capacity} width={width} height={chartRows} />
      ) : sweep && !showLog ? (
        <SweepPanel sweep={sweep} width={width} height={chartRows} />
      ) : showLog || c.phase === 'launching' ? (
        <LogTail lines={c.logTail} count={c.phase === 'launching' && !showLog ? Math.min(6, logRows) : logRows} width={width} />
      ) : c.phase === 'bench' ? (
        <LivePanel current={c} width={width} now={now} simulated={simulated} />
      ) : null}
    </>
  );
}

/** The run's keys: steering while it runs, next once it is finished. */
function useRunKeys(p: RunScreenProps, finished: boolean, toggleLog: () => void): void {
  useKeymap(
    'run',
    {
      skip: () => !finished && p.onSkip(),
      'pick-prev': () => !finished && p.onPick?.(-1),
      'pick-next': () => !finished && p.onPick?.(1),
      'stop-after-stage': () => !finished && p.onStopAfterStage(),
      abort: () => !finished && p.onAbort(),
      'toggle-log': toggleLog,
      next: () => finished && p.onNext(),
      quit: p.onQuit,
      interrupt: p.onInterrupt ?? p.onQuit,
    },
    { isActive: p.isActive },
  );
}

/** The note shown while validation runs, wrapped to two lines at most. */
function validatingLines(run: RunState, width: number): string[] {
  if (!run.validation || run.validation.done) return [];
  const s = run.validation.scenarios;
  return wrapLines(`validating the winner against the baseline on ${s.length} scenarios: ${s.join(', ')}`, width, 2);
}

interface RunningPartProps {
  c: CurrentVariant;
  run: RunState;
  validating: string[];
  layout: ReturnType<typeof runningLayout>;
  showLog: boolean;
  sweep: SweepView | undefined;
  capacity: CapacityView | undefined;
  chartRows: number;
  logRows: number;
  width: number;
  now: number;
  picked: string | undefined;
  labelOf: (v: CurrentVariant) => string;
  rowLabel: (v: CurrentVariant) => string;
}

/** What runs now: the validation note, then every running variant as rows or panels, or the one alone. */
function RunningPart(props: RunningPartProps): React.JSX.Element {
  const theme = useTheme();
  const { c, run, validating, layout, showLog, sweep, capacity, chartRows, logRows, width, now, picked, labelOf, rowLabel } = props;
  return (
    <Box flexDirection="column">
      {validating.map((l, i) => (
        <Text key={`val${i}`} color={theme.info}>
          {l}
        </Text>
      ))}
      {layout.kind !== 'single' && !showLog ? (
        <RunningVariants
          live={run.live}
          layout={layout}
          label={layout.kind === 'rows' ? rowLabel : labelOf}
          width={width}
          now={now}
          simulated={run.simulated}
          {...(picked ? { picked } : {})}
        />
      ) : (
        <OneVariant
          c={c}
          label={labelOf(c)}
          showLog={showLog}
          sweep={sweep}
          capacity={capacity}
          chartRows={chartRows}
          logRows={logRows}
          width={width}
          now={now}
          simulated={run.simulated}
        />
      )}
    </Box>
  );
}

/**
 * A running variant's name: a repeat launch says which run it is ("run 2 of 3"); compact rows name
 * a variant by its change from the winner carried into the stage, as the leaderboard does.
 */
function variantLabels(labels: Record<string, string>, run: RunState) {
  const labelOf = (v: CurrentVariant) => `${labels[v.variantId] ?? v.label ?? v.variantId}${v.run ? ` (${runText(v.run)})` : ''}`;
  const rowLabel = (v: CurrentVariant) => {
    const carried = run.view.stages.find((s) => s.name === v.stage)?.carriedId;
    return relativeLabel(labelOf(v), carried ? labels[carried] : undefined);
  };
  return { labelOf, rowLabel };
}

export function RunScreen(p: RunScreenProps): React.JSX.Element {
  const [showLog, setShowLog] = useState(false);
  const { run } = p;
  const finished = run.status === 'finished';
  const c = run.current;
  const now = useNow(250, Boolean(c));
  // What the skip key stops: the picked row when several run, else the one running.
  const target = skipTarget(run.live, run.picked);
  const picking = pickable(run.live).length > 1;
  useRunKeys(p, finished, () => setShowLog((v) => !v));
  const roomy = p.height >= 40;
  // Rows left for the log: the live region must stay shorter than the terminal (no full redraws).
  const logRows = Math.max(3, Math.min(roomy ? 20 : 12, p.height - 10));
  const { labelOf, rowLabel } = variantLabels(p.labels, run);
  const without = [...(finished ? ['skip', 'stop-after-stage', 'abort'] : ['next']), ...(picking && !finished ? [] : ['pick-prev'])];
  // While the finalists are swept the chart takes the panels' room; on a small terminal the GPU panel gives way too.
  const sweep = run.view.sweep && !run.view.sweep.done && !finished ? run.view.sweep : undefined;
  const chartRows = liveChartRows(p.height, roomy ? 16 : 8);
  const capacity = run.view.capacity && !run.view.capacity.result && !finished ? run.view.capacity : undefined;
  const cost = run.status === 'idle' ? null : liveCostText(liveCost(run.view, now), p.width);
  const budget = run.view.budget?.state ? budgetLeftText(run.view.budget.state) : null;
  const notes = [...(budget ? [budget] : []), ...(finished ? [] : noiseLines(run.view))];
  const validating = c ? validatingLines(run, p.width) : [];
  const messages = messageLines(run, p.width);
  const showGpu = !showLog && Boolean(c) && (!sweep || roomy);
  const room =
    p.height - 2 - (cost ? 1 : 0) - notes.length - validating.length - (showGpu ? gpuPanelLines(run.gpus, roomy) : 0) - messages.length;
  // What the running variants may take: the terminal less the title, the cost, the validation
  // note, the GPU panel, the messages and the footer (and one line, so the region never scrolls).
  const layout = runningLayout(run.live.length, p.width, room - footerLines('run', without, p.width));
  return (
    <Box flexDirection="column">
      <Leaderboard key={p.redrawKey ?? 0} items={run.staticItems} labels={p.labels} skipped={p.skippedStages} width={p.width} />
      <Title
        step={4}
        name={`Run  ${stageNote(run, p.width - 'servelab · 4/6 Run  '.length - (p.note ? p.note.length + 2 : 0))}`}
        note={p.note}
      />
      {cost ? <Muted wrap="truncate">{cost}</Muted> : null}
      <NoteLines lines={notes} />
      {c ? (
        <RunningPart
          c={c}
          run={run}
          validating={validating}
          layout={layout}
          showLog={showLog}
          sweep={sweep}
          capacity={capacity}
          chartRows={chartRows}
          logRows={logRows}
          width={p.width}
          now={now}
          picked={picking ? (target ?? undefined) : undefined}
          labelOf={labelOf}
          rowLabel={rowLabel}
        />
      ) : sweep ? (
        <SweepPanel sweep={sweep} width={p.width} height={chartRows} />
      ) : finished ? (
        <RunFinished run={run} />
      ) : (
        <Muted>starting…</Muted>
      )}
      {showGpu ? (
        <GpuPanel
          gpus={run.gpus}
          width={p.width}
          roomy={roomy}
          owners={Object.fromEntries(run.live.flatMap((v) => (v.gpuIds ?? []).map((g) => [g, rowLabel(v)])))}
        />
      ) : null}
      <RunMessages lines={messages} />
      <Footer scope="run" without={without} />
    </Box>
  );
}

/** The budget left and the noise lines under the title, one truncated line each. */
function NoteLines({ lines }: { lines: readonly string[] }): React.JSX.Element {
  return (
    <>
      {lines.map((line) => (
        <Muted key={line.slice(0, 16)} wrap="truncate">
          {line}
        </Muted>
      ))}
    </>
  );
}
