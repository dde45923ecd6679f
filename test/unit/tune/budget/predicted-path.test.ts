// Under --budget the engine stage also holds each engine's predicted path (src/tune/plan/predicted-path.ts):
// the plan's greedy walk applied from each engine's defaults, as one variant. Checked on the real
// planner (sim deps) and on the pure walk with a scripted step.
import { describe, expect, it } from 'vitest';
import { simulatedHost } from '../../../../src/host/gpus.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { planBudget } from '../../../../src/tune/budget/budget.js';
import { planHost, realPlanDeps } from '../../../../src/tune/plan/deps.js';
import { buildPlan } from '../../../../src/tune/plan/plan.js';
import { PREDICTED_PATH_NOTE, predictedPathVariants } from '../../../../src/tune/plan/predicted-path.js';
import type { PlannedVariant } from '../../../../src/tune/plan/types.js';
import { makeVariant } from '../../../../src/tune/plan/variant-ids.js';

function plan(extra: string[]) {
  const { config } = parseAutoArgs([
    '--auto',
    '--sim',
    '--gpu',
    'H100',
    '--gpus',
    '1',
    '--model',
    'Qwen/Qwen3-14B',
    '--scale',
    '0.1',
    '--run-dir',
    '/tmp/servelab-path-test',
    ...extra,
  ]);
  const host = simulatedHost(config!.sim!.gpu, config!.sim!.gpus);
  const deps = realPlanDeps(config!, host, config!.runDir!);
  return { plan: buildPlan(config!, planHost(host), deps), config: config!, deps };
}

describe('predicted paths under --budget', () => {
  it("adds each engine's predicted path to the engine stage, and only under a budget", () => {
    const withBudget = plan(['--budget', '1']).plan;
    const engine = withBudget.stages[0]!.variants;
    const paths = engine.filter((v) => v.predictedPath);
    expect(paths.map((v) => v.variant.engine).sort()).toEqual(['sglang', 'trtllm', 'vllm']);
    for (const p of paths) {
      expect(p.stage).toBe('engine');
      expect(p.predictedPath!.length).toBeGreaterThanOrEqual(2);
      expect(p.change).toBe(`${p.variant.engine} predicted path: ${p.predictedPath!.join(', ')}`);
    }
    // The defaults stay first, so the baseline is still vLLM's defaults.
    expect(engine.slice(0, 3).map((v) => v.change)).toEqual(['defaults', 'defaults', 'defaults']);
    // The plan's own predicted winner is the end of the best engine's path.
    expect(paths.map((v) => v.variant.id)).toContain(withBudget.predictedWinnerId);
    expect(withBudget.notes).toContain(PREDICTED_PATH_NOTE);
    const without = plan([]).plan;
    expect(without.stages[0]!.variants.some((v) => v.predictedPath)).toBe(false);
    expect(without.notes).not.toContain(PREDICTED_PATH_NOTE);
  });

  it("leaves the paths out of the full protocol's projected cost", () => {
    const a = plan(['--budget', '1']);
    const b = plan([]);
    const withPaths = planBudget(a.plan, a.config, (v, s) => a.deps.predict(v, s))!;
    const budgetB = planBudget(b.plan, { ...b.config, budget: { gpuHours: 1 } }, (v, s) => b.deps.predict(v, s))!;
    expect(withPaths.fullProtocolGpuHours).toBeCloseTo(budgetB.fullProtocolGpuHours, 6);
  });

  it('walks the later stages greedily and skips a walk of fewer than two changes', () => {
    const pv = (engine: 'vllm' | 'sglang', knobs: PlannedVariant['variant']['knobs'], change: string, stage: PlannedVariant['stage']) =>
      ({
        variant: makeVariant(engine, 'm', knobs, parseAutoArgs(['--auto', '--sim', '--model', 'Qwen/Qwen3-14B']).config!),
        stage,
        change,
        status: 'planned',
        warnings: [],
      }) as PlannedVariant;
    const starts = [pv('vllm', {}, 'defaults', 'engine'), pv('sglang', {}, 'defaults', 'engine')];
    // vllm gains in batching and compile; sglang only in batching.
    const step = (stage: PlannedVariant['stage'], at: PlannedVariant): PlannedVariant => {
      if (stage === 'batching') return pv(at.variant.engine as 'vllm', { ...at.variant.knobs, maxBatchedTokens: 4096 }, 'mbt=4096', stage);
      if (stage === 'compile' && at.variant.engine === 'vllm')
        return pv('vllm', { ...at.variant.knobs, torchCompile: true }, 'compile', stage);
      return at;
    };
    const out = predictedPathVariants(starts, ['batching', 'attention', 'compile'], step);
    expect(out).toHaveLength(1);
    expect(out[0]!.variant.engine).toBe('vllm');
    expect(out[0]!.predictedPath).toEqual(['mbt=4096', 'compile']);
    expect(out[0]!.variant.knobs).toMatchObject({ maxBatchedTokens: 4096, torchCompile: true });
  });
});
