// vLLM's --performance-mode as a planner knob: a candidate of the batching stage on the releases
// whose table has it, rehearsed on the simulated host with --engine-version vllm=0.33.0.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../../src/core/errors.js';
import { simulatedHost } from '../../../../src/host/gpus.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { availableEngines } from '../../../../src/tune/session/open.js';
import { planHost, realPlanDeps } from '../../../../src/tune/plan/deps.js';
import { buildPlan } from '../../../../src/tune/plan/plan.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-perf-mode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function plan(extra: string[]) {
  const { config } = parseAutoArgs([
    '--auto',
    '--sim',
    '--gpu',
    'H100',
    '--model',
    'Qwen/Qwen3-14B',
    '--engines',
    'vllm',
    '--stages',
    'engine,batching',
    '--run-dir',
    join(dir, 'p'),
    ...extra,
  ]);
  const host = simulatedHost('H100', 1);
  const { versions } = await availableEngines(config!, host, () => {});
  return buildPlan(config!, planHost(host), realPlanDeps(config!, host, join(dir, 'p'), versions));
}

describe('--performance-mode in the plan', () => {
  it('vLLM 0.33.0: interactivity and throughput are batching candidates, spelled for 0.33.0', async () => {
    const p = await plan(['--engine-version', 'vllm=0.33.0']);
    const batching = p.stages.find((s) => s.name === 'batching')!.variants;
    const perf = batching.filter((v) => v.variant.knobs.performanceMode);
    expect(perf.map((v) => [v.variant.knobs.performanceMode, v.status])).toEqual([
      ['interactivity', 'planned'],
      ['throughput', 'planned'],
    ]);
    expect(perf.every((v) => v.variant.engineVersion === '0.33.0')).toBe(true);
    expect(p.notes.join('\n')).not.toMatch(/no installed version known/);
  });

  it('vLLM 0.11.0 (the default table) has no performance mode: not proposed', async () => {
    const p = await plan([]);
    expect(p.stages.find((s) => s.name === 'batching')!.variants.some((v) => v.variant.knobs.performanceMode)).toBe(false);
  });

  it('--engine-version is for the simulated host and wants ENGINE=VERSION', () => {
    expect(() => parseAutoArgs(['--auto', '--model', 'Qwen/Qwen3-14B', '--engine-version', 'vllm=0.33.0'])).toThrow(
      /--engine-version describes the simulated host; add --sim/,
    );
    expect(() => parseAutoArgs(['--auto', '--sim', '--model', 'Qwen/Qwen3-14B', '--engine-version', 'vllm'])).toThrow(UserError);
    expect(
      parseAutoArgs([
        '--auto',
        '--sim',
        '--model',
        'Qwen/Qwen3-14B',
        '--engine-version',
        'vllm=v0.33.0',
        '--engine-version',
        'sglang=0.5.23',
      ]).config!.sim!.engineVersions,
    ).toEqual({ vllm: '0.33.0', sglang: '0.5.23' });
  });
});
