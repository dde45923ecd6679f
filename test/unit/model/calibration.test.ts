// Host corrections (src/model/calibration): the multipliers reach the step time where they say,
// the MAP fit moves them only as far as the data says, and leave-one-out is honest. The fit is
// checked on a small analytic predictor (known truth) and once on the real estimate.
import { describe, expect, it } from 'vitest';
import { correctionsFor, NEUTRAL, parseCorrectionSet, type Corrections } from '../../../src/model/calibration/corrections.js';
import { correctServer } from '../../../src/model/correct-server.js';
import { fitCorrections } from '../../../src/model/calibration/fit.js';
import { PRIOR_BAND_LOG_SD, type Figures, type Observation } from '../../../src/model/calibration/observation.js';
import { solveSpd } from '../../../src/model/calibration/linalg.js';
import { resolveServer } from '../../../src/model/estimate.js';
import { stepTime } from '../../../src/model/step-time.js';
import { findGpu } from '../../../src/model/gpus.js';
import { getModel } from '../../../src/model/models.js';
import { toyObs, toyPredict, TRUTH, type Toy } from '../../helpers/model/calibration-toy.js';

describe('solveSpd', () => {
  it('solves a known system and refuses a matrix that is not positive definite', () => {
    expect(
      solveSpd(
        [
          [4, 2],
          [2, 3],
        ],
        [2, 1],
      ).map((v) => +v.toFixed(6)),
    ).toEqual([0.5, 0]);
    expect(() =>
      solveSpd(
        [
          [1, 2],
          [2, 1],
        ],
        [1, 1],
      ),
    ).toThrow(/positive definite/);
  });
});

describe('correction sets', () => {
  it('multiplies host values by engine factors, 1 where unset', () => {
    const set = parseCorrectionSet({ host: { gemm: 0.8 }, engines: { sglang: { gemm: 1.25, hostOverhead: 2 } } });
    expect(correctionsFor(set, 'sglang')).toMatchObject({ gemm: 1, hostOverhead: 2, bandwidth: 1 });
    expect(correctionsFor(set, 'llamacpp')).toMatchObject({ gemm: 0.8, hostOverhead: 1 });
  });
  it('refuses unknown keys and non-positive factors with the field', () => {
    expect(() => parseCorrectionSet({ host: { gemmm: 1 } })).toThrow(/host/);
    expect(() => parseCorrectionSet({ engines: { vllm: { gemm: -1 } } })).toThrow(/engines\.vllm\.gemm/);
  });
});

describe('correctServer', () => {
  const gpu = findGpu('H100')!;
  const cfg = resolveServer('vllm', gpu, 1, getModel('Qwen/Qwen3-14B')!, {});
  const decode = { prefillTokens: 0, prefillAttnPairs: 0, decodeSeqs: 64, decodeCtx: 64 * 500 };
  const prefill = { prefillTokens: 8192, prefillAttnPairs: 8192 * 4096, decodeSeqs: 0, decodeCtx: 0 };

  it('neutral corrections leave the server as it was (same object)', () => {
    expect(correctServer(cfg, NEUTRAL)).toBe(cfg);
    expect(correctServer(cfg, undefined)).toBe(cfg);
  });
  it('a faster GEMM shortens the compute-bound prefill step, not the host work', () => {
    const fast = correctServer(cfg, { ...NEUTRAL, gemm: 2 });
    expect(stepTime(fast, prefill).gemmS).toBeCloseTo(stepTime(cfg, prefill).gemmS / 2, 9);
    expect(stepTime(fast, prefill).overheadS).toBe(stepTime(cfg, prefill).overheadS);
  });
  it('the prefill factor scales steps with prefill only; host overhead scales the host part', () => {
    const slowPrefill = correctServer(cfg, { ...NEUTRAL, prefill: 1.5 });
    expect(stepTime(slowPrefill, prefill).seconds).toBeCloseTo(stepTime(cfg, prefill).seconds * 1.5, 9);
    expect(stepTime(slowPrefill, decode).seconds).toBe(stepTime(cfg, decode).seconds);
    const slowHost = correctServer(cfg, { ...NEUTRAL, hostOverhead: 3 });
    expect(stepTime(slowHost, decode).seconds - stepTime(cfg, decode).seconds).toBeCloseTo(
      2 * (cfg.eff.stepOverheadS + cfg.eff.perSeqOverheadS * 64 + cfg.eff.perLayerOverheadS * cfg.model.numLayers),
      9,
    );
  });
  it('bandwidth and attention scale the decode step, and the input is not changed', () => {
    const before = JSON.stringify(cfg);
    const c = correctServer(cfg, { ...NEUTRAL, bandwidth: 0.5, attention: 0.5 });
    expect(stepTime(c, decode).attnS).toBeCloseTo(stepTime(cfg, decode).attnS * 4, 9);
    expect(JSON.stringify(cfg)).toBe(before);
  });
});

describe('fitCorrections', () => {
  it('no observations: the prior (every correction 1) and the prior band', () => {
    const f = fitCorrections<Toy>([], toyPredict);
    expect(f.rows).toEqual([]);
    expect(Object.values(f.set.host).every((v) => v === 1)).toBe(true);
    expect(f.bandLogSd).toBeCloseTo(PRIOR_BAND_LOG_SD, 12);
  });

  it('many observations of one host recover its throughput; leave-one-out beats the prior', () => {
    const obs = toyObs(12, TRUTH);
    const f = fitCorrections(obs, toyPredict, { iterations: 4 });
    expect(f.priorMedianAbs).toBeGreaterThan(0.15);
    expect(f.looMedianAbs).toBeLessThan(0.03);
    expect(f.inSampleMedianAbs).toBeLessThan(0.02);
    const k = correctionsFor(f.set, 'vllm');
    expect(k.hostOverhead).toBeGreaterThan(1.4);
    expect(k.gemm).toBeLessThan(0.9);
    // The band comes from the leave-one-out errors: far tighter than the prior's.
    expect(f.bandLogSd).toBeLessThan(PRIOR_BAND_LOG_SD / 2);
  });

  it('one observation moves the corrections less than many do (the prior holds them)', () => {
    const one = correctionsFor(fitCorrections(toyObs(1, TRUTH), toyPredict, { iterations: 4 }).set, 'vllm');
    const many = correctionsFor(fitCorrections(toyObs(12, TRUTH), toyPredict, { iterations: 4 }).set, 'vllm');
    // GEMM speed is what one observation says least about (host work explains most of it).
    expect(Math.abs(Math.log(one.gemm))).toBeLessThan(Math.abs(Math.log(many.gemm)));
    expect(one.gemm).toBeLessThan(1);
    // A correction no measurement depends on stays exactly at its prior.
    expect(many.comm).toBe(1);
    // One observation left out leaves nothing: its leave-one-out prediction is the prior's.
    const f1 = fitCorrections(toyObs(1, TRUTH), toyPredict);
    expect(f1.rows[0]!.looErr).toBeCloseTo(f1.rows[0]!.priorErr, 9);
  });

  it('an engine measured once borrows what the host showed on another engine', () => {
    const obs = [...toyObs(8, TRUTH, 'vllm'), ...toyObs(1, TRUTH, 'sglang', 7)];
    const f = fitCorrections(obs, toyPredict, { iterations: 3 });
    const unseen = correctionsFor(f.set, 'trtllm');
    expect(unseen.hostOverhead).toBeGreaterThan(1.2);
    const held = toyObs(3, TRUTH, 'trtllm', 11);
    const err = (k: Corrections) => held.map((o) => Math.abs(toyPredict(o, k).totalTokPerS / o.measured.totalTokPerS - 1));
    expect(Math.max(...err(unseen))).toBeLessThan(Math.min(...err(NEUTRAL)));
  });

  it('an observation the model cannot run is dropped and named', () => {
    const obs = toyObs(3, TRUTH);
    const f = fitCorrections(obs, (o, k) => (o.id === 'vllm-1' ? undefined : toyPredict(o, k)));
    expect(f.dropped).toEqual(['vllm-1']);
    expect(f.rows.map((r) => r.id)).toEqual(['vllm-0', 'vllm-2']);
  });
});
