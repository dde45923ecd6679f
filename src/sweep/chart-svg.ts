// The frontier as a standalone SVG file for the report: same axes as the terminal chart
// (chart-scale.ts), one coloured line and marker shape per variant, the Pareto frontier as a grey band beneath,
// a legend, and a <title> on each point (its load) for browsers. Plain SVG 1.1 with a white
// background and no scripts or external fonts, because code-hosting sites show SVG images
// sandboxed. Hand-written: a charting library (Vega, Plotly, Chart.js) needs a DOM or canvas
// at render time, which the headless core has not; this is a few primitives.
import { niceAxis, tickLabel, X_LABEL, Y_LABEL, type ChartSeries } from './chart-scale.js';

/** Colour-blind-safe palette (Okabe-Ito), one per variant in order. */
export const PALETTE = ['#0072B2', '#E69F00', '#009E73', '#CC79A7', '#D55E00', '#56B4E9', '#F0E442', '#000000'];

export interface SvgOptions {
  title: string;
  subtitle?: string;
  width?: number;
  height?: number;
  /** Per point tooltips, by series then point index (e.g. "64 concurrent"). */
  pointTitles?: string[][];
  /** Short labels drawn beside each point (e.g. the concurrency "64"), by series then point. */
  pointLabels?: string[][];
  /** The chosen point, ringed and captioned (e.g. "chosen for tpot:p99<60: 64 concurrent"). */
  highlight?: { x: number; y: number; text: string };
}

/** The frontier band's colour (grey: it belongs to no one variant). */
const FRONTIER = '#9a9a9a';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const r1 = (n: number) => Math.round(n * 10) / 10;

function marker(shape: number, x: number, y: number, color: string, title?: string, hollow = false): string {
  const t = title ? `<title>${esc(title)}</title>` : '';
  const s = 5;
  const attrs = hollow ? `fill="#ffffff" stroke="${color}" stroke-width="2"` : `fill="${color}" stroke="#ffffff" stroke-width="1"`;
  switch (shape % 4) {
    case 0:
      return `<circle cx="${r1(x)}" cy="${r1(y)}" r="${s}" ${attrs}>${t}</circle>`;
    case 1:
      return `<rect x="${r1(x - s)}" y="${r1(y - s)}" width="${2 * s}" height="${2 * s}" ${attrs}>${t}</rect>`;
    case 2:
      return `<polygon points="${r1(x)},${r1(y - s - 1)} ${r1(x + s + 1)},${r1(y + s)} ${r1(x - s - 1)},${r1(y + s)}" ${attrs}>${t}</polygon>`;
    default:
      return `<polygon points="${r1(x)},${r1(y - s - 1)} ${r1(x + s + 1)},${r1(y)} ${r1(x)},${r1(y + s + 1)} ${r1(x - s - 1)},${r1(y)}" ${attrs}>${t}</polygon>`;
  }
}

/** The chart as an SVG document. */
export function renderSvg(series: readonly ChartSeries[], o: SvgOptions): string {
  const W = o.width ?? 900;
  const H = o.height ?? 560;
  const m = { left: 80, right: 24, top: o.subtitle ? 64 : 44, bottom: 92 };
  const pw = W - m.left - m.right;
  const ph = H - m.top - m.bottom;
  const xa = niceAxis(
    series.flatMap((s) => s.points.map((p) => p.x)),
    8,
    false,
  );
  const ya = niceAxis(
    series.flatMap((s) => s.points.map((p) => p.y)),
    6,
  );
  const X = (x: number) => m.left + ((x - xa.min) / (xa.max - xa.min)) * pw;
  const Y = (y: number) => m.top + (1 - (y - ya.min) / (ya.max - ya.min)) * ph;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${m.left}" y="24" font-size="16" font-weight="bold" fill="#111111">${esc(o.title)}</text>`,
  ];
  if (o.subtitle) out.push(`<text x="${m.left}" y="44" fill="#555555">${esc(o.subtitle)}</text>`);
  for (const t of ya.ticks) {
    out.push(`<line x1="${m.left}" x2="${m.left + pw}" y1="${r1(Y(t))}" y2="${r1(Y(t))}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${m.left - 8}" y="${r1(Y(t) + 4)}" text-anchor="end" fill="#333333">${tickLabel(t, ya.step)}</text>`);
  }
  for (const t of xa.ticks) {
    out.push(`<line x1="${r1(X(t))}" x2="${r1(X(t))}" y1="${m.top}" y2="${m.top + ph}" stroke="#f0f0f0"/>`);
    out.push(`<text x="${r1(X(t))}" y="${m.top + ph + 18}" text-anchor="middle" fill="#333333">${tickLabel(t, xa.step)}</text>`);
  }
  out.push(`<rect x="${m.left}" y="${m.top}" width="${pw}" height="${ph}" fill="none" stroke="#888888"/>`);
  out.push(`<text x="${m.left + pw / 2}" y="${m.top + ph + 40}" text-anchor="middle" fill="#111111">${esc(X_LABEL)}</text>`);
  out.push(`<text transform="translate(20 ${m.top + ph / 2}) rotate(-90)" text-anchor="middle" fill="#111111">${esc(Y_LABEL)}</text>`);
  out.push(...seriesSvg(series, X, Y, o.pointTitles, o.pointLabels));
  if (o.highlight) {
    const hx = X(o.highlight.x);
    const hy = Y(o.highlight.y);
    // Caption to the left of the ring when the point is in the right half, so it stays inside.
    const left = hx > m.left + pw / 2;
    out.push(`<circle cx="${r1(hx)}" cy="${r1(hy)}" r="11" fill="none" stroke="#111111" stroke-width="1.5"/>`);
    out.push(
      `<text x="${r1(hx + (left ? -16 : 16))}" y="${r1(hy - 12)}" text-anchor="${left ? 'end' : 'start'}" font-weight="bold" fill="#111111" stroke="#ffffff" stroke-width="4" paint-order="stroke">${esc(o.highlight.text)}</text>`,
    );
  }
  out.push(...legendSvg(series, m.left, H - 30, pw));
  out.push('</svg>');
  return out.join('\n') + '\n';
}

function seriesSvg(
  series: readonly ChartSeries[],
  X: (x: number) => number,
  Y: (y: number) => number,
  titles?: string[][],
  labels?: string[][],
): string[] {
  const out: string[] = [];
  const under: string[] = [];
  let k = 0;
  series.forEach((s, i) => {
    const pts = s.points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
    const path = pts.map((p) => `${r1(X(p.x))},${r1(Y(p.y))}`).join(' ');
    const color = s.lineOnly ? FRONTIER : PALETTE[k % PALETTE.length]!;
    // The frontier is a wide pale band under the variants' lines: visible where it follows one.
    const style = s.lineOnly ? `stroke-width="9" stroke-opacity="0.45" stroke-linejoin="round" stroke-linecap="round"` : 'stroke-width="2"';
    if (pts.length > 1) (s.lineOnly ? under : out).push(`<polyline points="${path}" fill="none" stroke="${color}" ${style}/>`);
    if (!s.lineOnly) {
      s.points.forEach((p, j) => {
        if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) return;
        out.push(marker(k, X(p.x), Y(p.y), color, titles?.[i]?.[j], p.broken === true));
        // Below and left of the point: frontier curves fall to the right, so that side is clear.
        const l = labels?.[i]?.[j];
        if (l)
          out.push(`<text x="${r1(X(p.x) - 8)}" y="${r1(Y(p.y) + 16)}" text-anchor="end" font-size="11" fill="${color}">${esc(l)}</text>`);
      });
      k++;
    }
  });
  return [...under, ...out];
}

function legendSvg(series: readonly ChartSeries[], x0: number, y: number, width: number): string[] {
  const out: string[] = [];
  let x = x0;
  let k = 0;
  let row = 0;
  for (const s of series) {
    const w = 34 + s.name.length * 7;
    if (x + w > x0 + width && x > x0) ((x = x0), row++);
    const yy = y + row * 18;
    if (s.lineOnly)
      out.push(
        `<line x1="${x}" x2="${x + 22}" y1="${yy}" y2="${yy}" stroke="${FRONTIER}" stroke-width="9" stroke-opacity="0.45" stroke-linecap="round"/>`,
      );
    else {
      const color = PALETTE[k % PALETTE.length]!;
      out.push(`<line x1="${x}" x2="${x + 22}" y1="${yy}" y2="${yy}" stroke="${color}" stroke-width="2"/>`, marker(k, x + 11, yy, color));
      k++;
    }
    out.push(`<text x="${x + 28}" y="${yy + 4}" fill="#111111">${esc(s.name)}</text>`);
    x += w;
  }
  if (series.some((s) => s.points.some((p) => p.broken))) {
    out.push(
      marker(0, x + 6, y + row * 18, '#555555', undefined, true),
      `<text x="${x + 18}" y="${y + row * 18 + 4}" fill="#111111">hollow: breaks the SLO</text>`,
    );
  }
  return out;
}
