// A host calibration as a file (`servelab calibrate --out FILE`), a versioned document checked
// with zod on load like a profile: the host fingerprint and engine versions it was measured with,
// the fitted corrections, the fit's figures and the observations used, so a later run can refit
// or audit it. Read back by `--calibration FILE`, which refuses a
// calibration from another GPU (or, for llama.cpp on a CPU, another CPU model) and warns about
// anything else that differs.
import { z } from 'zod';
import { CorrectionSetSchema, type CorrectionSet } from '../../model/calibration/corrections.js';
import { CALIBRATION_KIND, readJsonFile } from '../../model/calibration/files.js';
import type { CalibrationFit } from '../../model/calibration/fit.js';
import { findGpu } from '../../model/gpus.js';
import { HostSchema, type HostFingerprint } from '../schema/profile.js';
import { pctFigure } from '../../core/format.js';

export const CALIBRATION_VERSION = 1;

const figures = z.object({ totalTokPerS: z.number(), meanTtftMs: z.number(), meanTpotMs: z.number() });

export const CalibrationFileSchema = z.object({
  kind: z.literal(CALIBRATION_KIND),
  version: z.literal(CALIBRATION_VERSION),
  createdAt: z.string().min(1),
  servelabVersion: z.string().min(1),
  host: HostSchema,
  /** Engine name -> the release its observations were measured with. */
  engineVersions: z.record(z.string(), z.string()),
  corrections: CorrectionSetSchema,
  fit: z.object({
    observations: z.number().int().nonnegative(),
    priorMedianAbsPct: z.number().nullable(),
    looMedianAbsPct: z.number().nullable(),
    inSampleMedianAbsPct: z.number().nullable(),
    bandLogSd: z.number().nonnegative(),
    rows: z.array(
      z.object({ id: z.string(), engine: z.string(), measured: figures, prior: figures, calibrated: figures, looErrPct: z.number() }),
    ),
  }),
  /** The observations as the fit read them (src/sim/predict/calibrated.ts SimObservation). */
  observations: z.array(z.looseObject({ id: z.string(), engine: z.string() })),
  /** The run folders and profiles they came from. */
  sources: z.array(z.string()),
});

export type CalibrationFile = Omit<z.infer<typeof CalibrationFileSchema>, 'corrections'> & { corrections: CorrectionSet };

/** The file's content for a fit (observations are written as given). */
export function calibrationFile(input: {
  host: HostFingerprint;
  engineVersions: Record<string, string>;
  fit: CalibrationFit;
  observations: object[];
  sources: string[];
  servelabVersion: string;
  now?: Date;
}): CalibrationFile {
  const f = input.fit;
  return {
    kind: CALIBRATION_KIND,
    version: CALIBRATION_VERSION,
    createdAt: (input.now ?? new Date()).toISOString(),
    servelabVersion: input.servelabVersion,
    host: input.host,
    engineVersions: input.engineVersions,
    corrections: f.set,
    fit: {
      observations: f.rows.length,
      priorMedianAbsPct: pctFigure(f.priorMedianAbs),
      looMedianAbsPct: pctFigure(f.looMedianAbs),
      inSampleMedianAbsPct: pctFigure(f.inSampleMedianAbs),
      bandLogSd: f.bandLogSd,
      rows: f.rows.map((r) => ({
        id: r.id,
        engine: r.engine,
        measured: r.measured,
        prior: r.prior,
        calibrated: r.calibrated,
        looErrPct: pctFigure(r.looErr) ?? 0,
      })),
    },
    observations: input.observations as CalibrationFile['observations'],
    sources: input.sources,
  };
}

/** Read and check a calibration file; throws Error('FILE: field: why'). */
export function readCalibrationFile(path: string): CalibrationFile {
  const json = readJsonFile(path);
  const r = CalibrationFileSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new Error(`${path}: not a servelab calibration (${i.path.join('.') || 'top level'}: ${i.message})`);
  }
  return r.data as CalibrationFile;
}

/** Where a calibration is used: this host, and the engine and release being predicted or run. */
export interface CalibrationUse {
  gpuName: string;
  gpuCount?: number;
  driver?: string;
  simulated?: boolean;
  engine: string;
  engineVersion?: string;
  /** A CPU host (llama.cpp): its model name and threads (src/host/cpu.ts cpuInfo). */
  cpuModel?: string;
  cpuThreads?: number;
}

const sameGpu = (a: string, b: string) => {
  const ga = findGpu(a);
  const gb = findGpu(b);
  return ga && gb ? ga.name === gb.name : a.trim().toLowerCase() === b.trim().toLowerCase();
};

/**
 * Can this calibration be used here? `refuse` when it was measured on another GPU, or another
 * CPU model for a CPU host (its corrections describe that part); `warnings` name every other
 * difference, one line each.
 */
export function checkCalibration(cal: CalibrationFile, here: CalibrationUse): { refuse?: string; warnings: string[] } {
  const h = cal.host;
  if (!sameGpu(h.gpuName, here.gpuName))
    return {
      refuse: `calibrated on ${h.gpuName}, used on ${here.gpuName}: host corrections are per GPU; calibrate this host`,
      warnings: [],
    };
  if (here.cpuModel && h.cpuModel && h.cpuModel !== here.cpuModel)
    return {
      refuse: `calibrated on the CPU ${h.cpuModel}, used on ${here.cpuModel}: host corrections are per CPU; calibrate this host`,
      warnings: [],
    };
  const warnings: string[] = [];
  if (here.cpuModel && !h.cpuModel) warnings.push(`CPU: the calibration does not name its CPU model; here ${here.cpuModel}`);
  if (here.cpuThreads !== undefined && h.cpuThreads !== undefined && here.cpuThreads !== h.cpuThreads)
    warnings.push(`CPU threads: calibrated with ${h.cpuThreads}, here ${here.cpuThreads}`);
  if (here.gpuCount !== undefined && here.gpuCount !== h.gpuCount)
    warnings.push(`GPU count: calibrated on ${h.gpuCount}, here ${here.gpuCount}`);
  if (h.driver && here.driver && h.driver !== here.driver) warnings.push(`driver: calibrated on ${h.driver}, here ${here.driver}`);
  if (here.simulated !== undefined && here.simulated !== h.simulated)
    warnings.push(
      `host: calibrated on ${h.simulated ? 'the simulated host' : 'real GPUs'}, here ${here.simulated ? 'the simulated host' : 'real GPUs'}`,
    );
  const was = cal.engineVersions[here.engine];
  if (!cal.corrections.engines[here.engine])
    warnings.push(`engine: no ${here.engine} observation in the calibration; only its host-level corrections apply`);
  else if (was && here.engineVersion && was !== here.engineVersion)
    warnings.push(`engine: ${here.engine} ${here.engineVersion} here, calibrated with ${was}`);
  return { warnings };
}
