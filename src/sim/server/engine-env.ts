// What sim-serve says about the variant's environment (its env knob): one line per variable the
// launch named (`--engine-env NAME`), with the value sim-serve's own process sees, so a log (and a
// test) shows that the environment reached the server and not only the command shown. servelab's
// own wording: no engine prints such a line.
import type { LogLine } from '../imitation/engine-style.js';

export function engineEnvLines(names: readonly string[] | undefined, env: NodeJS.ProcessEnv): LogLine[] {
  return (names ?? []).map((n) => ({
    stream: 'stdout' as const,
    text: `servelab sim-serve: engine environment ${n}=${env[n] ?? '(unset)'}`,
  }));
}
