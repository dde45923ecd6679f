// `--max-failed PCT` and `--no-regress` of `servelab --auto` (and the workbench, which takes the same
// flags): what a winner must not do. A run whose failed requests exceed PCT percent cannot win
// (core/failed-share.ts); with --no-regress the session keeps only a finalist that loses to the
// baseline on no validation workload (tune/sweep/no-regress.ts). Absent when not given, so a
// config without them reads as before. `--no-noise-prior` decides on the session's own noise alone
// (tune/stage/noise-prior.ts), for a measurement that must not lean on this host's history.
import { optionalNumberArg } from '../../core/number-arg.js';
import type { SessionConfig } from '../config/config.js';

export function guardFlags(values: Record<string, unknown>): Pick<SessionConfig, 'maxFailedPct' | 'noRegress' | 'noNoisePrior'> {
  const pct = optionalNumberArg('--max-failed', values['max-failed'] as string | undefined, { min: 0, max: 100 });
  return {
    ...(pct !== undefined ? { maxFailedPct: pct } : {}),
    ...(values['no-regress'] === true ? { noRegress: true } : {}),
    ...(values['no-noise-prior'] === true ? { noNoisePrior: true } : {}),
  };
}
