// `--quality N`, `--quality-floor X` and `--quality-eval FILE` of `servelab --auto`,
// checked when the flags are read: a bad number or eval file is bad input (exit 2) before
// anything is planned. Absent when --quality is not given, so the config and plan stay as before.
import { resolve } from 'node:path';
import { UserError } from '../../core/errors.js';
import { readQualityEval } from '../../quality/greedy.js';
import type { SessionConfig } from '../config/config.js';
import { optionalNumberArg } from '../../core/number-arg.js';

export function qualityFlags(values: Record<string, unknown>): Pick<SessionConfig, 'quality'> {
  const str = (k: string) => values[k] as string | undefined;
  const n = optionalNumberArg('--quality', str('quality'), { integer: true, min: 1, max: 10000 });
  if (n === undefined) {
    for (const f of ['quality-floor', 'quality-eval']) if (str(f) !== undefined) throw new UserError(`--${f} needs --quality N`);
    return {};
  }
  const floor = optionalNumberArg('--quality-floor', str('quality-floor'), { min: 0, max: 1 });
  const file = str('quality-eval');
  if (file !== undefined) readQualityEval(file);
  return { quality: { prompts: n, ...(floor !== undefined ? { floor } : {}), ...(file !== undefined ? { eval: resolve(file) } : {}) } };
}
