// Axis scales shared by the terminal chart and the SVG chart: "nice" ticks (1, 2, 5 x 10^k)
// and compact labels, so both pictures of one sweep show the same axes.

export interface ChartPoint {
  x: number;
  y: number;
  /** The point breaks the SLO: drawn as × in the terminal, hollow in the SVG. */
  broken?: boolean;
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
  step: number;
  ticks: number[];
}

/** A step of 1, 2 or 5 x 10^k that gives about `count` intervals over `span`. */
function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const f = raw / mag;
  return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * mag;
}

/**
 * An axis over the values with nice bounds. `fromZero` (throughput) starts it at 0; otherwise it
 * starts at a nice value below the least, so points bunched far from 0 still spread out.
 */
export function niceAxis(values: readonly number[], tickCount: number, fromZero = true): Axis {
  const finite = values.filter((v) => Number.isFinite(v));
  const hi = finite.length ? Math.max(...finite) : 1;
  const lo = fromZero || !finite.length ? 0 : Math.min(...finite);
  const max = hi > lo ? hi : lo + Math.max(1, Math.abs(lo) * 0.1);
  const step = niceStep(max - lo, tickCount);
  const bottom = Math.max(0, Math.floor(lo / step + 1e-9) * step);
  const top = Math.ceil(max / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let t = bottom; t <= top + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  return { min: bottom, max: top, step, ticks };
}

/** A tick's label with as many decimals as the step needs: 0, 500, 1.5k, 2k, 123.4. */
export function tickLabel(t: number, step: number): string {
  const [div, suffix] = Math.abs(t) >= 1e6 && step >= 1e5 ? [1e6, 'M'] : Math.abs(t) >= 1e3 && step >= 100 ? [1e3, 'k'] : [1, ''];
  const decimals = Math.max(0, Math.ceil(-Math.log10(step / div) - 1e-9));
  return `${(t / div).toFixed(decimals)}${t === 0 ? '' : suffix}`;
}

export const X_LABEL = 'tok/s/user (1000 / mean TPOT)';
export const Y_LABEL = 'output tok/s/GPU';
