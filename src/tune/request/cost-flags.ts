// The --auto flags that decide what a session spends and how it reports it: early stop, adaptive
// repeats, parallel variants, replicas, dummy weights, --tpot. Parsed apart from auto-args.ts so that the
// session's flag parser stays one screen of rules.
import { UserError } from '../../core/errors.js';
import { parseTpotMode } from '../../core/tpot.js';
import type { SessionConfig } from '../config/config.js';
import { DEFAULT_REPEATS_MAX } from '../decide/repeats.js';
import { parseParallel } from '../stage/parallel.js';
import { optionalNumberArg } from '../../core/number-arg.js';

const num = (flag: string, text: string | undefined, rule?: Parameters<typeof optionalNumberArg>[2]) =>
  optionalNumberArg(`--${flag}`, text, rule);

/** The cost flags: early stop, adaptive repeats, parallel variants, replicas, dummy weights, and the TPOT definition. */
export function costFlags(
  values: Record<string, unknown>,
): Pick<SessionConfig, 'earlyStop' | 'repeatsMax' | 'parallel' | 'replica' | 'dummyWeights' | 'tpot'> {
  const str = (k: string) => values[k] as string | undefined;
  const replica = str('replica') ?? 'auto';
  if (replica !== 'auto' && replica !== 'off') throw new UserError(`--replica must be auto or off, got '${replica}'`);
  return {
    replica,
    earlyStop: values['no-early-stop'] !== true,
    repeatsMax: num('repeats-max', str('repeats-max'), { integer: true, min: 1, max: 20 }) ?? DEFAULT_REPEATS_MAX,
    parallel: parseParallel(str('parallel') ?? 'auto'),
    // Absent when off: a run folder written without the flag resumes with the same config.
    ...(values['dummy-weights'] === true ? { dummyWeights: true } : {}),
    ...(str('tpot') !== undefined && parseTpotMode(str('tpot')!) === 'inclusive' ? { tpot: 'inclusive' as const } : {}),
  };
}
