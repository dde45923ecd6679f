// The calibration fit: host corrections (corrections.ts) from a host's own measurements, as a
// maximum a posteriori estimate in log space. Each observation's measured throughput, TPOT and
// TTFT are compared with the model's figures for the same variant and workload; ln(correction)
// has a Gaussian prior at 0 (the model as fitted), so a few observations move the corrections
// only as far as the data says. Non-linear in the corrections: Gauss-Newton, with the Jacobian
// from the predictor by finite differences. Pure, given a pure predictor (the simulator's is
// src/sim/predict/calibrated.ts); the error band and the leave-one-out error come from the same solve.
import { correctionsFor, ENGINE_SHARE, FIT_KEYS, PRIORS, type CorrectionSet, type Corrections } from './corrections.js';
import { solveSpd, zeros } from './linalg.js';
import { median as numpyMedian } from '../../core/stats.js';
import { METRICS, PRIOR_BAND_LOG_SD, type Figures, type Observation, type Predictor } from './observation.js';

const K = FIT_KEYS.length;
/** Finite-difference step in ln(correction). */
const STEP = 0.1;
/** Largest change of one ln(correction) in one Gauss-Newton step (a factor e). */
const MAX_DELTA = 1;
/** Up to this many observations the leave-one-out figure reruns the predictor; beyond, the linearised one (n fewer predictor calls per fit). */
const EXACT_LOO = 6;

/** One observation linearised at a point: per metric the model's ln figure, its gradient and the measured ln figure. */
interface Lin {
  obs: number;
  engine: number;
  f: number[];
  y: number[];
  w: number[];
  grad: number[][];
}

export interface FitRow {
  id: string;
  engine: string;
  measured: Figures;
  prior: Figures;
  calibrated: Figures;
  /** predicted / measured - 1 on throughput, before and after calibration (in-sample). */
  priorErr: number;
  calibratedErr: number;
  /** The same with this observation left out of the fit. */
  looErr: number;
}

export interface CalibrationFit {
  set: CorrectionSet;
  rows: FitRow[];
  /** Observations the model cannot run (not in the fit), with their id. */
  dropped: string[];
  /** Median |error| over the rows: prior model, leave-one-out calibrated, in-sample calibrated. */
  priorMedianAbs: number;
  looMedianAbs: number;
  inSampleMedianAbs: number;
  /** Error band of a calibrated throughput prediction: standard deviation of ln(measured / predicted). */
  bandLogSd: number;
  /** Each observation's gradient at the last linearisation, by id (a refit's FitOptions.gradients). */
  gradients: Map<string, number[][]>;
}

const median = (xs: number[]) => (xs.length ? numpyMedian(xs) : NaN);

/** Prior precision of each parameter: host values first, then one block per engine. */
function priorPrecision(engines: number): number[] {
  const p: number[] = [];
  for (let e = -1; e < engines; e++) for (const key of FIT_KEYS) p.push(1 / (PRIORS[key].sigma * (e < 0 ? 1 : ENGINE_SHARE)) ** 2);
  return p;
}

/** The correction set a parameter vector stands for. */
export function setOf(theta: number[], engines: string[], gpu?: string): CorrectionSet {
  const host: Partial<Corrections> = {};
  FIT_KEYS.forEach((key, k) => (host[key] = Math.exp(theta[k]!)));
  const eng: CorrectionSet['engines'] = {};
  engines.forEach((name, e) => {
    const c: Partial<Corrections> = {};
    FIT_KEYS.forEach((key, k) => (c[key] = Math.exp(theta[K * (1 + e) + k]!)));
    eng[name] = c;
  });
  return { ...(gpu ? { gpu } : {}), host, engines: eng };
}

const logs = (f: Figures) => METRICS.map((m) => Math.log(f[m.key]));
const usable = (v: number) => Number.isFinite(v) && v > 0;

/** Linearise one observation at theta from the model's figures there (`base`): K more predictor calls, none when its gradient is `known`. */
function linearise<O extends Observation>(
  o: O,
  i: number,
  engine: number,
  engines: string[],
  theta: number[],
  base: Figures,
  predict: Predictor<O>,
  known?: number[][],
): Lin {
  const set = setOf(theta, engines);
  const f = logs(base);
  const y = logs(o.measured);
  const w = METRICS.map((m, j) => (usable(o.measured[m.key]) && Number.isFinite(f[j]!) ? 1 / m.sd ** 2 : 0));
  if (known) return { obs: i, engine, f, y, w, grad: known };
  const grad = METRICS.map(() => new Array<number>(K).fill(0));
  FIT_KEYS.forEach((key, k) => {
    if (PRIORS[key].engines && !PRIORS[key].engines.includes(o.engine)) return; // its figures do not read this correction: gradient 0
    const c = correctionsFor(set, o.engine);
    c[key] *= Math.exp(STEP);
    const up = predict(o, c);
    if (!up) return;
    logs(up).forEach((v, j) => (grad[j]![k] = Number.isFinite(v) && Number.isFinite(f[j]!) ? (v - f[j]!) / STEP : 0));
  });
  return { obs: i, engine, f, y, w, grad };
}

/** The MAP objective at theta given the model's figures there: weighted squared log residuals plus the prior. */
function objective(obs: Observation[], bases: (Figures | undefined)[], theta: number[], prec: number[]): number {
  let v = theta.reduce((s, t, i) => s + prec[i]! * t * t, 0);
  obs.forEach((o, i) => {
    const b = bases[i];
    if (!b) return;
    METRICS.forEach((m) => {
      const r = Math.log(o.measured[m.key]) - Math.log(b[m.key]);
      if (Number.isFinite(r)) v += (r * r) / m.sd ** 2;
    });
  });
  return v;
}

/** Normal equations of the MAP step at theta: (R'WR + P) d = R'W(y - f) - P theta, over `lins`. */
function normal(lins: Lin[], theta: number[], prec: number[]): { a: number[][]; b: number[] } {
  const n = theta.length;
  const a = zeros(n);
  const b = theta.map((t, i) => -prec[i]! * t);
  for (let i = 0; i < n; i++) a[i]![i] = prec[i]!;
  for (const l of lins) {
    const cols = (k: number) => [k, K * (1 + l.engine) + k];
    l.grad.forEach((g, j) => {
      const w = l.w[j]!;
      if (!w) return;
      const r = l.y[j]! - l.f[j]!;
      for (let k1 = 0; k1 < K; k1++) {
        for (const c1 of cols(k1)) {
          b[c1]! += w * g[k1]! * r;
          for (let k2 = 0; k2 < K; k2++) for (const c2 of cols(k2)) a[c1]![c2]! += w * g[k1]! * g[k2]!;
        }
      }
    });
  }
  return { a, b };
}

/** The linearised throughput prediction of `l` after moving theta by d. */
function thrAfter(l: Lin, d: number[]): number {
  let v = l.f[0]!;
  for (let k = 0; k < K; k++) v += l.grad[0]![k]! * (d[k]! + d[K * (1 + l.engine) + k]!);
  return v;
}

export interface FitOptions {
  /** Gauss-Newton iterations (each costs K + 1 predictor calls per observation). */
  iterations?: number;
  /** GPU catalog name recorded on the set. */
  gpu?: string;
  /** Start from this set (a previous fit) instead of the prior: a refit as observations arrive needs fewer iterations. */
  start?: CorrectionSet;
  /** Gradients of observations (by id) from a previous fit, reused in the first iteration instead of K predictor calls each. */
  gradients?: ReadonlyMap<string, number[][]>;
}

/** The parameter vector of a set (0 where it has no value). */
function thetaOf(set: CorrectionSet | undefined, engines: string[]): number[] {
  const at = (c: Partial<Corrections> | undefined) => FIT_KEYS.map((key) => Math.log(c?.[key] ?? 1));
  return [...at(set?.host), ...engines.flatMap((e) => at(set?.engines[e]))];
}

/** Fit host corrections to observations. Never throws for bad data: unusable observations are dropped and listed. */
export function fitCorrections<O extends Observation>(observations: O[], predict: Predictor<O>, opts: FitOptions = {}): CalibrationFit {
  const engines = [...new Set(observations.map((o) => o.engine))];
  const prec = priorPrecision(engines.length);
  const figuresAt = (t: number[]) => observations.map((o) => predict(o, correctionsFor(setOf(t, engines), o.engine)));
  const priorFigures = figuresAt(new Array<number>(prec.length).fill(0));
  // Observations the model cannot run at the prior are out of the fit (listed as dropped).
  const kept = observations.map((_, i) => i).filter((i) => priorFigures[i]);
  let theta = thetaOf(opts.start, engines);
  let bases = opts.start ? figuresAt(theta) : priorFigures;
  if (!kept.every((i) => bases[i])) [theta, bases] = [theta.map(() => 0), priorFigures];
  let lins: Lin[] = [];
  for (let it = 0; it < (opts.iterations ?? 3); it++) {
    const known = (i: number) => (it === 0 ? opts.gradients?.get(observations[i]!.id) : undefined);
    lins = kept.map((i) =>
      linearise(observations[i]!, i, engines.indexOf(observations[i]!.engine), engines, theta, bases[i]!, predict, known(i)),
    );
    const { a, b } = normal(lins, theta, prec);
    const step = solveSpd(a, b).map((v) => Math.max(-MAX_DELTA, Math.min(MAX_DELTA, v)));
    // Gauss-Newton with step halving: take the step only where the objective falls.
    const now = objective(observations, bases, theta, prec);
    let moved = false;
    for (let h = 1; h >= 1 / 8 && !moved; h /= 2) {
      const next = theta.map((t, i) => t + h * step[i]!);
      const nb = figuresAt(next);
      if (kept.every((i) => nb[i]) && objective(observations, nb, next, prec) < now) [theta, bases, moved] = [next, nb, true];
    }
    if (!moved) break;
  }
  const set = setOf(theta, engines, opts.gpu);
  // The final point: figures and residuals there, the last Jacobian for leave-one-out.
  const at = lins.map((l) => ({ ...l, f: logs(bases[l.obs]!) }));
  const rows = at.map((l, i) => {
    const o = observations[l.obs]!;
    return row(
      o,
      priorFigures[l.obs]!,
      bases[l.obs]!,
      looThroughput(at, i, theta, prec, engines, o, at.length <= EXACT_LOO ? predict : undefined),
    );
  });
  const loo = rows.map((r) => Math.log1p(r.looErr));
  const bandLogSd = Math.sqrt((loo.reduce((s, v) => s + v * v, 0) + PRIOR_BAND_LOG_SD ** 2) / (loo.length + 1));
  return {
    set,
    rows,
    dropped: observations.filter((_, i) => !priorFigures[i]).map((o) => o.id),
    priorMedianAbs: median(rows.map((r) => Math.abs(r.priorErr))),
    looMedianAbs: median(rows.map((r) => Math.abs(r.looErr))),
    inSampleMedianAbs: median(rows.map((r) => Math.abs(r.calibratedErr))),
    bandLogSd,
    gradients: new Map(lins.map((l) => [observations[l.obs]!.id, l.grad])),
  };
}

/**
 * Throughput predicted for at[i] by the fit without it: the step from the final point solved on
 * the other observations (linearised there), then the predictor run at that point (not the
 * linearisation), so a lone observation left out gets exactly the prior model's figure.
 */
function looThroughput<O extends Observation>(
  at: Lin[],
  i: number,
  theta: number[],
  prec: number[],
  engines: string[],
  o: O,
  predict: Predictor<O> | undefined,
): number {
  const { a, b } = normal(
    at.filter((_, j) => j !== i),
    theta,
    prec,
  );
  const d = solveSpd(a, b);
  const f = predict?.(
    o,
    correctionsFor(
      setOf(
        theta.map((t, j) => t + d[j]!),
        engines,
      ),
      o.engine,
    ),
  );
  return f ? Math.log(f.totalTokPerS) : thrAfter(at[i]!, d);
}

function row(o: Observation, prior: Figures, calibrated: Figures, looLnThr: number): FitRow {
  const m = o.measured.totalTokPerS;
  return {
    id: o.id,
    engine: o.engine,
    measured: o.measured,
    prior,
    calibrated,
    priorErr: prior.totalTokPerS / m - 1,
    calibratedErr: calibrated.totalTokPerS / m - 1,
    looErr: Math.exp(looLnThr) / m - 1,
  };
}

/** A band as a readable +-percentage: '+-6%'. */
export function bandPct(bandLogSd: number): string {
  return `+-${Math.round((Math.exp(bandLogSd) - 1) * 100)}%`;
}
