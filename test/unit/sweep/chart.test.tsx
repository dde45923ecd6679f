// The terminal chart at fixed sizes, checked on what a reader sees (axes, units, legend, one
// marker per point, fits the box), not on bytes; and the SVG on its elements.
import React from 'react';
import { describe, expect, it } from 'vitest';
import { LiveSweep, FrontierChart } from '../../../src/tui/components/FrontierChart.js';
import { analyseSweeps, chartSeries } from '../../../src/sweep/analyse.js';
import { renderSvg } from '../../../src/sweep/chart-svg.js';
import { MARKERS, renderChart } from '../../../src/sweep/chart-text.js';
import { render } from '../../helpers/render.js';
import { sweep } from '../../helpers/sweep/points.js';

const sweeps = [
  sweep('a', 'sglang fp8 dp-attn', [
    [1, 800, 8, 9],
    [8, 6000, 10, 12],
    [64, 14800, 20, 38],
    [512, 20000, 50, 90],
  ]),
  sweep('b', 'vllm baseline', [
    [1, 700, 9, 10],
    [8, 5000, 11, 12],
    [64, 12000, 30, 55],
    [512, 16000, 80, 95],
  ]),
];
const { series } = chartSeries(sweeps, analyseSweeps(sweeps, 8, []));
const count = (s: string, ch: string) => [...s].filter((c) => c === ch).length;

describe('renderChart', () => {
  it.each([
    [80, 24],
    [60, 16],
    [200, 50],
  ])('at %i x %i: fits, has both axes with units, ticks, a legend and every point', (w, h) => {
    const lines = renderChart(series, w, h);
    expect(lines.length).toBeLessThanOrEqual(h);
    expect(Math.max(...lines.map((l) => [...l].length))).toBeLessThanOrEqual(w);
    const text = lines.join('\n');
    expect(lines[0]).toBe('output tok/s/GPU');
    expect(text).toContain('tok/s/user (1000 / mean TPOT) →');
    // y ticks from 0 to at least the highest tok/s/GPU (2,500), x ticks from 0.
    expect(text).toMatch(/^ +0 ┤/m);
    expect(text).toMatch(/^ *(2\.5|3)k ┤/m);
    expect(text).toMatch(/└┬─+┬/);
    expect(lines.find((l) => l.includes('└'))).toBeDefined();
    const legend = lines.slice(-2).join(' ');
    expect(legend).toContain(`${MARKERS[0]} sglang fp8 dp-attn`);
    expect(legend).toContain(`${MARKERS[1]} vllm baseline`);
    expect(legend).toContain('Pareto frontier');
    // One marker per measured point (no two points share a cell at these sizes).
    const plot = lines.slice(1, -4).join('\n');
    expect(count(plot, MARKERS[0]!)).toBe(4);
    expect(count(plot, MARKERS[1]!)).toBe(4);
    expect(plot).toMatch(/[\u2801-\u28ff]/);
  });

  it('puts a higher tok/s/GPU higher up and a higher tok/s/user further right', () => {
    const lines = renderChart(
      [
        {
          name: 's',
          points: [
            { x: 10, y: 100 },
            { x: 90, y: 900 },
          ],
        },
      ],
      60,
      16,
    );
    const marks = lines.slice(0, -1).flatMap((l, r) => [...l].flatMap((c, col) => (c === '●' ? [{ r, col }] : [])));
    expect(marks).toHaveLength(2);
    const [low, high] = [...marks].sort((p, q) => p.col - q.col);
    expect(high!.r).toBeLessThan(low!.r);
  });

  it('says what it needs when the box is too small, and when nothing was measured', () => {
    expect(renderChart(series, 20, 5)).toEqual([expect.stringMatching(/^\(chart needs 30 x \d+ characters\)$/)]);
    expect(renderChart(series.slice(0, 1), 80, 9)).toEqual(['(chart needs 30 x 10 characters)']);
    expect(renderChart([], 80, 24)).toEqual(['(no measured points to chart)']);
  });
});

describe('FrontierChart (Ink)', () => {
  it('draws the same chart in a terminal of 80 x 24', () => {
    const r = render(<FrontierChart series={series} width={80} height={20} />, { columns: 80, rows: 24 });
    expect(r.frame().split('\n')).toEqual(renderChart(series, 80, 20));
    r.unmount();
  });

  it('LiveSweep uses the room a 200 x 50 terminal gives', () => {
    const r = render(<LiveSweep title="sweep concurrency:1,8,64,512" status="benchmarking" series={series} />, { columns: 200, rows: 50 });
    const lines = r.frame().split('\n');
    expect(lines[0]).toBe('sweep concurrency:1,8,64,512');
    expect(lines.length).toBeGreaterThan(40);
    expect(Math.max(...lines.map((l) => l.length))).toBeGreaterThan(150);
    r.unmount();
  });
});

describe('renderSvg', () => {
  it('has the title, both axis labels, a path per variant, a marker per point and the legend', () => {
    const svg = renderSvg(series, { title: 'DeepSeek <R1> on 8 x H200', subtitle: 'SLO tpot:p99<60' });
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('DeepSeek &lt;R1&gt; on 8 x H200');
    expect(svg).toContain('SLO tpot:p99&lt;60');
    expect(svg).toContain('>tok/s/user (1000 / mean TPOT)</text>');
    expect(svg).toContain('>output tok/s/GPU</text>');
    expect(svg.match(/<polyline /g)).toHaveLength(3);
    // 8 points + 2 legend markers: circles for the first variant, squares for the second.
    expect(svg.match(/<circle /g)).toHaveLength(5);
    expect(svg.match(/<rect x=/g)!.length).toBeGreaterThanOrEqual(5);
    expect(svg).toContain('>Pareto frontier</text>');
    expect(svg).not.toMatch(/<script|href=/);
  });
});

describe('axis labels', () => {
  it('carry as many decimals as the tick step needs, with k and M for large values', async () => {
    const { tickLabel, niceAxis } = await import('../../../src/sweep/chart-scale.js');
    expect(tickLabel(1500, 500)).toBe('1.5k');
    expect(tickLabel(2000, 1000)).toBe('2k');
    expect(tickLabel(123.4, 0.2)).toBe('123.4');
    expect(tickLabel(0, 0.2)).toBe('0.0');
    const x = niceAxis([123.3, 124.9], 8, false);
    // Close values spread over the axis instead of sharing one label.
    expect(new Set(x.ticks.map((t) => tickLabel(t, x.step))).size).toBe(x.ticks.length);
    expect(x.min).toBeGreaterThan(100);
    expect(niceAxis([10, 2600], 5).ticks).toEqual([0, 1000, 2000, 3000]);
    expect(niceAxis([10, 2600], 8).ticks).toEqual([0, 500, 1000, 1500, 2000, 2500, 3000]);
  });
});

describe('points that break the SLO', () => {
  it('are × in the terminal and hollow in the SVG, with a legend entry in both', async () => {
    const { parseSlo } = await import('../../../src/core/slo-rule.js');
    const { BROKEN } = await import('../../../src/sweep/chart-text.js');
    // p99 TPOT of the 512 points is 90 and 95 ms: both break tpot:p99<60, nothing else does.
    const s = chartSeries(sweeps, analyseSweeps(sweeps, 8, parseSlo('tpot:p99<60'))).series;
    const lines = renderChart(s, 80, 24);
    expect(count(lines.slice(1, -4).join('\n'), BROKEN)).toBe(2);
    expect(count(lines.slice(1, -4).join('\n'), MARKERS[0]!)).toBe(3);
    expect(lines.slice(-2).join(' ')).toContain(`${BROKEN} breaks the SLO`);
    const svg = renderSvg(s, { title: 't' });
    expect(svg.match(/fill="#ffffff" stroke="#/g)).toHaveLength(3); // two points and the legend's sample
    expect(svg).toContain('>hollow: breaks the SLO</text>');
  });
});
