// sim-serve reads the imitated engine's own prefix-cache flags among its --engine-arg extras, so a
// user's --extra-args turn the simulated cache off (or on, or lpm) as they would the real one.
import { describe, expect, it } from 'vitest';
import { parseSimArgs } from '../../../src/cli/sim-serve-args.js';

const knobs = (engine: string, extras: string[], version?: string) =>
  parseSimArgs([
    '--engine',
    engine,
    '--model',
    'Qwen/Qwen3-14B',
    ...(version ? ['--engine-version', version] : []),
    ...extras.map((x) => `--engine-arg=${x}`),
  ]).knobs;

describe("sim-serve and the engine's own cache flags", () => {
  it('vLLM: --no-enable-prefix-caching and --enable-prefix-caching', () => {
    expect(knobs('vllm', ['--no-enable-prefix-caching']).prefixCaching).toBe(false);
    expect(knobs('vllm', ['--enable-prefix-caching']).prefixCaching).toBe(true);
  });

  it('SGLang: --disable-radix-cache, --schedule-policy in both spellings, --hicache-size', () => {
    expect(knobs('sglang', ['--disable-radix-cache']).prefixCaching).toBe(false);
    expect(knobs('sglang', ['--schedule-policy', 'lpm']).schedulePolicy).toBe('lpm');
    expect(knobs('sglang', ['--schedule-policy=lpm']).schedulePolicy).toBe('lpm');
    expect(knobs('sglang', ['--enable-hierarchical-cache', '--hicache-size', '32']).kvOffloadGiB).toBe(32);
  });

  it("reads a flag only where the release's table has it (vLLM's KV offloading from 0.20.1)", () => {
    expect(knobs('vllm', ['--kv-offloading-size', '8']).kvOffloadGiB).toBeUndefined();
    expect(knobs('vllm', ['--kv-offloading-size', '8'], '0.33.0').kvOffloadGiB).toBe(8);
  });

  it('leaves other extras alone', () => {
    expect(knobs('vllm', ['--seed', '3'])).toEqual({ extraArgs: ['--seed', '3'] });
  });
});
