// The corrections a sim-serve process runs on: `--truth FILE` (a simulated host that differs from
// the model, unknown to the planner) or `--calibration FILE` (a host calibration from `servelab
// calibrate`: refused when it was measured on another GPU, used with a warning line for any other
// difference). Neither: the model as fitted. A bad file is a usage error (exit 2).
import { correctionsFor, type Corrections } from '../../model/calibration/corrections.js';
import { readCorrectionFile } from '../../model/calibration/files.js';
import { checkCalibration, readCalibrationFile } from '../../profiles/store/calibration-file.js';
import { TARGET_VERSIONS } from '../../model/versions.js';
import { SimArgsError, type SimArgs } from './sim-args.js';

export function simCorrections(args: SimArgs, warn: (line: string) => void): Corrections | undefined {
  if (args.truth && args.calibration)
    throw new SimArgsError('argument --calibration: not allowed with argument --truth (one set of host corrections)');
  if (args.truth) {
    try {
      return correctionsFor(readCorrectionFile(args.truth), args.engine);
    } catch (e) {
      throw new SimArgsError(`argument --truth: ${(e as Error).message}`);
    }
  }
  if (!args.calibration) return undefined;
  let cal;
  try {
    cal = readCalibrationFile(args.calibration);
  } catch (e) {
    throw new SimArgsError(`argument --calibration: ${(e as Error).message}`);
  }
  const c = checkCalibration(cal, {
    gpuName: args.gpu,
    gpuCount: args.gpus,
    simulated: true,
    engine: args.engine,
    engineVersion: args.engineVersion ?? (TARGET_VERSIONS as Partial<Record<string, string>>)[args.engine],
  });
  if (c.refuse) throw new SimArgsError(`argument --calibration: ${args.calibration}: ${c.refuse}`);
  for (const w of c.warnings) warn(`WARNING servelab sim-serve: calibration ${args.calibration}: ${w}`);
  return correctionsFor(cal.corrections, args.engine);
}
