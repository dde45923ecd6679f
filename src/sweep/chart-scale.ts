// Axis scales shared by the terminal chart and the SVG chart: "nice" ticks (1, 2, 5 x 10^k)
// and compact labels, so both pictures of one sweep show the same axes.

export interface ChartPoint {
  x: number;
  y: number;
}

export interface ChartSeries {
  name: string;
  points: ChartPoint[];
  /** Draw only the line, no markers (the frontier overlay). */
  lineOnly?: boolean;
}

export interface Axis {
  min: number;
  max: number;
  ticks: number[];
}

/** A step of 1, 2 or 5 x 10^k that gives about `count` intervals over `span`. */
function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/** An axis from 0 (throughputs start at zero) to a nice bound above the largest value. */
export function niceAxis(values: readonly number[], tickCount: number): Axis {
  const finite = values.filter((v) => Number.isFinite(v));
  const hi = finite.length ? Math.max(...finite) : 1;
  const max = hi > 0 ? hi : 1;
  const step = niceStep(max, tickCount);
  const top = Math.ceil(max / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let t = 0; t <= top + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  return { min: 0, max: top, ticks };
}

/** 950, 1.9k, 12k, 1.2M: short enough for a terminal axis. */
export function compact(n: number): string {
  const a = Math.abs(n);
  if (a >= 1e6) return `${trim(n / 1e6)}M`;
  if (a >= 1e3) return `${trim(n / 1e3)}k`;
  return trim(n);
}

function trim(n: number): string {
  const s = Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 10 ? n.toFixed(1) : n.toFixed(2);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

export const X_LABEL = 'tok/s/user (1000 / mean TPOT)';
export const Y_LABEL = 'output tok/s/GPU';
