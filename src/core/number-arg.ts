// The one check for a number the user types: a flag value (--margin 2) or a saved setting
// (servelab config set margin 2). Bad input is a UserError (exit 2) that says what to type.
import { UserError } from './errors.js';

export interface NumberRange {
  integer?: boolean;
  /** Lowest allowed value (default 0). */
  min?: number;
  /** `min` itself is not allowed (for "> 0"). */
  exclusiveMin?: boolean;
  max?: number;
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
    const what = range.integer ? 'a whole number' : 'a number';
    const limits = `${range.exclusiveMin ? '>' : '>='} ${min}${range.max !== undefined ? ` and <= ${range.max}` : ''}`;
    throw new UserError(`${name} must be ${what} ${limits}, got '${text}'`);
  }
  return n;
}
