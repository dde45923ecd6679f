// A plan's prediction carries the model's measured error at its engine and concurrency (the median
// miss on held-out measured runs), and the budget's screening reads that band for a variant no
// measurement has calibrated yet.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { realPlanDeps } from '../../../../src/tune/plan/deps.js';
import { planSession } from '../../../../src/tune/session/session.js';
import { measuredError, sdOfMedianAbsPct } from '../../../../src/model/data/measured-error.js';
import { planText } from '../../../../src/cli/text-plan.js';
import { predictionOf } from '../../../../src/tune/stage/budget-stage.js';
import type { SessionContext } from '../../../../src/tune/context/session-context.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-prederr-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const config = parseAutoArgs([
  '--sim',
  '--model',
  'Qwen/Qwen3-14B',
  '--engines',
  'vllm,sglang',
  '--stages',
  'engine',
  '--num-prompts',
  '200',
  '--out',
  dir,
]).config!;

describe('the measured error on a prediction', () => {
  it('is the held-out band of the engine at the concurrency the scenario runs', async () => {
    const { plan, host } = await planSession(config);
    const deps = realPlanDeps(config, host, dir);
    const vllm = plan.stages[0]!.variants.find((v) => v.variant.engine === 'vllm')!;
    const sglang = plan.stages[0]!.variants.find((v) => v.variant.engine === 'sglang')!;
    // 200 prompts at once: vLLM's band tops out at 128, SGLang's goes on above it.
    expect(vllm.predicted?.errorPct).toBeUndefined();
    expect(sglang.predicted?.errorPct).toBeCloseTo(measuredError('sglang', 200)!.tputPerGpu * 100, 6);
    const at4 = deps.predict(vllm.variant, { ...config.scenario, maxConcurrency: 4 })!;
    const at64 = deps.predict(vllm.variant, { ...config.scenario, maxConcurrency: 64 })!;
    expect(at4.errorPct).toBeCloseTo(measuredError('vllm', 4)!.tputPerGpu * 100, 6);
    expect(at64.errorPct).toBeCloseTo(measuredError('vllm', 64)!.tputPerGpu * 100, 6);
    expect(at4.errorPct).not.toBe(at64.errorPct);
    // The headless plan says it as the Plan screen does; a prediction no held-out run covers says none.
    const text = planText(plan, config);
    expect(text).toMatch(
      new RegExp(`\\[run\\] +sglang +\\(defaults\\) +predicted [\\d.,]+ tok/s \\+-${Math.round(sglang.predicted!.errorPct!)}%`),
    );
    expect(text).toMatch(/\[run\] +vllm +\(defaults\) +predicted [\d.,]+ tok\/s, TTFT/);
  });

  it('sets the budget prior band (1 s.d.) where nothing is calibrated; 30% where no run covers it', async () => {
    const { plan } = await planSession(config);
    const ctx = {} as SessionContext;
    const [a, b] = plan.stages[0]!.variants;
    const measured = { ...a!, predicted: { ...a!.predicted!, errorPct: 25 } };
    const uncovered = { ...b!, predicted: { ...b!.predicted! } };
    delete uncovered.predicted.errorPct;
    expect(predictionOf(ctx, measured, 'sharegpt-like')!.bandPct).toBeCloseTo(sdOfMedianAbsPct(25), 6);
    expect(sdOfMedianAbsPct(25)).toBeCloseTo(37.06, 2);
    expect(predictionOf(ctx, uncovered, 'sharegpt-like')!.bandPct).toBe(30);
  });
});
