// --sweep, --sweep-all and --objective frontier: the session's load sweep of the finalists.
import { UserError } from '../../core/errors.js';
import type { SessionSweepConfig } from '../config/config.js';
import { formatSweep, parseSweep } from '../../sweep/spec.js';

/** The default levels when --objective frontier comes without --sweep. */
export const DEFAULT_SESSION_SWEEP = 'concurrency:1,4,16,64,256';

/** --sweep, --sweep-all and --objective frontier -> the session's sweep, or undefined without one. */
export function parseSweepFlags(
  sweepText: string | undefined,
  all: boolean,
  objectiveText: string | undefined,
  hasSlo: boolean,
): SessionSweepConfig | undefined {
  const frontier = objectiveText?.trim().toLowerCase() === 'frontier';
  if (frontier && !hasSlo)
    throw new UserError('--objective frontier needs --slo, e.g. --slo "tpot:p99<60" (the choice is the most tok/s/GPU that meets it)');
  if (sweepText === undefined && !frontier) {
    if (all) throw new UserError('--sweep-all needs --sweep LEVELS (or --objective frontier), e.g. --sweep concurrency:1,8,32,128');
    return undefined;
  }
  const spec = parseSweep(sweepText ?? DEFAULT_SESSION_SWEEP);
  return { spec: formatSweep(spec), all, frontier };
}
