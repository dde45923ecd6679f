// The one hook between the tuning core and the screens: it starts the session, files every
// event into the run reducer (batched, so the screen redraws at most ~7 times a second however
// fast events arrive), forwards the user's steering, and stops the session on abort or unmount.
import { useCallback, useEffect, useReducer, useRef, type RefObject } from 'react';
import type { TuneEvent, TuneListener } from '../core/events.js';
import { initialRunState, runReducer, type RunAction, type RunState } from './state/run.js';
import type { SessionHandle, SessionStarter } from './services/types.js';

/** 150 ms: between the 4 and 10 redraws a second that keep SSH sessions smooth. */
export const DEFAULT_THROTTLE_MS = 150;

export interface TuneSession {
  state: RunState;
  /** Stop the running variant `variantId`, or without it the one picked on the Run screen. */
  skip(variantId?: string): void;
  /** Pick the running row above (-1) or below (+1) for the skip key. */
  pick(dir: 1 | -1): void;
  stopAfterStage(): void;
  /** Abort the session; resolves once it has stopped its servers (or at once when idle). */
  abort(): Promise<void>;
}

export function useTuneSession(start: SessionStarter | null, throttleMs = DEFAULT_THROTTLE_MS): TuneSession {
  const [state, dispatch] = useReducer(runReducer, initialRunState);
  const handle = useRef<SessionHandle | null>(null);
  const controller = useRef<AbortController | null>(null);
  const settledRef = useRef<Promise<void> | null>(null);
  const settled = useRef(false);
  const queue = useRef<TuneEvent[]>([]);
  const timer = useRef<NodeJS.Timeout | null>(null);

  const flush = useCallback(() => {
    timer.current = null;
    if (queue.current.length === 0) return;
    const events = queue.current;
    queue.current = [];
    dispatch({ type: 'events', events, now: Date.now() });
  }, []);

  useEffect(() => {
    if (!start) return;
    const ac = new AbortController();
    controller.current = ac;
    dispatch({ type: 'started', now: Date.now() });
    const onEvent: TuneListener = (e) => {
      queue.current.push(e);
      if (!timer.current) timer.current = setTimeout(flush, throttleMs);
    };
    let h: SessionHandle;
    try {
      h = start(onEvent, ac.signal);
    } catch (err) {
      dispatch({ type: 'crashed', message: err instanceof Error ? err.message : String(err) });
      settled.current = true;
      return;
    }
    handle.current = h;
    settledRef.current = h.done.then(
      () => {
        settled.current = true;
        if (timer.current) clearTimeout(timer.current);
        flush();
        dispatch({ type: 'settled', aborted: ac.signal.aborted });
      },
      (err: unknown) => {
        settled.current = true;
        if (timer.current) clearTimeout(timer.current);
        flush();
        dispatch({ type: 'crashed', message: err instanceof Error ? err.message : String(err) });
      },
    );
    return () => {
      // Leaving the screen while a session runs: stop it so no server outlives the UI.
      if (!settled.current) ac.abort();
      if (timer.current) clearTimeout(timer.current);
    };
  }, [start, throttleMs, flush]);

  const { skip, pick, stopAfterStage } = useSteering(handle, settled, dispatch);
  // The core is told which variant to stop once the reducer has resolved the pick
  // (SessionControl keeps one skip signal per launch, by variant id).
  const skipSent = useRef<string | null>(null);
  useEffect(() => {
    const id = state.requests.skip;
    if (id && id !== skipSent.current && !settled.current) handle.current?.skipVariant(id);
    skipSent.current = id;
  }, [state.requests.skip]);

  const abort = useCallback(async () => {
    if (!controller.current || !settledRef.current) return;
    if (!settled.current) {
      dispatch({ type: 'abort-requested' });
      controller.current.abort();
    }
    await settledRef.current;
  }, []);

  return { state, skip, pick, stopAfterStage, abort };
}

/** The user's steering while the session runs: skip a variant (by id), pick a row, stop after the stage. */
function useSteering(
  handle: RefObject<SessionHandle | null>,
  settled: RefObject<boolean>,
  dispatch: (a: RunAction) => void,
): Pick<TuneSession, 'skip' | 'pick' | 'stopAfterStage'> {
  const skip = useCallback(
    (variantId?: string) => {
      if (settled.current || !handle.current) return;
      dispatch({ type: 'skip-requested', ...(variantId ? { variantId } : {}) });
    },
    [handle, settled, dispatch],
  );
  const pick = useCallback((dir: 1 | -1) => dispatch({ type: 'pick', dir }), [dispatch]);
  const stopAfterStage = useCallback(() => {
    if (settled.current || !handle.current) return;
    handle.current.stopAfterStage();
    dispatch({ type: 'stop-after-stage-requested' });
  }, [handle, settled, dispatch]);
  return { skip, pick, stopAfterStage };
}
