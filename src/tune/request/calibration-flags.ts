// `--truth FILE` and `--calibration FILE` of `servelab --auto`: checked when the flags
// are read, so a missing or malformed file is bad input (exit 2) before anything is planned.
// --truth: host corrections every sim-serve launch runs on (the planner never reads them);
// --calibration: the host calibration the session's own calibration starts from.
import { resolve } from 'node:path';
import { UserError } from '../../core/errors.js';
import { readCorrectionFile } from '../../model/calibration/files.js';
import { readCalibrationFile } from '../../profiles/store/calibration-file.js';

export function truthFlag(file: string | undefined): { truth?: string } {
  if (file === undefined) return {};
  try {
    readCorrectionFile(file);
  } catch (e) {
    throw new UserError(`--truth ${(e as Error).message}`);
  }
  return { truth: resolve(file) };
}

/** --calibration FILE, and --fresh-baseline (validation's baseline measured again, stage/baseline-reuse.ts). */
export function calibrationFlag(file: string | undefined, freshBaseline = false): { calibration?: string; freshBaseline?: true } {
  const fresh = freshBaseline ? { freshBaseline: true as const } : {};
  if (file === undefined) return fresh;
  try {
    readCalibrationFile(file);
  } catch (e) {
    throw new UserError(`--calibration ${(e as Error).message}`);
  }
  return { calibration: resolve(file), ...fresh };
}
