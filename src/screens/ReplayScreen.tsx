// `servelab replay PROFILE` on a terminal: the profile and what differs on this host, the exact
// command and a consent key; then the server's lifecycle and live panels; then recorded vs now
// with the verdict. The replay itself (prepareReplay/executeReplay) is the profiles module's: the
// replay command (src/commands/replay.ts) decides when to show this (a terminal, no --auto/--json/
// --yes), still records the outcome and picks the exit code; this only shows and asks.
import React, { useCallback, useEffect, useState } from 'react';
import { Box, Text, useApp } from 'ink';
import type { TuneListener } from '../core/events.js';
import type { ReplayOutcome, ReplaySetup } from '../tune/replay/replay.js';
import { Footer } from '../tui/components/Footer.js';
import { Table } from '../tui/components/Table.js';
import { Muted } from '../tui/components/Title.js';
import { deltaColumns, ProfileFacts } from '../tui/panels/replay/ProfileFacts.js';
import { LivePanel } from '../tui/panels/run/LivePanel.js';
import { LogTail } from '../tui/panels/run/LogTail.js';
import { StatusLine } from '../tui/panels/run/StatusLine.js';
import { wrapLines } from '../tui/base/format.js';
import { useKeymap } from '../tui/hooks/useKeymap.js';
import { useNow } from '../tui/hooks/useNow.js';
import { useRedrawOnResize } from '../tui/hooks/useRedrawOnResize.js';
import { useTerminalSize } from '../tui/hooks/useTerminalSize.js';
import { useTuneSession } from '../tui/useTuneSession.js';
import { mount } from '../tui/mount.js';
import type { RunState } from '../tui/state/run.js';
import { ThemeContext, themeFromEnv, useTheme, type Theme } from '../tui/base/theme.js';
import type { SessionStarter } from '../tui/services/types.js';

export type ReplayPhase = 'confirm' | 'running' | 'done';

interface ReplayScreenProps {
  setup: ReplaySetup;
  phase: ReplayPhase;
  run: RunState;
  outcome: ReplayOutcome | null;
  onConfirm: () => void;
  onAbort: () => void;
  onDone: () => void;
  width: number;
  height: number;
}

function ReplayRunning({ p, showLog, now }: { p: ReplayScreenProps; showLog: boolean; now: number }): React.JSX.Element {
  const theme = useTheme();
  const c = p.run.current;
  return (
    <Box marginTop={1} flexDirection="column">
      {c ? <StatusLine c={c} label={p.setup.profile.variant.label ?? c.variantId} now={now} width={p.width} /> : <Muted>starting…</Muted>}
      {c && (showLog || c.phase === 'launching') ? (
        <LogTail lines={c.logTail} count={Math.max(3, Math.min(8, p.height - 18))} width={p.width} />
      ) : null}
      {c && !showLog && c.phase === 'bench' ? (
        <LivePanel current={c} width={p.width} now={now} simulated={p.run.simulated || p.setup.host.simulated} />
      ) : null}
      {p.run.requests.abort ? <Text color={theme.warn}>aborting: stopping the server first…</Text> : null}
    </Box>
  );
}

function verdictLine(p: ReplayScreenProps): string {
  const j = p.outcome?.judgement ?? null;
  const failure = p.outcome?.result.failure;
  if (!p.outcome) return 'aborted: nothing recorded';
  if (j) return `verdict: ${j.verdict}${j.reasons.length ? ` (${j.reasons.join('; ')})` : ''}`;
  return `verdict: failed to ${failure?.kind === 'bench-failed' ? 'measure' : 'start'}: ${failure?.reason ?? 'unknown'}`;
}

function ReplayDone({ p }: { p: ReplayScreenProps }): React.JSX.Element {
  const theme = useTheme();
  const j = p.outcome?.judgement ?? null;
  const failure = p.outcome?.result.failure;
  const verdictTone = !p.outcome ? theme.warn : j?.verdict === 'regression' || !j ? theme.bad : theme.good;
  return (
    <Box marginTop={1} flexDirection="column">
      {j ? (
        <Table
          columns={deltaColumns}
          rows={p.height >= 40 ? j.deltas : j.deltas.filter((d) => d.recorded !== null)}
          rowKey={(d) => d.key}
          maxWidth={p.width}
        />
      ) : null}
      {wrapLines(verdictLine(p), p.width, 4).map((l, i) => (
        <Text key={`verdict${i}`} bold color={verdictTone}>
          {l}
        </Text>
      ))}
      {failure?.hint ? <Text color={theme.warn}>hint: {failure.hint}</Text> : null}
      {p.setup.notes.slice(0, 2).map((n, i) => (
        <Muted key={i}>{wrapLines(`note: ${n}`, p.width, 2).join('\n')}</Muted>
      ))}
    </Box>
  );
}

function ReplayView(p: ReplayScreenProps): React.JSX.Element {
  const theme = useTheme();
  const [showLog, setShowLog] = useState(false);
  const c = p.run.current;
  const now = useNow(250, p.phase === 'running' && Boolean(c));
  useKeymap('replay', {
    next: () => (p.phase === 'confirm' ? p.onConfirm() : p.phase === 'done' ? p.onDone() : undefined),
    abort: () => p.phase === 'running' && p.onAbort(),
    'toggle-log': () => setShowLog((v) => !v),
    quit: () => (p.phase === 'running' ? p.onAbort() : p.onDone()),
    interrupt: () => (p.phase === 'running' ? p.onAbort() : p.onDone()),
  });
  const without = p.phase === 'confirm' ? ['toggle-log', 'abort'] : p.phase === 'running' ? ['next'] : ['toggle-log', 'abort'];
  return (
    <Box flexDirection="column">
      <Box justifyContent="space-between">
        <Text bold color={theme.accent}>
          servelab · replay {fileName(p.setup.file)}
        </Text>
        {p.setup.host.simulated ? <Text color={theme.warn}>simulated host</Text> : null}
      </Box>
      <ProfileFacts
        setup={p.setup}
        width={p.width}
        withCommand={p.phase === 'confirm' || p.height >= 40}
        maxDiffs={p.height >= 30 ? 4 : 2}
      />
      {p.phase === 'confirm' ? (
        <Box marginTop={1}>
          <Text color={theme.warn}>Run this command on this host? enter runs it, q cancels.</Text>
        </Box>
      ) : null}
      {p.phase === 'running' ? <ReplayRunning p={p} showLog={showLog} now={now} /> : null}
      {p.phase === 'done' ? <ReplayDone p={p} /> : null}
      <Box marginTop={1}>
        <Footer scope="replay" without={without} />
      </Box>
    </Box>
  );
}

function fileName(file: string): string {
  return file.split('/').pop() ?? file;
}

export interface ReplayTuiInput {
  setup: ReplaySetup;
  /** Runs the replay (executeReplay with these emit and signal). */
  run: (emit: TuneListener, signal: AbortSignal) => Promise<ReplayOutcome>;
}

export interface ReplayTuiResult {
  /** False when the user declined before anything ran. */
  consented: boolean;
  /** The replay's outcome; null when declined, or when the run threw. */
  outcome: ReplayOutcome | null;
  aborted: boolean;
}

export interface ReplayScreenRootProps extends ReplayTuiInput {
  onExit: (r: ReplayTuiResult) => void;
  /** Aborted from outside (a signal): stop the server and leave. */
  externalAbort?: AbortSignal;
  theme?: Theme;
}

export function ReplayScreen(props: ReplayScreenRootProps): React.JSX.Element {
  const { exit } = useApp();
  const size = useTerminalSize();
  // No <Static> here; the clear alone rids the screen of the old frame's re-wrapped lines.
  useRedrawOnResize();
  const [phase, setPhase] = useState<ReplayPhase>('confirm');
  const [outcome, setOutcome] = useState<ReplayOutcome | null>(null);
  const [starter, setStarter] = useState<SessionStarter | null>(null);
  const session = useTuneSession(starter);

  const confirm = () => {
    const start: SessionStarter = (onEvent, signal) => ({
      done: props.run(onEvent, signal).then((o) => setOutcome(o)),
      skipVariant: () => {},
      stopAfterStage: () => {},
    });
    setStarter(() => start);
    setPhase('running');
  };

  useEffect(() => {
    if (phase === 'running' && session.state.status === 'finished') setPhase('done');
  }, [phase, session.state.status]);

  const leave = useCallback(
    async (consented: boolean) => {
      const aborted = session.state.requests.abort || phase === 'running';
      await session.abort();
      props.onExit({ consented, outcome, aborted });
      exit();
    },
    [session, props, outcome, exit, phase],
  );

  useEffect(() => {
    const sig = props.externalAbort;
    if (!sig) return;
    const onAbort = () => void leave(phase !== 'confirm');
    sig.addEventListener('abort', onAbort);
    return () => sig.removeEventListener('abort', onAbort);
  }, [props.externalAbort, phase, leave]);

  return (
    <ThemeContext.Provider value={props.theme ?? themeFromEnv()}>
      <ReplayView
        setup={props.setup}
        phase={phase}
        run={session.state}
        outcome={outcome}
        onConfirm={confirm}
        onAbort={() => void session.abort()}
        onDone={() => void leave(phase !== 'confirm')}
        width={size.columns}
        height={size.rows}
      />
    </ThemeContext.Provider>
  );
}

/** Show the replay on this terminal and resolve once the user leaves it. */
export async function replayTui(input: ReplayTuiInput & { signal?: AbortSignal }): Promise<ReplayTuiResult> {
  let result: ReplayTuiResult = { consented: false, outcome: null, aborted: false };
  const onExit = (r: ReplayTuiResult) => {
    result = r;
  };
  const props = { setup: input.setup, run: input.run, onExit, ...(input.signal ? { externalAbort: input.signal } : {}) };
  await mount(<ReplayScreen {...props} />).waitUntilExit();
  return result;
}
