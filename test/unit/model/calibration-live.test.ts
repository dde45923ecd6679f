// LiveCalibration: a session's calibration refitted as each measured variant arrives (warm start,
// one iteration) lands where a fresh fit does, and its figures for a variant not yet measured
// move from the prior toward the host.
import { describe, expect, it } from 'vitest';
import { correctionsFor, NEUTRAL } from '../../../src/model/calibration/corrections.js';
import { fitCorrections } from '../../../src/model/calibration/fit.js';
import { PRIOR_BAND_LOG_SD } from '../../../src/model/calibration/observation.js';
import { LiveCalibration, predictionCell } from '../../../src/model/calibration/live.js';
import { toyObs, toyPredict, TRUTH } from '../../helpers/model/calibration-toy.js';

describe('LiveCalibration', () => {
  it('before any observation: calibrated is the prior, the band is the prior band', () => {
    const live = new LiveCalibration(toyPredict);
    const [o] = toyObs(1, TRUTH);
    const f = live.figures(o!);
    expect(f.calibrated).toEqual(f.prior);
    expect(f).toMatchObject({ observations: 0, bandLogSd: PRIOR_BAND_LOG_SD });
    expect(live.summary()).toMatch(/no measured variant yet/);
    expect(predictionCell(f, 123.4)).toBe(`prior ${f.prior!.totalTokPerS.toFixed(0)}, measured 123`);
  });

  it('refits as observations arrive: the unmeasured variant’s error falls, and lands near a fresh fit', () => {
    const obs = toyObs(9, TRUTH);
    const held = obs.pop()!;
    const live = new LiveCalibration(toyPredict);
    const err = () => Math.abs(live.figures(held).calibrated!.totalTokPerS / held.measured.totalTokPerS - 1);
    const before = err();
    for (const o of obs) live.add(o);
    expect(live.fit!.rows).toHaveLength(8);
    expect(err()).toBeLessThan(before / 5);
    const fresh = correctionsFor(fitCorrections(obs, toyPredict, { iterations: 4 }).set, 'vllm');
    const warm = correctionsFor(live.set, 'vllm');
    expect(Math.abs(Math.log(warm.hostOverhead / fresh.hostOverhead))).toBeLessThan(0.05);
    expect(live.summary()).toMatch(
      /^calibration: 8 measured variant\(s\), leave-one-out median \|throughput error\| \d+\.\d% \(prior model \d+\.\d%\), band \+-\d+%$/,
    );
    const cell = predictionCell(live.figures(held), held.measured.totalTokPerS);
    expect(cell).toMatch(/^prior \d+, calibrated \d+ \+-\d+%, measured \d+$/);
  });

  it('a start set (a host calibration file) is used before the first observation', () => {
    const live = new LiveCalibration(toyPredict, { start: { host: { hostOverhead: 1.8 }, engines: {} } });
    const [o] = toyObs(1, TRUTH);
    expect(live.figures(o!).calibrated!.totalTokPerS).toBeLessThan(toyPredict(o!, NEUTRAL).totalTokPerS);
  });
});
