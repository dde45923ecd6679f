// The interactive face of `servelab replay PROFILE`: consent, live run, verdict, in Ink. The
// replay command (src/commands/replay.ts) decides when to use it (a terminal, no --auto/--json/
// --yes) and still records the outcome and picks the exit code; this only shows and asks.
import React, { useCallback, useEffect, useState } from 'react';
import { render, useApp } from 'ink';
import type { TuneListener } from '../core/events.js';
import type { ReplayOutcome, ReplaySetup } from '../profiles/replay.js';
import { ReplayScreen, type ReplayPhase } from './ReplayScreen.js';
import { useTerminalSize } from '../tui/hooks/useTerminalSize.js';
import { useRedrawOnResize } from '../tui/hooks/useRedrawOnResize.js';
import { useTuneSession, type SessionStarter } from '../tui/hooks/useTuneSession.js';
import { ThemeContext, themeFromEnv, type Theme } from '../tui/theme.js';

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

export interface ReplayAppProps extends ReplayTuiInput {
  onExit: (r: ReplayTuiResult) => void;
  /** Aborted from outside (a signal): stop the server and leave. */
  externalAbort?: AbortSignal;
  theme?: Theme;
}

export function ReplayApp(props: ReplayAppProps): React.JSX.Element {
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
      <ReplayScreen
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
  const instance = render(
    React.createElement(ReplayApp, {
      setup: input.setup,
      run: input.run,
      onExit: (r: ReplayTuiResult) => {
        result = r;
      },
      ...(input.signal ? { externalAbort: input.signal } : {}),
    }),
    // At most 10 redraws a second (the session hook batches events to about 7). Ink 6.8's
    // incrementalRendering leaves stale lines behind in tmux, so whole frames are redrawn.
    { exitOnCtrlC: false, maxFps: 10 },
  );
  await instance.waitUntilExit();
  return result;
}
