// `servelab calibrate RUN_DIR|PROFILE... --out FILE`: fit the host corrections of the performance
// model (src/model/calibration) to the variants this host has measured, and write a host
// calibration: host fingerprint, engine versions, corrections, the fit's error figures and the
// observations used. `predict --calibration FILE` (and sim-serve --truth FILE) read it back.
import { writeFileSync } from 'node:fs';
import { UserError } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import { calibrationFile } from '../profiles/store/calibration-file.js';
import { describeSet } from '../model/calibration/corrections.js';
import { bandPct, fitCorrections, type CalibrationFit } from '../model/calibration/fit.js';
import { findGpu } from '../model/gpus.js';
import { simPredictor, type SimObservation } from '../sim/predict/calibrated.js';
import { readSource, type Source } from './calibrate-sources.js';
import type { HostFingerprint } from '../profiles/schema/profile.js';
import { CALIBRATE_USAGE, parseCalibrateArgs } from '../cli/calibrate-args.js';
import { fractionPct, signedPct } from '../core/format.js';

const gpuKey = (name: string) => findGpu(name)?.name ?? name.trim().toLowerCase();

/** One host and one release per engine across the sources, or a one-line refusal. */
function merge(sources: Source[]): { host: HostFingerprint; versions: Record<string, string>; observations: SimObservation[] } {
  const host = sources[0]!.host;
  const versions: Record<string, string> = {};
  for (const s of sources) {
    if (gpuKey(s.host.gpuName) !== gpuKey(host.gpuName))
      throw new UserError(
        `${s.path} was measured on ${s.host.gpuName}, ${sources[0]!.path} on ${host.gpuName}: one calibration is one host's GPU`,
      );
    for (const [e, v] of Object.entries(s.engineVersions)) {
      if (versions[e] && versions[e] !== v)
        throw new UserError(
          `${s.path} measured ${e} ${v}, an earlier source ${e} ${versions[e]}: one calibration holds one release per engine`,
        );
      versions[e] = v;
    }
  }
  return { host, versions, observations: sources.flatMap((s) => s.observations) };
}

/** The summary printed after a fit (also what a session's report reuses). */
export function fitSummary(fit: CalibrationFit, host: HostFingerprint): string[] {
  const byEngine = new Map<string, number>();
  for (const r of fit.rows) byEngine.set(r.engine, (byEngine.get(r.engine) ?? 0) + 1);
  const lines = [
    `Calibrated on ${fit.rows.length} measured variant(s) of ${host.gpuName} x${host.gpuCount}${host.simulated ? ' (simulated host)' : ''}: ${[...byEngine].map(([e, n]) => `${e} ${n}`).join(', ')}`,
    `corrections: ${describeSet(fit.set)}`,
    `throughput error, median |predicted / measured - 1|: prior model ${fractionPct(fit.priorMedianAbs, 1, '–')}, calibrated leave-one-out ${fractionPct(fit.looMedianAbs, 1, '–')} (in-sample ${fractionPct(fit.inSampleMedianAbs, 1, '–')})`,
    `error band of a calibrated throughput prediction: ${bandPct(fit.bandLogSd)} (1 s.d., from the leave-one-out errors and the prior's)`,
  ];
  for (const r of fit.rows)
    lines.push(
      `  ${r.id}: measured ${r.measured.totalTokPerS.toFixed(0)} tok/s, prior ${signedPct(r.priorErr * 100)}, calibrated without it ${signedPct(r.looErr * 100)}`,
    );
  if (fit.dropped.length) lines.push(`not used (the model cannot run them): ${fit.dropped.join(', ')}`);
  return lines;
}

export default async function main(argv: string[]): Promise<number> {
  const a = parseCalibrateArgs(argv);
  if (a === 'help') {
    process.stdout.write(
      `${CALIBRATE_USAGE}\n\nFits the performance model's host corrections (GEMM and bandwidth efficiency, host overhead,\nprefill, links, API front end) to the variants measured in run folders or profiles of one host,\nand writes a host calibration for predict --calibration FILE and sim-serve --truth FILE.\n`,
    );
    return 0;
  }
  const { host, versions, observations } = merge(a.sources.map(readSource));
  if (!observations.length) throw new UserError(`no measured variant in ${a.sources.join(', ')}: nothing to calibrate on`);
  const fit = fitCorrections(observations, simPredictor(), { gpu: findGpu(host.gpuName)?.name ?? host.gpuName });
  if (!fit.rows.length)
    throw new UserError(`the model runs none of the ${observations.length} measured variant(s): nothing to calibrate on`);
  const file = calibrationFile({ host, engineVersions: versions, fit, observations, sources: a.sources, servelabVersion: VERSION });
  try {
    writeFileSync(a.out, JSON.stringify(file, null, 2) + '\n');
  } catch (e) {
    throw new UserError(`cannot write ${a.out}: ${(e as Error).message}`);
  }
  process.stdout.write([...fitSummary(fit, host), `wrote ${a.out}`].join('\n') + '\n');
  return 0;
}
