// Number and percent text: the one owner of how a figure becomes a string in the headless text,
// the report and the command lines. A view picks its decimals and its "none" mark; the rules
// (finite check, sign, percent of a fraction) live here once. The TUI's grouped numbers
// (12,345 tok/s) are tui/base/format.ts.

/** A number with `digits` decimals; `none` when there is none (absent, NaN or infinite). */
export function num(n: number | null | undefined, digits = 1, none = '-'): string {
  return typeof n === 'number' && Number.isFinite(n) ? n.toFixed(digits) : none;
}

/** A percentage with its sign, +4.2% or -3.0% (zero counts as +); `none` when there is none. */
export function signedPct(p: number | null | undefined, digits = 1, none = '-'): string {
  return typeof p === 'number' && Number.isFinite(p) ? `${p >= 0 ? '+' : ''}${p.toFixed(digits)}%` : none;
}

/** A fraction as a percentage, 0.123 as 12%; `none` when there is none. */
export function fractionPct(x: number | null | undefined, digits = 0, none = '-'): string {
  return typeof x === 'number' && Number.isFinite(x) ? `${(x * 100).toFixed(digits)}%` : none;
}

/** A fraction as a percent figure rounded to one decimal (0.1234 as 12.3), for a saved record; null when there is none. */
export function pctFigure(x: number): number | null {
  return Number.isFinite(x) ? Math.round(x * 1000) / 10 : null;
}
