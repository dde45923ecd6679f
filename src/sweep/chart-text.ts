// The frontier as a terminal chart in braille (2 x 4 dots a cell): one line per series, a marker
// glyph at each measured point, axes with units, a legend. Pure: series in, lines out, so the Ink
// component, the headless command and tests share it. Written here because no well-kept npm
// package fits: asciichart (1.5.25) plots y against index only (no x values, no legend, no
// braille); drawille (2.0.2) is CommonJS with no axes or legend and unmaintained.
import { niceAxis, tickLabel, X_LABEL, Y_LABEL, type Axis, type ChartSeries } from './chart-scale.js';

/** Marker glyphs, one per series in order (measured points). */
export const MARKERS = ['●', '■', '▲', '◆', '✚', '★', '○', '□'];
/** The glyph of a point that breaks the SLO, whatever its series (its colour tells the series). */
export const BROKEN = '×';

export interface ChartCell {
  ch: string;
  /** Series that drew this cell (for colour), -1 for axes and text. */
  series: number;
}

const DOT = [
  [0x01, 0x08],
  [0x02, 0x10],
  [0x04, 0x20],
  [0x40, 0x80],
];

interface Plot {
  cols: number;
  rows: number;
  bits: Uint8Array;
  owner: Int16Array;
  /** Cell -> series index and whether the point there breaks the SLO. */
  marks: Map<number, { series: number; broken: boolean }>;
}

function dot(p: Plot, dx: number, dy: number, s: number): void {
  if (dx < 0 || dy < 0 || dx >= p.cols * 2 || dy >= p.rows * 4) return;
  const cell = Math.floor(dy / 4) * p.cols + Math.floor(dx / 2);
  p.bits[cell]! |= DOT[dy % 4]![dx % 2]!;
  p.owner[cell] = s;
}

/** Bresenham between two dot positions. */
function line(p: Plot, x0: number, y0: number, x1: number, y1: number, s: number): void {
  const dx = Math.abs(x1 - x0);
  const dy = -Math.abs(y1 - y0);
  const sx = x0 < x1 ? 1 : -1;
  const sy = y0 < y1 ? 1 : -1;
  let err = dx + dy;
  for (;;) {
    dot(p, x0, y0, s);
    if (x0 === x1 && y0 === y1) return;
    const e2 = 2 * err;
    if (e2 >= dy) ((err += dy), (x0 += sx));
    if (e2 <= dx) ((err += dx), (y0 += sy));
  }
}

function plotSeries(p: Plot, series: readonly ChartSeries[], xa: Axis, ya: Axis): void {
  const toDot = (x: number, y: number): [number, number] => [
    Math.round(((x - xa.min) / (xa.max - xa.min)) * (p.cols * 2 - 1)),
    Math.round((1 - (y - ya.min) / (ya.max - ya.min)) * (p.rows * 4 - 1)),
  ];
  series.forEach((s, i) => {
    const pts = s.points.filter((q) => Number.isFinite(q.x) && Number.isFinite(q.y)).map((q) => toDot(q.x, q.y));
    for (let k = 1; k < pts.length; k++) line(p, ...pts[k - 1]!, ...pts[k]!, i);
    if (pts.length === 1) dot(p, ...pts[0]!, i);
  });
  // Markers last, so a measured point is never hidden under another series' line.
  series.forEach((s, i) => {
    if (s.lineOnly) return;
    for (const q of s.points) {
      if (!Number.isFinite(q.x) || !Number.isFinite(q.y)) continue;
      const [dx, dy] = toDot(q.x, q.y);
      p.marks.set(Math.floor(dy / 4) * p.cols + Math.floor(dx / 2), { series: i, broken: q.broken === true });
    }
  });
}

function legendText(series: readonly ChartSeries[], width: number): ChartCell[][] {
  const rows: ChartCell[][] = [[]];
  let marker = 0;
  series.forEach((s, i) => {
    const glyph = s.lineOnly ? '⠉⠉' : MARKERS[marker++ % MARKERS.length]!;
    const item = `${glyph} ${s.name}`;
    let row = rows[rows.length - 1]!;
    if (row.length && row.length + 2 + [...item].length > width) rows.push((row = []));
    if (row.length) row.push(...text('  ', -1));
    row.push(...text(glyph, i), ...text(` ${s.name}`.slice(0, Math.max(0, width - row.length - 2)), -1));
  });
  if (series.some((s) => s.points.some((q) => q.broken))) {
    const item = `${BROKEN} breaks the SLO`;
    const row = rows[rows.length - 1]!;
    if (row.length + 2 + item.length > width) rows.push(text(item, -1));
    else row.push(...text(`  ${item}`, -1));
  }
  return rows;
}

const text = (s: string, series: number): ChartCell[] => [...s].map((ch) => ({ ch, series }));

/**
 * The chart as cells (for colour) at `width` x `height` characters. The plot takes what the
 * y labels, the axis, the tick labels and the legend leave; below 30 x 8 the chart is a note.
 */
export function renderChartCells(series: readonly ChartSeries[], width: number, height: number): ChartCell[][] {
  const xs = series.flatMap((s) => s.points.map((p) => p.x));
  const ys = series.flatMap((s) => s.points.map((p) => p.y));
  const legend = legendText(series, width);
  if (width < 30 || height < 9 + legend.length || xs.length === 0) {
    return [text(xs.length ? `(chart needs 30 x ${9 + legend.length} characters)` : '(no measured points to chart)', -1)];
  }
  const ya = niceAxis(ys, Math.max(2, Math.min(6, Math.floor((height - 5 - legend.length) / 3))));
  const yLabels = ya.ticks.map((t) => tickLabel(t, ya.step));
  const lw = Math.max(...yLabels.map((l) => l.length));
  const cols = width - lw - 2;
  const xa = niceAxis(xs, Math.max(2, Math.min(10, Math.floor(cols / 10))), false);
  const rows = height - 4 - legend.length;
  const p: Plot = { cols, rows, bits: new Uint8Array(cols * rows), owner: new Int16Array(cols * rows).fill(-1), marks: new Map() };
  plotSeries(p, series, xa, ya);

  const out: ChartCell[][] = [text(`${Y_LABEL}`.padEnd(width).slice(0, width), -1)];
  const tickRow = (t: number) => Math.round((1 - (t - ya.min) / (ya.max - ya.min)) * (rows - 1));
  const labelAt = new Map(ya.ticks.map((t, i) => [tickRow(t), yLabels[i]!]));
  const markerOf = markerIndex(series);
  for (let r = 0; r < rows; r++) {
    const label = labelAt.get(r);
    const row = text(`${(label ?? '').padStart(lw)} ${label !== undefined ? '┤' : '│'}`, -1);
    for (let c = 0; c < cols; c++) {
      const i = r * cols + c;
      const m = p.marks.get(i);
      if (m !== undefined) row.push({ ch: m.broken ? BROKEN : MARKERS[markerOf[m.series]! % MARKERS.length]!, series: m.series });
      else row.push(p.bits[i] ? { ch: String.fromCodePoint(0x2800 + p.bits[i]!), series: p.owner[i]! } : { ch: ' ', series: -1 });
    }
    out.push(row);
  }
  out.push(...xAxis(xa, lw, cols, width));
  out.push(...legend);
  return out;
}

/** Marker number of each series (line-only series take none). */
function markerIndex(series: readonly ChartSeries[]): number[] {
  let k = 0;
  return series.map((s) => (s.lineOnly ? -1 : k++));
}

function xAxis(xa: Axis, lw: number, cols: number, width: number): ChartCell[][] {
  const axis = [...`${' '.repeat(lw)} └${'─'.repeat(cols)}`];
  const labels = Array.from({ length: width }, () => ' ');
  let free = 0;
  for (const t of xa.ticks) {
    const c = lw + 2 + Math.round(((t - xa.min) / (xa.max - xa.min)) * (cols - 1));
    if (c < axis.length) axis[c] = '┬';
    const l = tickLabel(t, xa.step);
    const start = Math.min(width - l.length, Math.max(free, c - Math.floor(l.length / 2)));
    if (start < free) continue;
    [...l].forEach((ch, k) => (labels[start + k] = ch));
    free = start + l.length + 1;
  }
  // The unit on its own line, right-aligned under the axis, so no tick label is given up for it.
  return [text(axis.join(''), -1), text(labels.join('').slice(0, width), -1), text(`${X_LABEL} →`.padStart(width).slice(-width), -1)];
}

/** The chart as plain lines of at most `width` characters, `height` lines at most. */
export function renderChart(series: readonly ChartSeries[], width: number, height: number): string[] {
  return renderChartCells(series, width, height).map((row) =>
    row
      .map((c) => c.ch)
      .join('')
      .trimEnd(),
  );
}
