// The figures of llamacpp-calibration.ts from its measured results (llamacpp-calibration.json):
// the uncalibrated llama.cpp estimate against every variant, and the calibration fitted (the
// project's MAP fit, src/model/calibration/fit.ts) on the first 4 against the remaining ones.
// The only constants fitted are the host corrections, and only on those 4 in-sample variants.
// The estimate reads the host's load as the script read it before launching anything (startLoad);
// where each variant's load just before its launch was read (launchLoad), a second table predicts
// each variant on that, and a third, a diagnostic and no prediction, on the load during its run.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { correctionsFor, describeSet, NEUTRAL } from '../src/model/calibration/corrections.js';
import { fitCorrections } from '../src/model/calibration/fit.js';
import { median } from '../src/core/stats.js';
import { noiseText, pooledNoise, type NoiseEstimate } from '../src/core/noise-rule.js';
import { cpuIdentity, cpuLoadNow } from '../src/host/cpu.js';
import { cpuFactsFrom, type CpuLoad } from '../src/model/cpu.js';
import { useLlamacppCpu } from '../src/sim/predict/llamacpp-calibrated.js';
import { simPredictor, type SimObservation } from '../src/sim/predict/calibrated.js';
import type { Knobs } from '../src/core/variant.js';

/** The model measured: random-gguf is seeded, so the header (all the estimate reads) is the same each time. */
export function makeModel(dir: string): string {
  const model = join(dir, 'm.gguf');
  execFileSync('node', [join(ROOT, 'bin/servelab.js'), 'random-gguf', '--out', model, '--hidden', '512', '--layers', '8'], {
    stdio: 'ignore',
  });
  return model;
}

interface Row {
  id: string;
  knobs: Knobs;
  load: number;
  othersBusy?: number;
  launchLoad?: CpuLoad;
  completed: number;
  total_input_tokens: number;
  total_output_tokens: number;
  total_token_throughput: number;
  mean_ttft_ms: number;
  mean_tpot_ms: number;
}
const FIT_ON = 4;

/**
 * The goal: the held-out error within max(8%, the measured noise of what it is compared with, a
 * mean of `runsEach` runs: the noise rule's half-width of one run over sqrt(runs)).
 */
function goalText(noise: NoiseEstimate | undefined, runsEach: number): string {
  if (!noise) return '8%; no noise measured: one run per variant';
  const ofMean = noise.pct / Math.sqrt(runsEach);
  return `max(8%, noise of a mean of ${runsEach} runs ±${ofMean.toFixed(1)}%) = ${Math.max(8, ofMean).toFixed(1)}%`;
}

/** Each variant's runs (a log with --repeats holds several rows per id) as one row of their means. */
function meanRows(rows: Row[]): Row[] {
  const ids = [...new Set(rows.map((r) => r.id))];
  return ids.map((id) => {
    const rs = rows.filter((r) => r.id === id);
    const mean = (k: keyof Row) => rs.reduce((a, r) => a + (r[k] as number), 0) / rs.length;
    const others = rs.every((r) => r.othersBusy !== undefined) ? { othersBusy: mean('othersBusy') } : {};
    return {
      ...rs[0]!,
      ...others,
      load: mean('load'),
      total_token_throughput: mean('total_token_throughput'),
      mean_ttft_ms: mean('mean_ttft_ms'),
      mean_tpot_ms: mean('mean_tpot_ms'),
    };
  });
}
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

type Facts = 'start' | 'launch' | 'during';
const FACTS: Record<Facts, string> = {
  start: 'the host load read once before the session launched anything (what a session knows)',
  launch: "each variant's host load read just before its launch (a prediction a session could make)",
  during:
    'diagnostic, not a prediction: each variant under the load measured during its own run (others = all but llama-server, the client included)',
};

/** The load a variant is predicted under, per kind of facts; undefined: the session-start facts. */
function loadOf(r: Row, facts: Facts): CpuLoad | undefined {
  if (facts === 'launch') return r.launchLoad;
  if (facts === 'during')
    return r.othersBusy === undefined ? undefined : { busyCores: r.othersBusy, loadAvg1: r.load, source: 'during the run' };
  return undefined;
}

function observations(raw: { results: Row[] }, model: string, facts: Facts): SimObservation[] {
  // The workload as measured: the chat template makes the prompts longer than --random-input-len, so the mean measured input length is the workload's.
  return raw.results.map((r) => {
    const cpuLoad = loadOf(r, facts);
    return {
      id: r.id,
      engine: 'llamacpp',
      measured: { totalTokPerS: r.total_token_throughput, meanTtftMs: r.mean_ttft_ms, meanTpotMs: r.mean_tpot_ms },
      run: {
        engine: 'llamacpp',
        model,
        gpu: 'cpu',
        gpus: 0,
        knobs: r.knobs,
        workload: {
          name: 'random',
          dataset: 'random',
          numPrompts: r.completed,
          inputLen: Math.round(r.total_input_tokens / r.completed),
          outputLen: Math.round(r.total_output_tokens / r.completed),
          seed: 0,
          maxConcurrency: r.knobs.maxRunningSeqs ?? 1,
          requestRate: null,
        },
        ...(cpuLoad ? { cpuLoad } : {}),
      },
    };
  });
}

/** One table: the uncalibrated estimate on every variant, the fit on the first 4 on the others. */
function table(raw: { results: Row[] }, model: string, facts: Facts, noise: NoiseEstimate | undefined, runsEach: number): string[] {
  const obs = observations(raw, model, facts);
  const predict = simPredictor();
  const err = (o: SimObservation, k = NEUTRAL) => predict(o, k)!.totalTokPerS / o.measured.totalTokPerS - 1;
  const fit = fitCorrections(obs.slice(0, FIT_ON), predict);
  const cal = correctionsFor(fit.set, 'llamacpp');
  const out = [
    `predicted on ${FACTS[facts]}:`,
    'variant          load1  others  busy@launch  measured tok/s  estimate  err      calibrated  err',
  ];
  for (const [i, o] of obs.entries()) {
    const r = raw.results[i]!;
    const c = predict(o, cal)!.totalTokPerS;
    const cols = [
      r.load.toFixed(1).padStart(5),
      (r.othersBusy?.toFixed(2) ?? '-').padStart(6),
      (r.launchLoad?.busyCores.toFixed(2) ?? '-').padStart(11),
    ];
    out.push(
      `${o.id.padEnd(16)} ${cols.join('  ')}  ${o.measured.totalTokPerS.toFixed(1).padStart(14)}  ${predict(o, NEUTRAL)!.totalTokPerS.toFixed(1).padStart(8)}  ${pct(err(o)).padStart(7)}  ${c.toFixed(1).padStart(10)}  ${pct(err(o, cal)).padStart(7)}${i < FIT_ON ? '  (in fit)' : ''}`,
    );
  }
  const held = obs.slice(FIT_ON);
  out.push(
    `median |throughput error|, uncalibrated estimate, all ${obs.length}: ${pct(median(obs.map((o) => Math.abs(err(o)))))}; on the other ${held.length}: ${pct(median(held.map((o) => Math.abs(err(o)))))}`,
  );
  out.push(
    `median |throughput error|, calibrated on the first ${FIT_ON}, on the other ${held.length}: ${pct(median(held.map((o) => Math.abs(err(o, cal)))))} (goal <= ${goalText(noise, runsEach)})`,
  );
  out.push(`fitted corrections (in-sample, first ${FIT_ON}): ${describeSet(fit.set)}; dropped: ${fit.dropped.join(', ') || 'none'}`);
  return out;
}

export async function report(rawFile: string): Promise<void> {
  const raw = JSON.parse(readFileSync(rawFile, 'utf8')) as { date: string; prompts: number; startLoad?: CpuLoad; results: Row[] };
  // A log without its session-start load (the run before this field) is predicted as an idle host, and says so.
  const cpu = cpuFactsFrom(cpuIdentity(), raw.startLoad);
  useLlamacppCpu(cpu);
  const dir = mkdtempSync(join(os.tmpdir(), 'llamacpp-report-'));
  try {
    const model = makeModel(dir); // seeded: the same header as the model measured
    const r0 = raw.results[0]!;
    const out = [
      `llama.cpp estimate vs llama-server 80fb11a on this host, measured ${raw.date}; ${raw.prompts} prompts per variant, random ${Math.round(r0.total_input_tokens / r0.completed)}/${Math.round(r0.total_output_tokens / r0.completed)} (measured mean in/out), concurrency = slots`,
      `CPU facts (session start): ${cpu.source}`,
      'columns: load1 = 1-minute load average after the variant; others = cores busy during its run except llama-server; busy@launch = cores busy just before its launch',
    ];
    const kinds: Facts[] = [
      'start',
      ...(raw.results.every((r) => r.launchLoad) ? (['launch'] as Facts[]) : []),
      ...(raw.results.every((r) => r.othersBusy !== undefined) ? (['during'] as Facts[]) : []),
    ];
    const runs = raw.results;
    const noise = pooledNoise(
      [...new Set(runs.map((r) => r.id))].map((id) => ({
        label: id,
        values: runs.filter((r) => r.id === id).map((r) => r.total_token_throughput),
      })),
    );
    const runsEach = Math.min(...[...new Set(runs.map((r) => r.id))].map((id) => runs.filter((r) => r.id === id).length));
    out.push(`run-to-run noise on this host: ${noise ? noiseText(noise) : 'not measured (one run per variant)'}`);
    const means = { results: meanRows(runs) };
    for (const f of kinds) out.push('', ...table(means, model, f, noise, runsEach));
    out.push('', `uptime now: ${execFileSync('uptime').toString().trim()}; CPU now: ${cpuLoadNow().source}`);
    process.stdout.write(out.join('\n') + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
