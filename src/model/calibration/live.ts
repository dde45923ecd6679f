// A calibration that learns as a session measures: every measured variant adds an observation and
// the corrections are refitted from the previous fit (one Gauss-Newton iteration is usually
// enough from there). For a variant not yet measured it gives the prior model's figures, the
// calibrated ones and the band, the three the plan, the Run screen and the report show beside
// what is measured. The session wires it to the simulator's predictor (src/sim/predict/calibrated.ts).
import { correctionsFor, NEUTRAL, type CorrectionSet } from './corrections.js';
import { bandPct, fitCorrections, type CalibrationFit } from './fit.js';
import { PRIOR_BAND_LOG_SD, type Figures, type Observation, type Predictor } from './observation.js';

/** One variant's predictions: the prior model's, the calibrated one, and the band of the latter. */
export interface CalibratedFigures {
  prior?: Figures;
  calibrated?: Figures;
  /** 1 s.d. of ln(measured / calibrated throughput). */
  bandLogSd: number;
  /** Observations behind the calibration (0: calibrated = prior). */
  observations: number;
}

export class LiveCalibration<O extends Observation> {
  private readonly obs: O[] = [];
  private fitNow: CalibrationFit | undefined;

  constructor(
    private readonly predict: Predictor<O>,
    /** `start`: a host calibration's corrections, with its band and observation count (used until this session's first fit). */
    private readonly opts: { gpu?: string; start?: CorrectionSet; startFit?: { bandLogSd: number; observations: number } } = {},
  ) {}

  /** Add a measured variant and refit; returns the new fit. */
  add(o: O): CalibrationFit {
    this.obs.push(o);
    const start = this.fitNow?.set ?? this.opts.start;
    // From the previous fit: its corrections and its observations' gradients (only the new one is linearised anew).
    const prev = this.fitNow ? { gradients: this.fitNow.gradients, iterations: 1 } : { iterations: 3 };
    this.fitNow = fitCorrections(this.obs, this.predict, {
      ...(this.opts.gpu ? { gpu: this.opts.gpu } : {}),
      ...(start ? { start } : {}),
      ...prev,
    });
    return this.fitNow;
  }

  get fit(): CalibrationFit | undefined {
    return this.fitNow;
  }

  get set(): CorrectionSet {
    return this.fitNow?.set ?? this.opts.start ?? { host: {}, engines: {} };
  }

  /** Prior and calibrated figures for a variant (its `measured` is not read). */
  figures(o: O): CalibratedFigures {
    const prior = this.predict(o, NEUTRAL);
    const n = this.fitNow?.rows.length ?? 0;
    const calibrated = n || this.opts.start ? this.predict(o, correctionsFor(this.set, o.engine)) : prior;
    const band = this.fitNow?.bandLogSd ?? this.opts.startFit?.bandLogSd ?? PRIOR_BAND_LOG_SD;
    return {
      ...(prior ? { prior } : {}),
      ...(calibrated ? { calibrated } : {}),
      bandLogSd: band,
      observations: n || (this.opts.startFit?.observations ?? 0),
    };
  }

  /** The session's own leave-one-out line for the report, e.g. 'calibration: 6 measured variants, leave-one-out median |throughput error| 3.1% (prior model 18.0%)'. */
  summary(): string {
    const f = this.fitNow;
    if (!f || !f.rows.length) return 'calibration: no measured variant yet (predictions are the prior model)';
    const p = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(1)}%` : '–');
    return `calibration: ${f.rows.length} measured variant(s), leave-one-out median |throughput error| ${p(f.looMedianAbs)} (prior model ${p(f.priorMedianAbs)}), band ${bandPct(f.bandLogSd)}`;
  }
}

/** One cell of the three figures: 'prior 8446, calibrated 7431 +-17%, measured 7210' (tok/s). */
export function predictionCell(f: CalibratedFigures, measured?: number): string {
  const n = (x: number | undefined) => (x === undefined ? '–' : x.toFixed(0));
  const parts = [`prior ${n(f.prior?.totalTokPerS)}`];
  if (f.observations) parts.push(`calibrated ${n(f.calibrated?.totalTokPerS)} ${bandPct(f.bandLogSd)}`);
  if (measured !== undefined) parts.push(`measured ${n(measured)}`);
  return parts.join(', ');
}
