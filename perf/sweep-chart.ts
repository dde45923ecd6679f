// Renders the sweep chart as SVG (from a profile's `sweep` section, or from scripted points when
// none is given) and screenshots it with headless Chromium (Debian package `chromium`), so a
// person can look at what a browser shows. Writes .bench-out/sweep-chart.svg and .png and prints
// their sizes and how long each step took.
// Usage: npx tsx perf/sweep-chart.ts [PROFILE.json]
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadProfile } from '../src/profiles/store/store.js';
import { parseSlo } from '../src/core/slo-rule.js';
import { analyseSweeps, chartSeries } from '../src/sweep/analyse.js';
import { renderSvg } from '../src/sweep/chart-svg.js';
import { sweepsOf } from '../src/sweep/record.js';
import type { VariantSweep } from '../src/sweep/types.js';

const OUT = resolve('.bench-out');

/** Two made-up variants (not measurements): the shape a sweep of two variants has. */
function scripted(): { sweeps: VariantSweep[]; gpus: number; title: string } {
  const variant = (id: string, label: string, rows: [number, number, number][]): VariantSweep => ({
    variantId: id,
    label,
    points: rows.map(([c, out, tpot]) => ({
      load: { kind: 'concurrency', value: c },
      scenario: `x@c${c}`,
      numPrompts: 100,
      status: 'ok',
      metrics: {
        completed: 100,
        output_throughput: out,
        mean_tpot_ms: tpot,
        p99_tpot_ms: tpot * 1.5,
        median_ttft_ms: 40,
        p99_ttft_ms: 90,
        request_goodput: null,
      },
      violations: [],
    })),
  });
  return {
    gpus: 8,
    title: 'Scripted points (not measured): two variants, 8 GPUs',
    sweeps: [
      variant('a', 'sglang fp8 dp-attn', [
        [1, 700, 9],
        [8, 4800, 11],
        [32, 14800, 15],
        [128, 30000, 31],
        [512, 41000, 95],
      ]),
      variant('b', 'vllm baseline', [
        [1, 600, 10],
        [8, 4200, 12.5],
        [32, 12000, 19],
        [128, 22000, 44],
        [512, 27000, 140],
      ]),
    ],
  };
}

function fromProfile(file: string): { sweeps: VariantSweep[]; gpus: number; title: string; slo: string } {
  const p = loadProfile(file);
  if (!p.sweep) throw new Error(`${file} has no sweep section; run servelab sweep first`);
  return {
    sweeps: sweepsOf(p.sweep),
    gpus: p.sweep.gpus,
    title: `${p.model} on ${p.host.gpuCount} x ${p.host.gpuName}: sweep ${p.sweep.spec}`,
    slo: p.sweep.slo,
  };
}

function main(): void {
  const arg = process.argv[2];
  const input = arg ? fromProfile(arg) : { ...scripted(), slo: 'tpot:p99<40' };
  const t0 = performance.now();
  const a = analyseSweeps(input.sweeps, input.gpus, input.slo ? parseSlo(input.slo) : []);
  const { series, titles, labels } = chartSeries(input.sweeps, a);
  const c = a.choice?.point;
  const svg = renderSvg(series, {
    title: input.title,
    subtitle: input.slo ? `SLO ${input.slo}` : 'output tok/s per GPU against tok/s per user',
    pointTitles: titles,
    pointLabels: labels,
    ...(c
      ? {
          highlight: { x: c.tokPerUser, y: c.tokPerGpu, text: `chosen${input.slo ? ` for ${input.slo}` : ''}: ${c.load.value} concurrent` },
        }
      : {}),
  });
  const renderMs = performance.now() - t0;
  mkdirSync(OUT, { recursive: true });
  const svgFile = join(OUT, 'sweep-chart.svg');
  const pngFile = join(OUT, 'sweep-chart.png');
  writeFileSync(svgFile, svg);
  const t1 = performance.now();
  execFileSync(
    'chromium',
    ['--headless', '--no-sandbox', '--disable-gpu', `--screenshot=${pngFile}`, '--window-size=900,600', `file://${svgFile}`],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 60_000,
    },
  );
  const shotMs = performance.now() - t1;
  console.log(`svg  ${svgFile}: ${statSync(svgFile).size} bytes, ${series.length} series, rendered in ${renderMs.toFixed(1)} ms`);
  console.log(`png  ${pngFile}: ${statSync(pngFile).size} bytes, chromium screenshot in ${(shotMs / 1000).toFixed(1)} s`);
}

main();
