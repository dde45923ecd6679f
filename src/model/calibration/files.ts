// Reading host corrections from a file: a truth file (a bare correction set, what sim-serve
// --truth plays as the simulated host) or a host calibration written by `servelab calibrate`
// (its `corrections` field). One reader, so both flags accept both kinds.
import { readFileSync } from 'node:fs';
import { parseCorrectionSet, type CorrectionSet } from './corrections.js';

/** The `kind` a host calibration file carries (calibration-file.ts writes it). */
export const CALIBRATION_KIND = 'servelab-calibration';

/** Parse a JSON file; throws Error('FILE: why') when it cannot be read or parsed. */
export function readJsonFile(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new Error(`${path}: not valid JSON (${(e as Error).message})`);
  }
}

/** The correction set of a truth or calibration file; throws Error('FILE: field: why'). */
export function readCorrectionFile(path: string): CorrectionSet {
  const json = readJsonFile(path);
  const body =
    json && typeof json === 'object' && (json as { kind?: unknown }).kind === CALIBRATION_KIND
      ? (json as { corrections?: unknown }).corrections
      : json;
  try {
    return parseCorrectionSet(body);
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`);
  }
}
