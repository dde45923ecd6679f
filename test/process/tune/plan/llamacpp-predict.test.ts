// The planner's prior for llama.cpp (src/tune/plan/llamacpp-predict.ts): llama.cpp's own estimate
// on this host's CPU, for the GGUF given and for the files llama-quantize will make (derived from
// the source's header before they exist). No speeds are asserted: only what the model's structure
// implies (a smaller weight type streams fewer bytes per decode step) and that the plan carries it.
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { cpuOnlyHost } from '../../../../src/host/cpu.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { planHost, realPlanDeps } from '../../../../src/tune/plan/deps.js';
import { buildPlan } from '../../../../src/tune/plan/plan.js';
import { LLAMA_SKIP, testGguf } from '../../../helpers/llamacpp-fixture.js';
import { skipNote } from '../../../helpers/skip.js';

describe.skipIf(LLAMA_SKIP !== undefined)(`llama.cpp's prior in the plan${skipNote(LLAMA_SKIP)}`, () => {
  const plan = (extra: string[]) => {
    const gguf = testGguf({ arch: 'qwen3', hidden: 256, layers: 4 });
    const config = parseAutoArgs([
      '--model',
      gguf,
      '--scenario',
      'random:128/32',
      '--num-prompts',
      '24',
      '--run-dir',
      '/tmp/servelab-llpred',
      ...extra,
    ]).config!;
    const host = cpuOnlyHost();
    return buildPlan(config, planHost(host), realPlanDeps(config, host, config.runDir!));
  };

  it('predicts every runnable variant, the quantized files before llama-quantize makes them', () => {
    const p = plan([]);
    const quant = p.stages.find((s) => s.name === 'quantization')!.variants;
    expect(quant.map((v) => v.change)).toEqual(['gguf Q8_0', 'gguf Q4_0']);
    for (const v of quant) expect(existsSync(v.variant.model)).toBe(false);
    const [f16] = p.stages[0]!.variants;
    const [q8, q4] = quant;
    for (const v of [f16, q8, q4]) expect(v!.predicted?.totalTokPerS).toBeGreaterThan(0);
    // Decode streams the weights once a step: fewer bytes per weight, a shorter step.
    expect(q8!.predicted!.meanTpotMs).toBeLessThan(f16!.predicted!.meanTpotMs);
    expect(q4!.predicted!.meanTpotMs).toBeLessThan(q8!.predicted!.meanTpotMs);
    for (const s of p.stages) for (const v of s.variants) if (v.status === 'planned') expect(v.predicted, v.variant.id).toBeDefined();
  });

  it('under --budget, adds the predicted path of llama.cpp to the engine stage', () => {
    const engine = plan(['--budget', '0.5']).stages[0]!.variants;
    const path = engine.find((v) => v.predictedPath);
    expect(path?.change).toMatch(/^llamacpp predicted path: /);
    expect(path!.predictedPath!.length).toBeGreaterThanOrEqual(2);
    expect(engine[0]!.change).toBe('defaults');
  });
});
