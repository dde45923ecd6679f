// The workbench: a wizard over the screens (host, model and workload, plan, run, results, save).
// State lives in two reducers (wizard choices, run events); the core is reached only through
// `services` and the one session hook. All exits go through `quit`, which stops the session
// (and so its servers) before the app unmounts.
import React, { useCallback, useEffect, useMemo, useReducer, useRef, useState } from 'react';
import { Box, useApp } from 'ink';
import { HostScreen } from './screens/HostScreen.js';
import { ModelScreen } from './screens/ModelScreen.js';
import { PlanScreen } from './screens/PlanScreen.js';
import { RunScreen } from './screens/RunScreen.js';
import { ResultsScreen } from './screens/ResultsScreen.js';
import { SaveScreen } from './screens/SaveScreen.js';
import { useTerminalSize } from './tui/hooks/useTerminalSize.js';
import { useRedrawOnResize } from './tui/hooks/useRedrawOnResize.js';
import { useTuneSession, type SessionStarter } from './tui/hooks/useTuneSession.js';
import { finalWinner, stageTables, validationBaselineId, validationRows } from './tui/state/results.js';
import { initialWizard, wizardReducer, type ScreenId } from './tui/state/wizard.js';
import { ThemeContext, themeFromEnv, type Theme } from './tui/theme.js';
import type { HostView, PlannedSession, Services, WorkbenchDefaults } from './tune/workbench-types.js';
import { objectiveLabel } from './tune/decide.js';

export interface AppProps {
  services: Services;
  defaults: WorkbenchDefaults;
  /** Called once, with the process exit code, just before the app unmounts. */
  onExit: (code: number) => void;
  /** Aborted by the command when a signal (SIGTERM, SIGHUP) arrives: quit as Ctrl+C would. */
  externalAbort?: AbortSignal;
  theme?: Theme;
  /** Redraws per second cap for the run panels (ms between flushes). */
  throttleMs?: number;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function App(props: AppProps): React.JSX.Element {
  const { services, defaults } = props;
  const { exit } = useApp();
  const size = useTerminalSize();
  const redrawKey = useRedrawOnResize();
  const [w, dispatch] = useReducer(wizardReducer, defaults, (d) => initialWizard({ gpuType: d.gpuType, gpuCount: d.gpuCount, form: d.form }));
  const [host, setHost] = useState<HostView | null>(null);
  const [hostError, setHostError] = useState<string | undefined>();
  const [planned, setPlanned] = useState<PlannedSession | null>(null);
  const [planError, setPlanError] = useState<string | undefined>();
  const [starter, setStarter] = useState<SessionStarter | null>(null);
  const session = useTuneSession(starter, props.throttleMs);
  const run = session.state;

  useEffect(() => {
    let live = true;
    services.detectHost().then(
      (h) => live && setHost(h),
      (e: unknown) => live && setHostError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [services]);

  // Enter pressed while the host is still being detected goes on as soon as it is known.
  const [hostNextPending, setHostNextPending] = useState(false);
  useEffect(() => {
    if (hostNextPending && host && w.screen === 'host') {
      setHostNextPending(false);
      dispatch({ type: 'go', screen: 'model' });
    }
  }, [hostNextPending, host, w.screen]);

  const quitting = useRef(false);
  const quit = useCallback(
    async (code: number) => {
      if (quitting.current) return;
      quitting.current = true;
      // Stop the session first: it stops its server and waits for it to be gone.
      await session.abort();
      props.onExit(code);
      exit();
    },
    [session, props, exit, run.outcome],
  );

  useEffect(() => {
    const sig = props.externalAbort;
    if (!sig) return;
    const onAbort = () => void quit(130);
    if (sig.aborted) onAbort();
    sig.addEventListener('abort', onAbort);
    return () => sig.removeEventListener('abort', onAbort);
  }, [props.externalAbort, quit]);

  const go = (screen: ScreenId) => dispatch({ type: 'go', screen });
  const hostChoice = { simulated: host?.simulated ?? true, gpuType: w.host.gpuType, gpuCount: w.host.gpuCount };

  const planRequest = useRef(0);
  const toPlan = () => {
    setPlanError(undefined);
    setPlanned(null);
    const id = ++planRequest.current;
    services.plan({ host: hostChoice, form: w.form }).then(
      (p) => id === planRequest.current && setPlanned(p),
      (e: unknown) => id === planRequest.current && setPlanError(errorText(e)),
    );
    go('plan');
  };

  const toRun = () => {
    if (!planned) return;
    services.remember?.({ host: hostChoice, form: w.form, disabled: w.plan.disabled });
    const start = planned.start(w.plan.disabled);
    setStarter(() => start);
    go('run');
  };

  const labels = useMemo(() => {
    const out: Record<string, string> = {};
    for (const s of planned?.view.stages ?? []) for (const v of s.variants) out[v.id] = v.label;
    return { ...out, ...run.labels };
  }, [planned, run.labels]);

  const skippedStages = useMemo(
    () => Object.fromEntries((planned?.view.stages ?? []).filter((s) => s.skipped).map((s) => [s.name, s.skipped!])),
    [planned],
  );
  const model = useMemo(() => services.describeModel(w.form.model), [services, w.form.model]);
  const problems = useMemo(() => services.checkForm(w.form), [services, w.form]);
  const recent = useMemo(() => services.recentModels(), [services]);
  const simNote = host?.simulated ? `simulated ${w.host.gpuType} x${w.host.gpuCount}` : undefined;
  const outcomeCode = run.outcome?.exitCode ?? 0;
  const common = { width: size.columns, height: size.rows };

  let screen: React.JSX.Element;
  switch (w.screen) {
    case 'host':
      screen = (
        <HostScreen
          host={host}
          error={hostError}
          gpuType={w.host.gpuType}
          gpuCount={w.host.gpuCount}
          onGpuStep={(dir) => dispatch({ type: 'gpu-step', types: host?.gpuTypes ?? [], dir })}
          onCountStep={(dir) => dispatch({ type: 'count-step', dir, max: 8 })}
          onNext={() => (host ? go('model') : setHostNextPending(true))}
          onQuit={() => void quit(0)}
          onInterrupt={() => void quit(130)}
        />
      );
      break;
    case 'model':
      screen = (
        <ModelScreen
          wizard={w}
          dispatch={dispatch}
          model={model}
          recent={recent}
          problems={problems}
          onNext={toPlan}
          onBack={() => go('host')}
          onQuit={() => void quit(0)}
          onInterrupt={() => void quit(130)}
          {...common}
        />
      );
      break;
    case 'plan':
      screen = (
        <PlanScreen
          plan={planned?.view ?? null}
          error={planError}
          focus={w.plan.focus}
          disabled={w.plan.disabled}
          onMove={(dir, rows) => dispatch({ type: 'plan-move', dir, rows })}
          onToggle={(ids) => dispatch({ type: 'plan-toggle', ids })}
          onNext={toRun}
          onBack={() => go('model')}
          onQuit={() => void quit(0)}
          onInterrupt={() => void quit(130)}
          {...common}
        />
      );
      break;
    case 'run':
      screen = (
        <RunScreen
          run={run}
          labels={labels}
          skippedStages={skippedStages}
          note={simNote}
          redrawKey={redrawKey}
          onSkip={session.skip}
          onStopAfterStage={session.stopAfterStage}
          onAbort={() => void session.abort()}
          onNext={() => go('results')}
          onQuit={() => void quit(run.status === 'finished' ? outcomeCode : 130)}
          {...common}
        />
      );
      break;
    case 'results': {
      const winner = finalWinner(run);
      const baselineId = validationBaselineId(run);
      screen = (
        <ResultsScreen
          tables={stageTables(run, { labels, pricePerGpuHour: defaults.pricePerGpuHour, gpus: w.host.gpuCount })}
          labels={labels}
          validation={validationRows(run)}
          winner={winner}
          winnerLabel={winner ? (labels[winner.variantId] ?? winner.variant.label ?? winner.variantId) : undefined}
          {...(baselineId ? { validationBaseline: labels[baselineId] ?? baselineId, validationBaselineIsWinner: baselineId === winner?.variantId } : {})}
          objectiveLabel={objectiveLabel(w.form.objective)}
          priced={Boolean(defaults.pricePerGpuHour)}
          simulated={run.simulated}
          aborted={outcomeCode === 130}
          page={w.resultsPage}
          onPage={(dir, pages) => dispatch({ type: 'results-page', dir, pages })}
          onNext={() => go('save')}
          onQuit={() => void quit(outcomeCode)}
          {...common}
        />
      );
      break;
    }
    case 'save':
      screen = (
        <SaveScreen
          profilePath={run.outcome?.profilePath ?? null}
          reportPath={run.outcome?.reportPath ?? null}
          runDir={run.runDir}
          simulated={run.simulated}
          exitCode={outcomeCode}
          onDone={() => void quit(outcomeCode)}
          width={size.columns}
        />
      );
      break;
  }
  return (
    <ThemeContext.Provider value={props.theme ?? themeFromEnv()}>
      <Box flexDirection="column" width={size.columns}>
        {screen}
      </Box>
    </ThemeContext.Provider>
  );
}
