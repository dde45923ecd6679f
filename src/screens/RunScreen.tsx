// Step 4: the session as it runs. Finished variants above (static), then the current variant's
// lifecycle (launching with its log tail and elapsed time, ready, warming up, benchmarking with
// live panels), GPU and server state, and the keys to steer: skip, stop after stage, abort, log.
import React, { useState } from 'react';
import { Box, Text } from 'ink';
import { Footer } from '../tui/components/Footer.js';
import { Muted, Title } from '../tui/components/Title.js';
import { GpuPanel } from '../tui/components/run/GpuPanel.js';
import { Leaderboard } from '../tui/components/run/Leaderboard.js';
import { LivePanel } from '../tui/components/run/LivePanel.js';
import { LogTail } from '../tui/components/run/LogTail.js';
import { fmtDuration, wrapLines } from '../tui/format.js';
import { useKeymap } from '../tui/hooks/useKeymap.js';
import { useNow } from '../tui/hooks/useNow.js';
import type { RunState } from '../tui/state/run.js';
import { StatusLine } from '../tui/components/run/StatusLine.js';
import type { ScreenProps } from '../tui/screen-props.js';
import { useTheme } from '../tui/theme.js';

export interface RunScreenProps extends ScreenProps {
  run: RunState;
  labels: Record<string, string>;
  /** Stages the plan skipped, with the reason (for the leaderboard). */
  skippedStages?: Record<string, string>;
  note?: string;
  onSkip: () => void;
  onStopAfterStage: () => void;
  onAbort: () => void;
  onNext: () => void;
  /** Changes after a resize: the leaderboard prints again (see useRedrawOnResize). */
  redrawKey?: number;
}

function RunFinished({ run }: { run: RunState }): React.JSX.Element {
  const theme = useTheme();
  const code = run.outcome?.exitCode;
  return (
    <Box flexDirection="column">
      <Text color={code === 0 ? theme.good : theme.warn}>
        {code === 0 ? 'Tuning finished.' : code === 130 ? 'Aborted; finished variants are kept in the journal.' : 'The run ended without a winner.'}
      </Text>
      {run.outcome?.profilePath ? <Text wrap="truncate">profile {run.outcome.profilePath}</Text> : null}
    </Box>
  );
}

/** Requests in flight (once the run has ended they are done and say nothing more), then the last errors and warning. */
function RunMessages({ run, width }: { run: RunState; width: number }): React.JSX.Element {
  const theme = useTheme();
  const finished = run.status === 'finished';
  const requests = (finished ? [] : [
    run.requests.abort ? 'aborting: stopping the server first…' : '',
    run.requests.skip ? 'skipping this variant…' : '',
    run.requests.stopAfterStage ? 'will stop after this stage' : '',
  ]).filter(Boolean);
  const messages = [...run.errors.slice(-2).map((m) => ({ m, bad: true })), ...run.warnings.slice(-1).map((m) => ({ m, bad: false }))];
  return (
    <>
      {requests.map((r) => (
        <Text key={r} color={theme.warn}>
          {r}
        </Text>
      ))}
      {messages.flatMap(({ m, bad }, i) =>
        // Wrapped, not cut: a warning's advice is at its end.
        wrapLines(m, width, 3).map((l, j) => (
          <Text key={`${i}:${j}`} color={bad ? theme.bad : theme.warn}>
            {l}
          </Text>
        )),
      )}
    </>
  );
}

export function RunScreen(p: RunScreenProps): React.JSX.Element {
  const theme = useTheme();
  const [showLog, setShowLog] = useState(false);
  const { run } = p;
  const finished = run.status === 'finished';
  const c = run.current;
  const now = useNow(250, Boolean(c));
  useKeymap(
    'run',
    {
      skip: () => !finished && p.onSkip(),
      'stop-after-stage': () => !finished && p.onStopAfterStage(),
      abort: () => !finished && p.onAbort(),
      'toggle-log': () => setShowLog((v) => !v),
      next: () => finished && p.onNext(),
      quit: p.onQuit,
      interrupt: p.onInterrupt ?? p.onQuit,
    },
    { isActive: p.isActive },
  );
  const stage = c ? run.stages.find((s) => s.name === c.stage) : undefined;
  const stageNote = stage
    ? `stage ${stage.index + 1} ${stage.name} · variant ${stage.variants.indexOf(c!.variantId) + 1}/${stage.variants.length}`
    : c
      ? c.stage
      : '';
  const roomy = p.height >= 40;
  // Rows left for the log: the live region must stay shorter than the terminal (no full redraws).
  const logRows = Math.max(3, Math.min(roomy ? 20 : 12, p.height - 10));
  const label = c ? (p.labels[c.variantId] ?? c.variantId) : '';
  const without: string[] = finished ? ['skip', 'stop-after-stage', 'abort'] : ['next'];
  return (
    <Box flexDirection="column">
      <Leaderboard key={p.redrawKey ?? 0} items={run.staticItems} labels={p.labels} skipped={p.skippedStages} width={p.width} />
      <Title step={4} name={`Run  ${stageNote}`} note={p.note} />
      {c ? (
        <Box flexDirection="column">
          {run.validation && !run.validation.done ? (
            wrapLines(`validating the winner against the baseline on ${run.validation.scenarios.length} scenarios: ${run.validation.scenarios.join(', ')}`, p.width, 2).map((l, i) => (
              <Text key={`val${i}`} color={theme.info}>
                {l}
              </Text>
            ))
          ) : null}
          <StatusLine c={c} label={label} now={now} width={p.width} />
          {showLog || c.phase === 'launching' ? (
            <LogTail lines={c.logTail} count={c.phase === 'launching' && !showLog ? Math.min(6, logRows) : logRows} width={p.width} />
          ) : c.phase === 'bench' ? (
            <LivePanel current={c} width={p.width} now={now} simulated={run.simulated} />
          ) : null}
        </Box>
      ) : finished ? (
        <RunFinished run={run} />
      ) : (
        <Muted>starting…</Muted>
      )}
      {!showLog && c ? <GpuPanel gpus={run.gpus} width={p.width} roomy={roomy} /> : null}
      <RunMessages run={run} width={p.width} />
      <Footer scope="run" without={without} />
    </Box>
  );
}
