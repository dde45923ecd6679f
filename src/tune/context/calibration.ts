// The session's host calibration: every measured variant adds an observation and the
// host corrections are refitted as they arrive (src/model/calibration/live.ts, the simulator as
// the predictor). Before a variant's own measurement joins the fit, its calibrated prediction is
// recorded beside the plan's prior one, so each result carries prior, calibrated with its band,
// and measured; the session reports the calibration's own leave-one-out error. `--calibration
// FILE` starts it from a host calibration (refused from another GPU, warnings for the rest).
import type { VariantResult } from '../../core/events.js';
import { LiveCalibration } from '../../model/calibration/live.js';
import { checkCalibration, readCalibrationFile } from '../../profiles/store/calibration-file.js';
import type { SessionCalibration as CalibrationRecord } from '../../profiles/schema/calibrated.js';
import { observationOf, simPredictor, workloadOf, type SimObservation } from '../../sim/predict/calibrated.js';
import { UserError } from '../../core/errors.js';
import type { SessionConfig } from '../config/config.js';
import type { Plan } from '../plan/types.js';
import type { PlanHost } from '../../engines/kit/plan-types.js';
import { stageScenario } from '../plan/replica.js';
import { pctFigure } from '../../core/format.js';

const pctOf = (logSd: number) => Math.round((Math.exp(logSd) - 1) * 1000) / 10;

export class SessionCalibrator {
  private readonly live: LiveCalibration<SimObservation>;

  constructor(
    private readonly config: SessionConfig,
    private readonly host: PlanHost,
    private readonly plan: Pick<Plan, 'replica'>,
    private readonly versions: Record<string, string>,
    private readonly startedFrom?: { file: string; set: CalibrationRecord['corrections']; bandLogSd: number; observations: number },
  ) {
    const start = startedFrom
      ? { start: startedFrom.set, startFit: { bandLogSd: startedFrom.bandLogSd, observations: startedFrom.observations } }
      : {};
    this.live = new LiveCalibration(simPredictor(), { gpu: host.gpuName, ...start });
  }

  /** The observation a result makes (its measured figures may be absent: a prediction only). */
  private observation(r: VariantResult): SimObservation | undefined {
    const c = this.config;
    // The stage's workload (a replica stage may resize it), or a validation scenario, by name.
    const scenario = [stageScenario(c.scenario, this.plan.replica, r.stage), c.scenario, ...c.validation].find(
      (s) => s.name === r.scenario,
    );
    if (!scenario) return undefined;
    const nodeSize = c.sim?.nodes ? c.sim.gpus / c.sim.nodes : c.runtime.kind === 'slurm' ? c.runtime.gpusPerNode : undefined;
    const metrics = r.metrics ?? { total_token_throughput: 1, mean_ttft_ms: 1, mean_tpot_ms: 1 };
    return observationOf(
      { ...r, status: 'ok', metrics },
      { gpuName: this.host.gpuName, gpuCount: this.host.gpuCount },
      workloadOf(scenario),
      this.versions,
      nodeSize,
    );
  }

  /** `r` with its calibrated prediction (made from the variants measured before it); unchanged when the model cannot run it. */
  annotate(r: VariantResult): VariantResult {
    const o = this.observation(r);
    const f = o && this.live.figures(o);
    if (!f?.calibrated) return r;
    return { ...r, calibrated: { ...f.calibrated, bandPct: pctOf(f.bandLogSd), observations: f.observations } };
  }

  /** Plan rows with a prior prediction get the calibrated one beside it (--calibration FILE: the plan shows both). */
  annotatePlan(plan: Plan): void {
    const now = new Date().toISOString();
    for (const s of plan.stages)
      for (const pv of s.variants) {
        if (pv.status !== 'planned' || !pv.predicted) continue;
        const scenario = stageScenario(this.config.scenario, plan.replica, pv.stage).name;
        const r = this.annotate({
          variantId: pv.variant.id,
          stage: pv.stage,
          scenario,
          status: 'ok',
          variant: pv.variant,
          argv: [],
          predicted: pv.predicted,
          startedAt: now,
          finishedAt: now,
        });
        if (r.calibrated) pv.calibrated = r.calibrated;
      }
  }

  /** Add a measured result and refit; the summary line when it joined the fit. */
  observe(r: VariantResult): string | undefined {
    if (r.status !== 'ok' || !r.metrics) return undefined;
    const o = this.observation(r);
    if (!o) return undefined;
    const fit = this.live.add(o);
    return fit.rows.length ? this.live.summary() : undefined;
  }

  /** The profile's record of the calibration; undefined before any observation. */
  record(): CalibrationRecord | undefined {
    const f = this.live.fit;
    if (!f || !f.rows.length) return undefined;
    return {
      observations: f.rows.length,
      priorMedianAbsPct: pctFigure(f.priorMedianAbs),
      looMedianAbsPct: pctFigure(f.looMedianAbs),
      bandPct: pctOf(f.bandLogSd),
      corrections: f.set,
      ...(this.startedFrom ? { startedFrom: this.startedFrom.file } : {}),
    };
  }
}

/** The session's calibrator, started from --calibration FILE when given (checked against this host). */
export function openCalibrator(
  config: SessionConfig,
  host: PlanHost,
  plan: Pick<Plan, 'replica'>,
  versions: Record<string, string>,
  warn: (message: string) => void,
): SessionCalibrator {
  if (!config.calibration) return new SessionCalibrator(config, host, plan, versions);
  const cal = readCalibrationFile(config.calibration);
  for (const engine of config.engines) {
    const version = versions[engine];
    const c = checkCalibration(cal, {
      gpuName: host.gpuName,
      gpuCount: host.gpuCount,
      ...(host.driver ? { driver: host.driver } : {}),
      simulated: host.simulated,
      engine,
      ...(version && /^\d/.test(version) ? { engineVersion: version } : {}),
    });
    if (c.refuse) throw new UserError(`--calibration ${config.calibration}: ${c.refuse}`);
    for (const w of c.warnings) warn(`calibration ${config.calibration}: ${w}`);
  }
  return new SessionCalibrator(config, host, plan, versions, {
    file: config.calibration,
    set: cal.corrections,
    bandLogSd: cal.fit.bandLogSd,
    observations: cal.fit.observations,
  });
}
