// `--budget GPU-HOURS` and `--budget-wall DURATION` of `servelab --auto` and the workbench (issue
// 24): checked when the flags are read, so a bad value is one line and exit 2 before anything is
// planned. Without either the config carries no budget and the full protocol runs as before.
import { UserError } from '../../core/errors.js';
import { parseDurationText } from '../../core/duration-text.js';
import type { SessionConfig } from '../config/config.js';
import { optionalNumberArg } from '../../core/number-arg.js';

export function budgetFlags(values: Record<string, unknown>): Pick<SessionConfig, 'budget'> {
  const gpuText = values.budget as string | undefined;
  const wallText = values['budget-wall'] as string | undefined;
  if (gpuText === undefined && wallText === undefined) return {};
  const gpuHours = optionalNumberArg('--budget', gpuText, { min: 0, exclusiveMin: true, unit: 'host GPU-hours' });
  let wallS: number | undefined;
  if (wallText !== undefined) {
    wallS = parseDurationText(wallText);
    if (wallS === undefined) throw new UserError(`--budget-wall must be a duration such as 2h, 90m or 1h30m, got '${wallText}'`);
  }
  return { budget: { ...(gpuHours !== undefined ? { gpuHours } : {}), ...(wallS !== undefined ? { wallS } : {}) } };
}
