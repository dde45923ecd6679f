// `servelab predict --calibration FILE`: the prediction corrected by a host calibration (servelab
// calibrate), shown with the prior model's figure and the calibration's error band. A calibration
// from another GPU is refused (exit 2); any other difference is a warning line on stderr.
import { UserError } from '../core/errors.js';
import type { EngineName } from '../core/variant.js';
import { checkCalibration, readCalibrationFile, type CalibrationFile } from '../profiles/store/calibration-file.js';
import { bandPct } from '../model/calibration/fit.js';
import { TARGET_VERSIONS } from '../model/versions.js';
import type { Prediction } from '../sim/predict/predict.js';

/** Read the file and check it against what is predicted; warnings are returned, refusals thrown. */
export function loadCalibration(
  file: string,
  here: { gpu: string; gpus: number; engines: EngineName[]; engineVersion?: string },
): { cal: CalibrationFile; warnings: string[] } {
  let cal: CalibrationFile;
  try {
    cal = readCalibrationFile(file);
  } catch (e) {
    throw new UserError(`--calibration ${(e as Error).message}`);
  }
  const warnings: string[] = [];
  for (const engine of here.engines) {
    const c = checkCalibration(cal, {
      gpuName: here.gpu,
      gpuCount: here.gpus,
      engine,
      engineVersion: here.engineVersion ?? (TARGET_VERSIONS as Partial<Record<string, string>>)[engine],
    });
    if (c.refuse) throw new UserError(`--calibration ${file}: ${c.refuse}`);
    for (const w of c.warnings) if (!warnings.includes(w)) warnings.push(w);
  }
  return { cal, warnings };
}

export type CalibratedPrediction = Prediction & {
  prior?: { total_token_throughput?: number; mean_ttft_ms?: number; mean_tpot_ms?: number };
  calibration?: { file: string; observations: number; band_pct: number; loo_median_abs_pct: number | null };
};

/** The calibrated row with the prior model's figures and the band beside it. */
export function withPrior(calibrated: Prediction, prior: Prediction, cal: CalibrationFile, file: string): CalibratedPrediction {
  return {
    ...calibrated,
    ...(prior.fits
      ? {
          prior: {
            total_token_throughput: prior.total_token_throughput,
            mean_ttft_ms: prior.mean_ttft_ms,
            mean_tpot_ms: prior.mean_tpot_ms,
          },
        }
      : {}),
    calibration: {
      file,
      observations: cal.fit.observations,
      band_pct: Math.round((Math.exp(cal.fit.bandLogSd) - 1) * 1000) / 10,
      loo_median_abs_pct: cal.fit.looMedianAbsPct,
    },
  };
}

/** One line per engine: calibrated throughput with its band, and the prior model's. */
export function calibratedLine(r: CalibratedPrediction, cal: CalibrationFile): string {
  if (!r.fits || r.total_token_throughput === undefined) return `${r.engine}: does not fit`;
  const prior = r.prior?.total_token_throughput;
  return `${r.engine}: total tok/s ${r.total_token_throughput.toFixed(0)} ${bandPct(cal.fit.bandLogSd)} calibrated${prior !== undefined ? ` (prior model ${prior.toFixed(0)})` : ''}`;
}

/** The header line naming the calibration. */
export function calibrationHeader(file: string, cal: CalibrationFile): string {
  const loo = cal.fit.looMedianAbsPct;
  return `Calibrated by ${file}: ${cal.fit.observations} measured variant(s) of ${cal.host.gpuName} x${cal.host.gpuCount}, leave-one-out median |throughput error| ${loo === null ? '–' : `${loo}%`} (prior model ${cal.fit.priorMedianAbsPct ?? '–'}%)`;
}
