// The workbench: a wizard over the screens (host, model and workload, plan, run, results, save),
// one route per screen. State lives in two reducers (wizard choices, run events); the core is
// reached only through `services` and the one session hook. All exits go through `quit`, which
// stops the session (and so its servers) before the app unmounts.
import React, { useEffect, useMemo, useReducer, useState } from 'react';
import { Box } from 'ink';
import { HostScreen } from './HostScreen.js';
import { ModelScreen } from './ModelScreen.js';
import { PlanScreen } from './PlanScreen.js';
import { ResultsScreen } from './ResultsScreen.js';
import { RunScreen } from './RunScreen.js';
import { SaveScreen } from './SaveScreen.js';
import { useRedrawOnResize } from '../tui/hooks/useRedrawOnResize.js';
import { useTerminalSize } from '../tui/hooks/useTerminalSize.js';
import { useTuneSession, type TuneSession } from '../tui/useTuneSession.js';
import { useHostDetection, usePlanner, useQuit, type Planner } from '../tui/useWorkbench.js';
import type { ScreenProps } from '../tui/screen-props.js';
import { resultsData } from '../tui/state/results.js';
import { initialWizard, wizardReducer, type ScreenId, type WizardAction, type WizardState } from '../tui/state/wizard.js';
import { ThemeContext, themeFromEnv, type Theme } from '../tui/base/theme.js';
import { formObjectiveLabel } from '../tui/services/form.js';
import type { HostChoice, HostView, Services, WorkbenchDefaults, SessionStarter } from '../tui/services/types.js';

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

/** What a route draws its screen from. */
interface Route {
  base: ScreenProps;
  wizard: WizardState;
  dispatch: (a: WizardAction) => void;
  go: (screen: ScreenId) => void;
  quit: (code: number) => void;
  props: AppProps;
  host: { host: HostView | null; error?: string; choice: HostChoice; onNext: () => void };
  planner: Planner;
  toPlan: () => void;
  /** The Plan screen's dummy-weights key: flip the choice and plan again with it. */
  toggleDummyWeights: () => void;
  toRun: () => void;
  session: TuneSession;
  labels: Record<string, string>;
  redrawKey: number;
}

const outcomeCode = (r: Route) => r.session.state.outcome?.exitCode ?? 0;

/** One screen per route; each gets the base props (size, keys, ways out) and what it shows. */
const ROUTES: Record<ScreenId, (r: Route) => React.JSX.Element> = {
  host: (r) => (
    <HostScreen
      {...r.base}
      host={r.host.host}
      {...(r.host.error ? { error: r.host.error } : {})}
      gpuType={r.wizard.host.gpuType}
      gpuCount={r.wizard.host.gpuCount}
      onGpuStep={(dir) => r.dispatch({ type: 'gpu-step', types: r.host.host?.gpuTypes ?? [], dir })}
      onCountStep={(dir) => r.dispatch({ type: 'count-step', dir, max: 8 })}
      onNext={r.host.onNext}
    />
  ),
  model: (r) => <ModelRoute {...r} />,
  plan: (r) => (
    <PlanScreen
      {...r.base}
      plan={r.planner.planned?.view ?? null}
      {...(r.planner.error ? { error: r.planner.error } : {})}
      focus={r.wizard.plan.focus}
      disabled={r.wizard.plan.disabled}
      onMove={(dir, rows) => r.dispatch({ type: 'plan-move', dir, rows })}
      onToggle={(ids) => r.dispatch({ type: 'plan-toggle', ids })}
      dummyWeights={r.wizard.dummyWeights}
      onDummyWeights={r.toggleDummyWeights}
      onNext={r.toRun}
      onBack={() => r.go('model')}
    />
  ),
  run: (r) => <RunRoute {...r} />,
  results: (r) => (
    <ResultsScreen
      {...r.base}
      {...resultsData(r.session.state, {
        labels: r.labels,
        gpus: r.wizard.host.gpuCount,
        ...(r.props.defaults.pricePerGpuHour ? { pricePerGpuHour: r.props.defaults.pricePerGpuHour } : {}),
      })}
      objectiveLabel={formObjectiveLabel(r.wizard.form.objective)}
      simulated={r.session.state.simulated}
      aborted={outcomeCode(r) === 130}
      page={r.wizard.resultsPage}
      onPage={(dir, pages) => r.dispatch({ type: 'results-page', dir, pages })}
      onNext={() => r.go('save')}
      onQuit={() => r.quit(outcomeCode(r))}
      onInterrupt={() => r.quit(outcomeCode(r))}
    />
  ),
  save: (r) => (
    <SaveScreen
      profilePath={r.session.state.outcome?.profilePath ?? null}
      reportPath={r.session.state.outcome?.reportPath ?? null}
      {...(r.session.state.runDir ? { runDir: r.session.state.runDir } : {})}
      simulated={r.session.state.simulated}
      exitCode={outcomeCode(r)}
      onDone={() => r.quit(outcomeCode(r))}
      width={r.base.width}
    />
  ),
};

function ModelRoute(r: Route): React.JSX.Element {
  const { services } = r.props;
  const model = useMemo(() => services.describeModel(r.wizard.form.model), [services, r.wizard.form.model]);
  const problems = useMemo(() => services.checkForm(r.wizard.form), [services, r.wizard.form]);
  const recent = useMemo(() => services.recentModels(), [services]);
  return (
    <ModelScreen
      {...r.base}
      wizard={r.wizard}
      dispatch={r.dispatch}
      model={model}
      recent={recent}
      problems={problems}
      onNext={r.toPlan}
      onBack={() => r.go('host')}
    />
  );
}

function RunRoute(r: Route): React.JSX.Element {
  const run = r.session.state;
  const planned = r.planner.planned;
  const skippedStages = useMemo(
    () => Object.fromEntries((planned?.view.stages ?? []).filter((s) => s.skipped).map((s) => [s.name, s.skipped!])),
    [planned],
  );
  const leave = () => r.quit(run.status === 'finished' ? outcomeCode(r) : 130);
  return (
    <RunScreen
      {...r.base}
      run={run}
      labels={r.labels}
      skippedStages={skippedStages}
      {...(r.host.host?.simulated ? { note: `simulated ${r.wizard.host.gpuType} x${r.wizard.host.gpuCount}` } : {})}
      redrawKey={r.redrawKey}
      onSkip={r.session.skip}
      onPick={r.session.pick}
      onStopAfterStage={r.session.stopAfterStage}
      onAbort={() => void r.session.abort()}
      onNext={() => r.go('results')}
      onQuit={leave}
      onInterrupt={leave}
    />
  );
}

export function App(props: AppProps): React.JSX.Element {
  const size = useTerminalSize();
  const redrawKey = useRedrawOnResize();
  const [wizard, dispatch] = useReducer(wizardReducer, props.defaults, (d) =>
    initialWizard({ gpuType: d.gpuType, gpuCount: d.gpuCount, form: d.form, ...(d.dummyWeights ? { dummyWeights: true } : {}) }),
  );
  const detection = useHostDetection(props.services);
  const planner = usePlanner(props.services);
  const [starter, setStarter] = useState<SessionStarter | null>(null);
  const session = useTuneSession(starter, props.throttleMs);
  const quit = useQuit(session, props.onExit, props.externalAbort);
  const go = (screen: ScreenId) => dispatch({ type: 'go', screen });
  const choice: HostChoice = { simulated: detection.host?.simulated ?? true, gpuType: wizard.host.gpuType, gpuCount: wizard.host.gpuCount };

  // Enter pressed while the host is still being detected goes on as soon as it is known.
  const [hostNextPending, setHostNextPending] = useState(false);
  useEffect(() => {
    if (hostNextPending && detection.host && wizard.screen === 'host') {
      setHostNextPending(false);
      go('model');
    }
  }, [hostNextPending, detection.host, wizard.screen]);

  const labels = useMemo(() => {
    const out: Record<string, string> = {};
    for (const s of planner.planned?.view.stages ?? []) for (const v of s.variants) out[v.id] = v.label;
    return { ...out, ...session.state.labels };
  }, [planner.planned, session.state.labels]);

  const route: Route = {
    base: { width: size.columns, height: size.rows, onQuit: () => void quit(0), onInterrupt: () => void quit(130) },
    wizard,
    dispatch,
    go,
    quit: (code) => void quit(code),
    props,
    host: { ...detection, choice, onNext: () => (detection.host ? go('model') : setHostNextPending(true)) },
    planner,
    toPlan: () => {
      planner.request({ host: choice, form: wizard.form, dummyWeights: wizard.dummyWeights });
      go('plan');
    },
    toggleDummyWeights: () => {
      dispatch({ type: 'dummy-weights' });
      planner.request({ host: choice, form: wizard.form, dummyWeights: !wizard.dummyWeights });
    },
    toRun: () => {
      if (!planner.planned) return;
      props.services.remember?.({ host: choice, form: wizard.form, disabled: wizard.plan.disabled, dummyWeights: wizard.dummyWeights });
      setStarter(() => planner.planned!.start(wizard.plan.disabled));
      go('run');
    },
    session,
    labels,
    redrawKey,
  };
  return (
    <ThemeContext.Provider value={props.theme ?? themeFromEnv()}>
      <Box flexDirection="column" width={size.columns}>
        {ROUTES[wizard.screen](route)}
      </Box>
    </ThemeContext.Provider>
  );
}
