// The workbench service's translation of the screens into the tuning config (no process is started).
import { describe, expect, it } from 'vitest';
import { parseAutoArgs, parseTuiFlags } from '../../../../src/cli/auto-args.js';
import { planSession } from '../../../../src/tune/session/session.js';
import { dropUnchecked } from '../../../../src/tui/services/workbench.js';
import { checkForm, configFromChoices, formDefaults } from '../../../../src/tui/services/form.js';
import type { Settings } from '../../../../src/core/settings.js';
import { modelView, planView } from '../../../../src/tui/services/view.js';
import { validationSeconds } from '../../../../src/tune/plan/estimate-time.js';
import { form } from '../../../helpers/tui/fixtures.js';

const base = ['--sim', '--model', 'Qwen/Qwen3-14B', '--num-prompts', '10', '--validation', 'none'];

describe('real services', () => {
  it('turns unchecked candidates into drops that survive re-expansion, and whole stages into fewer stages', async () => {
    const config = parseAutoArgs(base).config!;
    const { plan } = await planSession(config);
    const byStage = (name: string) => plan.stages.find((s) => s.name === name)!.variants.filter((v) => v.status === 'planned');
    const quant = byStage('quantization');
    const attn = byStage('attention');
    expect(quant.length).toBeGreaterThan(0);
    expect(attn.length).toBeGreaterThan(1);
    const out = dropUnchecked(config, plan, ['vllm', ...quant.map((v) => v.variant.id), attn[0]!.variant.id]);
    expect(out.stages).not.toContain('quantization');
    expect(out.stages).toContain('attention');
    expect(out.drop).toContain('vllm');
    expect(out.drop).toContain(attn[0]!.change);
    expect(out.drop).not.toContain('defaults');
    // The planner honours it: the unchecked attention change is dropped, and no quantization stage.
    const again = (await planSession(out)).plan;
    expect(again.stages.map((s) => s.name)).not.toContain('quantization');
    const attnAgain = again.stages.find((s) => s.name === 'attention')!.variants.find((v) => v.change === attn[0]!.change);
    expect(attnAgain?.status ?? 'dropped').toBe('dropped');
  });

  it("sizes the form's prompts from the command line's --scale as --auto does (the same session, the same workload)", () => {
    const noSettings = { get: () => undefined } as unknown as Settings;
    const host = { simulated: true, gpuType: 'H100', gpuCount: 8 };
    for (const argv of [
      ['--scale', '0.05'],
      ['--scale', '0.3'],
      ['--scale', '0.3', '--num-prompts', '64'],
    ]) {
      const full = ['--sim', '--gpu', 'H100', '--gpus', '8', '--model', 'Qwen/Qwen3-14B', ...argv];
      const flags = parseTuiFlags(full);
      const tui = configFromChoices(flags, { host, form: formDefaults(flags, noSettings) });
      expect(tui.scenario.numPrompts).toBe(parseAutoArgs(full).config!.scenario.numPrompts);
    }
    // Without --scale or --num-prompts the workbench keeps its own quick default.
    expect(formDefaults(parseTuiFlags(['--sim']), noSettings).numPrompts).toBe('200');
  });

  it('builds the config from the screens, keeping the other flags', () => {
    const config = configFromChoices(parseTuiFlags(['--speed', '5', '--model', 'x', '--engines', 'sglang']), {
      host: { simulated: true, gpuType: 'H200', gpuCount: 2 },
      form: { ...form, seed: '7', slo: 'ttft:p99<2000', validation: 'none' },
    });
    expect(config.model).toBe('Qwen/Qwen3-14B');
    expect(config.engines).toEqual(['sglang']);
    expect(config.sim).toMatchObject({ gpu: 'H200', gpus: 2, speed: 5 });
    expect(config.scenario).toMatchObject({ dataset: 'random', inputLen: 200, outputLen: 100, numPrompts: 40 });
    expect(config.slo).toHaveLength(1);
    expect(config.validation).toEqual([]);
    // The form's seed seeds the tuning workload (no flag carries it).
    expect(config.scenario.seed).toBe(7);
  });

  it("sets --dummy-weights from the Plan screen's choice, the flag's value until the user flips it", () => {
    const choices = { host: { simulated: true, gpuType: 'H100', gpuCount: 1 }, form };
    expect(configFromChoices({}, choices).dummyWeights).toBeUndefined();
    expect(configFromChoices({}, { ...choices, dummyWeights: true }).dummyWeights).toBe(true);
    expect(configFromChoices({ 'dummy-weights': true }, choices).dummyWeights).toBe(true);
    expect(configFromChoices({ 'dummy-weights': true }, { ...choices, dummyWeights: false }).dummyWeights).toBeUndefined();
  });

  it('rejects bad choices with the words --auto uses for the same rule', () => {
    const choices = { host: { simulated: true, gpuType: 'H100', gpuCount: 1 }, form: { ...form, numPrompts: '0' } };
    expect(() => configFromChoices({}, choices)).toThrow("prompts must be a whole number >= 1, got '0'");
    expect(() => parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--num-prompts', '0'])).toThrow(
      "--num-prompts must be a whole number >= 1, got '0'",
    );
    expect(checkForm({ ...form, objective: 'goodput' })[0]).toBe(
      (() => {
        try {
          parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--objective', 'goodput']);
        } catch (e) {
          return (e as Error).message;
        }
      })(),
    );
  });

  it('plans views with commands, estimates and pruned reasons, and describes models', async () => {
    const config = parseAutoArgs([...base.slice(0, 2), 'zai-org/GLM-4.6', '--gpu', 'A100', '--gpus', '8', ...base.slice(3)]).config!;
    const { plan } = await planSession(config);
    const view = planView(plan, config.sim!);
    // On a real host of the same shape the estimate includes each engine's start-up.
    const real = planView(plan, { gpu: 'A100', gpus: 8 });
    const first = (v: typeof view) => v.stages[0]!.variants.find((x) => !x.pruned)!.estimateS!;
    expect(first(real)).toBeGreaterThan(first(view) + 10);
    const variants = view.stages.flatMap((s) => s.variants);
    expect(variants.some((v) => v.pruned)).toBe(true);
    const ok = variants.filter((v) => !v.pruned);
    expect(ok.every((v) => v.command.length > 0 && (v.estimateS ?? 0) > 0)).toBe(true);
    expect(view.caveat).toContain('local optimum');
    const m = modelView('zai-org/GLM-4.6');
    expect(m.known).toBe(true);
    expect(m.moe?.experts).toBeGreaterThan(1);
    expect(m.weights.find((w) => w.dtype === 'fp8')!.bytes).toBeLessThan(m.weights.find((w) => w.dtype === 'bf16')!.bytes);
    expect(modelView('no/such-model').known).toBe(false);
  });

  const pred = (totalTokPerS: number, peakEventsPerS?: number) => ({
    totalTokPerS,
    meanTtftMs: 100,
    meanTpotMs: 20,
    ...(peakEventsPerS ? { peakEventsPerS } : {}),
  });

  it('estimates the validation runs from the predicted baseline and winner, and nothing without validation', async () => {
    const quick = parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--num-prompts', '10', '--scale', '0.1']).config!;
    const { plan } = await planSession(quick);
    expect(plan.validation.length).toBeGreaterThan(1);
    const host = { gpu: 'H100', gpus: 1, speed: 5 };
    const calls: string[] = [];
    const s = validationSeconds(plan, host, (v, sc) => {
      calls.push(`${v.id}|${sc.name}`);
      return pred(10_000);
    });
    // Two sides, each launched once and run on the scenarios the stages did not measure.
    const sides = new Set(calls.map((c) => c.split('|')[0]));
    expect(sides.size).toBe(2);
    expect(s).toBeGreaterThan(2 * 2);
    // Slower predictions take longer.
    expect(validationSeconds(plan, host, () => pred(1000))).toBeGreaterThan(s);
    // With the automatic clock, a variant that streams more events per second runs on a slower clock.
    const auto = { ...host, autoSpeed: true };
    expect(validationSeconds(plan, auto, () => pred(10_000, 60_000))).toBeGreaterThan(
      validationSeconds(plan, auto, () => pred(10_000, 1_000)),
    );
    const none = parseAutoArgs(base).config!;
    expect(validationSeconds((await planSession(none)).plan, host, () => pred(10_000))).toBe(0);
  });

  it('takes the frontier objective and a sweep, with the words and config of --auto', () => {
    const autoError = (argv: string[]) => {
      try {
        parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', ...argv]);
      } catch (e) {
        return (e as Error).message;
      }
      return 'no error';
    };
    expect(checkForm({ ...form, objective: 'frontier' })).toEqual([autoError(['--objective', 'frontier'])]);
    expect(checkForm({ ...form, sweep: 'concurrency:0,8' })).toEqual([autoError(['--sweep', 'concurrency:0,8'])]);
    expect(checkForm({ ...form, sweep: 'load:8' })).toEqual([expect.stringContaining("bad --sweep 'load:8'")]);
    // A bad SLO says so once; the frontier rule does not add "needs --slo" on top.
    expect(checkForm({ ...form, objective: 'frontier', slo: 'tpot:p99<' })).toHaveLength(1);
    const host = { simulated: true, gpuType: 'H100', gpuCount: 1 };
    const config = configFromChoices({}, { host, form: { ...form, objective: 'frontier', slo: 'tpot:p99<200', sweep: 'concurrency:8,1' } });
    expect(config.sweep).toEqual({ spec: 'concurrency:1,8', all: false, frontier: true });
    // Under frontier the stages rank by output tok/s, as on the command line.
    expect(config.objective).toBe('output');
    expect(configFromChoices({}, { host, form }).sweep).toBeUndefined();
    // The form's empty sweep replaces the command line's: the form shows what will run.
    expect(configFromChoices({ sweep: 'concurrency:1,2' }, { host, form }).sweep).toBeUndefined();
  });

  it('checks the form with one line per problem', () => {
    expect(checkForm(form)).toEqual([]);
    expect(checkForm({ ...form, slo: 'ttft:p99<' })).toHaveLength(1);
    expect(checkForm({ ...form, objective: 'goodput' })).toEqual([expect.stringContaining('goodput')]);
    expect(checkForm({ ...form, scenario: 'sharegpt', datasetPath: '/no/such.json' })).toEqual([
      expect.stringContaining('/no/such.json: no such file'),
    ]);
    expect(checkForm({ ...form, numPrompts: '0', model: ' ' })).toHaveLength(2);
  });
});
