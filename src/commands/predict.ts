// `servelab predict`: the model's answer for one configuration without launching anything (the
// virtual-clock simulation sim-serve's scheduler runs). One engine: vLLM's result block, or with
// --json one object with vLLM's result keys plus `fits` and `reason`. No --engine: a table of all
// three (with --json, an array). The figures are the model's, not a measurement.
import { formatResultBlock } from '../bench/output/format.js';
import { servesGguf } from '../engines/index.js';
import type { BenchMetrics } from '../core/metrics.js';
import { predict, type Prediction } from '../sim/predict/predict.js';
import { scenarioRequests } from '../sim/predict/workload.js';
import { parsePredictArgs, PREDICT_USAGE } from '../cli/predict-args.js';
import { benchCommand } from '../tune/config/scenarios.js';
import { calibratedLine, calibrationHeader, loadCalibration, withPrior } from './predict-calibrated.js';
import { num } from '../core/format.js';
import { UserError } from '../core/errors.js';
import type { GpuVendor } from '../core/gpu-vendor.js';
import type { EngineName } from '../core/variant.js';
import { vendorRefusal } from '../engines/vendor-support.js';
import { findGpu } from '../model/gpus.js';

const fmt = (v: number | undefined, d = 0) => num(v, d, '–');

function table(rows: Prediction[]): string {
  const head = [
    'engine',
    'version',
    'fits',
    'total tok/s',
    'output tok/s',
    'req/s',
    'mean TTFT ms',
    'p99 TTFT ms',
    'mean TPOT ms',
    'p99 TPOT ms',
  ];
  const body = rows.map((r) =>
    r.fits
      ? [
          r.engine,
          r.engine_version,
          'yes',
          fmt(r.total_token_throughput),
          fmt(r.output_throughput),
          fmt(r.request_throughput, 2),
          fmt(r.mean_ttft_ms),
          fmt(r.p99_ttft_ms),
          fmt(r.mean_tpot_ms, 1),
          fmt(r.p99_tpot_ms, 1),
        ]
      : [r.engine, r.engine_version, `no: ${r.reason ?? 'does not fit'}`],
  );
  const widths = head.map((h, i) => Math.max(h.length, ...body.filter((b) => b.length > 3 || i < 2).map((b) => (b[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i < 3 && cells.length > 3 ? c.padEnd(widths[i]!) : i >= 3 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [
    line(head),
    ...body.map((b) => (b.length === 3 ? `${b[0]!.padEnd(widths[0]!)}  ${b[1]!.padEnd(widths[1]!)}  ${b[2]}` : line(b))),
  ].join('\n');
}

/** The model's measured error for each engine at this concurrency (src/model/data/measured-error.ts), one line each. */
function errorLines(rows: Prediction[], gpu: string): string {
  const pct = (x: number) => `${(x * 100).toFixed(0)}%`;
  // Measured on H200s: on another part it says how the model does where it was checked, not here.
  const spec = findGpu(gpu);
  const elsewhere =
    spec && !/^H(100|200)\b/.test(spec.name) ? ` (measured on H200, not on ${spec.name}: its error there is unmeasured)` : '';
  return rows
    .filter((r) => r.fits && r.measured_error)
    .map((r) => {
      const e = r.measured_error!;
      return `Measured error of this model for ${r.engine} at ${e.label} (median |error| over ${e.rows} real H200 runs it was never fitted on): throughput per GPU ${pct(e.tputPerGpu)}, mean TPOT ${pct(e.tpot)}, mean TTFT ${pct(e.ttft)}${elsewhere}\n`;
    })
    .join('');
}

/** The engines that run on `vendor`'s GPUs; the others are said on stderr, and asking for one alone is bad input. */
function enginesFor(engines: EngineName[], vendor: GpuVendor | undefined): EngineName[] {
  const kept = engines.filter((e) => !vendorRefusal(e, vendor));
  const off = engines.filter((e) => vendorRefusal(e, vendor));
  if (!kept.length) throw new UserError(`${vendorRefusal(off[0]!, vendor)}; predict another engine (--engine) or another --gpu`);
  for (const e of off) process.stderr.write(`note: ${e} left out: ${vendorRefusal(e, vendor)}\n`);
  return kept;
}

export default async function main(argv: string[]): Promise<number> {
  // llama.cpp has its own CPU estimate and flags (predict-llamacpp.ts).
  const norm = argv.flatMap((t) => (t.startsWith('--engine=') ? ['--engine', t.slice('--engine='.length)] : [t]));
  const at = norm.indexOf('--engine');
  if (at >= 0 && servesGguf(norm[at + 1] ?? '')) return (await import('./predict-llamacpp.js')).default(norm);
  const a = parsePredictArgs(argv);
  if (a.help) {
    process.stdout.write(
      `${PREDICT_USAGE}\n\nPredicts what a benchmark of one configuration would report, from servelab's performance model\n(virtual clock, no server, no GPU). Figures are model output, not measurements; see docs/calibration.md\nfor the model's measured error against published results.\n`,
    );
    return 0;
  }
  const requests = scenarioRequests(a.scenario, a.seed);
  const used = a.calibration
    ? loadCalibration(a.calibration, {
        gpu: a.gpu,
        gpus: a.gpus,
        engines: a.engines,
        ...(a.engineVersion ? { engineVersion: a.engineVersion } : {}),
      })
    : undefined;
  for (const w of used?.warnings ?? []) process.stderr.write(`warning: calibration ${a.calibration}: ${w}\n`);
  const input = {
    ...(a.engineVersion ? { engineVersion: a.engineVersion } : {}),
    model: a.model,
    gpu: a.gpu,
    gpus: a.gpus,
    knobs: a.knobs,
    requests,
    ...(a.maxConcurrency ? { maxConcurrency: a.maxConcurrency } : {}),
    ...(a.requestRate !== undefined ? { requestRate: a.requestRate } : {}),
    seed: a.seed,
  };
  // An engine that does not run on this GPU's vendor (TensorRT-LLM on AMD) is left out, with the reason.
  const engines = enginesFor(a.engines, findGpu(a.gpu)?.vendor);
  const rows = engines.map((engine) => {
    const prior = predict({ engine, ...input });
    return used ? withPrior(predict({ engine, ...input, corrections: used.cal.corrections }), prior, used.cal, a.calibration!) : prior;
  });
  if (a.json) {
    process.stdout.write(JSON.stringify(rows.length === 1 ? rows[0] : rows) + '\n');
    return 0;
  }
  const what = `${a.model} on ${a.gpus} x ${a.gpu}, ${a.scenario.label}, ${requests.length} prompts, ${a.maxConcurrency ? `max concurrency ${a.maxConcurrency}` : 'all at once'}${a.requestRate ? `, ${a.requestRate} req/s` : ''}, seed ${a.seed}`;
  process.stdout.write(`Predicted by servelab's model (virtual clock, not measured): ${what}\n`);
  if (used)
    process.stdout.write([calibrationHeader(a.calibration!, used.cal), ...rows.map((r) => calibratedLine(r, used.cal))].join('\n') + '\n');
  // The same workload on a real server, with vLLM's own client.
  const reproduce = `To measure it on a real server: ${benchCommand({ ...a.scenario, maxConcurrency: a.maxConcurrency ?? null }, a.model)}${a.requestRate ? ` --request-rate ${a.requestRate}` : ''}\n`;
  if (rows.length > 1) {
    process.stdout.write(table(rows) + '\n' + errorLines(rows, a.gpu) + reproduce);
    return 0;
  }
  const r = rows[0]!;
  if (!r.fits) {
    process.stdout.write(`${r.engine} ${r.engine_version}: does not fit: ${r.reason}\n`);
    return 0;
  }
  process.stdout.write(`${r.engine} ${r.engine_version}\n`);
  process.stdout.write(
    formatResultBlock(r as unknown as BenchMetrics, {
      maxConcurrency: a.maxConcurrency ?? null,
      ...(a.requestRate ? { requestRate: a.requestRate } : {}),
      percentileMetrics: ['ttft', 'tpot', 'itl', 'e2el'],
      metricPercentiles: [99],
    }) +
      '\n' +
      errorLines(rows, a.gpu) +
      reproduce,
  );
  return 0;
}
