// Seconds as every view prints a duration, in two styles: the clock (the plan's estimates, the
// TUI's panels and tables) and the rounded unit a cost line reads in; and a typed duration parsed.

/** Seconds as the screens print them: 9.5s, 42s, 3m05s, 1h12m. */
export function durationText(s: number | null | undefined): string {
  if (s === null || s === undefined || !Number.isFinite(s) || s < 0) return '-';
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.round(s)}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}

/** Seconds rounded to one unit, as the cost lines print them: 42 s, 3 min, 1.5 h. */
export function roundedDurationText(s: number): string {
  if (s < 90) return `${s.toFixed(0)} s`;
  if (s < 5400) return `${(s / 60).toFixed(0)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

const UNIT_S: Record<string, number> = { h: 3600, m: 60, s: 1 };

/** A duration the user types, '2h', '90m', '1h30m', '45s', as seconds; undefined when it is not one (a bare number has no unit). */
export function parseDurationText(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (!/^(\d+(\.\d+)?[hms])+$/.test(t)) return undefined;
  let s = 0;
  for (const m of t.matchAll(/(\d+(?:\.\d+)?)([hms])/g)) s += Number(m[1]) * UNIT_S[m[2]!]!;
  return s > 0 ? s : undefined;
}
