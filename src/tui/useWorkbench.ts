// The workbench root's dealings with its services, one hook each: the host (detected once, with
// Enter pressed early remembered), the plan (the latest request wins), and the one way out.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useApp } from 'ink';
import type { Choices, HostView, PlannedSession, Services } from './services/types.js';
import type { TuneSession } from './useTuneSession.js';

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function useHostDetection(services: Services): { host: HostView | null; error?: string } {
  const [host, setHost] = useState<HostView | null>(null);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    let live = true;
    services.detectHost().then(
      (h) => live && setHost(h),
      (e: unknown) => live && setError(errorText(e)),
    );
    return () => {
      live = false;
    };
  }, [services]);
  return { host, ...(error ? { error } : {}) };
}

export interface Planner {
  planned: PlannedSession | null;
  error?: string;
  request(choices: Omit<Choices, 'disabled'>): void;
}

export function usePlanner(services: Services): Planner {
  const [planned, setPlanned] = useState<PlannedSession | null>(null);
  const [error, setError] = useState<string | undefined>();
  const latest = useRef(0);
  const request = useCallback(
    (choices: Omit<Choices, 'disabled'>) => {
      setError(undefined);
      setPlanned(null);
      const id = ++latest.current;
      services.plan(choices).then(
        (p) => id === latest.current && setPlanned(p),
        (e: unknown) => id === latest.current && setError(errorText(e)),
      );
    },
    [services],
  );
  return { planned, ...(error ? { error } : {}), request };
}

/**
 * The one exit: stop the session first (it stops its server and waits for it to be gone), then
 * report the exit code and unmount. A signal from outside (externalAbort) quits as Ctrl+C does.
 */
export function useQuit(
  session: TuneSession,
  onExit: (code: number) => void,
  externalAbort?: AbortSignal,
): (code: number) => Promise<void> {
  const { exit } = useApp();
  const quitting = useRef(false);
  const abort = session.abort;
  const quit = useCallback(
    async (code: number) => {
      if (quitting.current) return;
      quitting.current = true;
      await abort();
      onExit(code);
      exit();
    },
    [abort, onExit, exit],
  );
  useEffect(() => {
    if (!externalAbort) return;
    const onAbort = () => void quit(130);
    if (externalAbort.aborted) onAbort();
    externalAbort.addEventListener('abort', onAbort);
    return () => externalAbort.removeEventListener('abort', onAbort);
  }, [externalAbort, quit]);
  return quit;
}
