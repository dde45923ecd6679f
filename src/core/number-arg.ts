// The one check for a number the user types: a flag value (--margin 2), a saved setting
// (servelab config set margin 2) or a workbench form field. Bad input is a UserError (exit 2) that
// says what to type, in one wording everywhere: "<name> must be a whole number >= 1, got '0'".
// (sim-serve's own parser, src/cli/sim-serve-args.ts, keeps Python argparse's wording on purpose.)
import { UserError } from './errors.js';

export interface NumberRange {
  integer?: boolean;
  /** Lowest allowed value (default 0). */
  min?: number;
  /** `min` itself is not allowed (for "> 0"). */
  exclusiveMin?: boolean;
  max?: number;
  /** What the number counts, for the message: 'seconds' gives "a number of seconds >= 0". */
  unit?: string;
}

/** `text` as a number within `range`; `name` is how the user wrote it (`--margin` or `margin`). */
export function parseNumberArg(name: string, text: string, range: NumberRange = {}): number {
  const n = Number(text);
  const min = range.min ?? 0;
  const bad =
    text.trim() === '' ||
    !Number.isFinite(n) ||
    (range.exclusiveMin ? n <= min : n < min) ||
    (range.max !== undefined && n > range.max) ||
    (range.integer === true && !Number.isInteger(n));
  if (bad) {
    const what = `${range.integer ? 'a whole number' : 'a number'}${range.unit ? ` of ${range.unit}` : ''}`;
    const limits = `${range.exclusiveMin ? '>' : '>='} ${min}${range.max !== undefined ? ` and <= ${range.max}` : ''}`;
    throw new UserError(`${name} must be ${what} ${limits}, got '${text}'`);
  }
  return n;
}

/** parseNumberArg for an input that may be absent: undefined stays undefined. */
export function optionalNumberArg(name: string, text: string | undefined, range: NumberRange = {}): number | undefined {
  return text === undefined ? undefined : parseNumberArg(name, text, range);
}
