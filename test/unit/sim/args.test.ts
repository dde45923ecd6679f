import { describe, expect, it } from 'vitest';
import { parseKnobArgs, parseSimArgs } from '../../../src/cli/sim-serve-args.js';
import { SimArgsError } from '../../../src/sim/server/sim-args.js';
import { knobsToSimArgs } from '../../../src/engines/sim/argv.js';
import type { Knobs } from '../../../src/core/variant.js';
import { defaultLoadTime } from '../../../src/sim/imitation/startup.js';

describe('sim-serve args', () => {
  it('round-trips every knob through argv', () => {
    const knobs: Knobs = {
      quantization: 'fp8',
      kvCacheDtype: 'fp8_e4m3',
      tp: 8,
      pp: 1,
      dp: 8,
      ep: 8,
      dpAttention: true,
      maxBatchedTokens: 8192,
      maxRunningSeqs: 512,
      memFraction: 0.85,
      attentionBackend: 'fa3',
      torchCompile: true,
      cudaGraph: false,
      speculative: { method: 'eagle', numSteps: 1, topk: 1, draftTokens: 2, draftModel: 'x/y' },
      maxModelLen: 4096,
      extraArgs: ['--enable-metrics', '--foo=bar'],
    };
    const argv = ['--engine', 'sglang', '--model', 'Qwen/Qwen3-14B', ...knobsToSimArgs(knobs)];
    const a = parseSimArgs(argv);
    expect(a.knobs).toEqual(knobs);
    expect(a.engine).toBe('sglang');
    expect(a.gpu).toBe('H100');
    expect(a.port).toBe(8000);
  });

  it('accepts --flag=value and the server flags', () => {
    const a = parseSimArgs([
      '--engine=vllm',
      '--model=m',
      '--gpu',
      'H200',
      '--gpus=8',
      '--speed',
      '50',
      '--port',
      '0',
      '--seed',
      '7',
      '--load-time',
      '0.5',
      '--served-model-name',
      'x',
    ]);
    expect(a).toMatchObject({ engine: 'vllm', gpu: 'H200', gpus: 8, speed: 50, port: 0, seed: 7, loadTime: 0.5, servedModelName: 'x' });
  });

  it.each([
    [['--engine', 'vllm', '--model', 'm', '--bogus'], /unrecognized arguments: --bogus/],
    [['--model', 'm'], /the following arguments are required: --engine/],
    [['--engine', 'foo', '--model', 'm'], /invalid choice: 'foo'/],
    [['--engine', 'vllm', '--model', 'm', '--tp', 'two'], /argument --tp: invalid int value: 'two'/],
    [['--engine', 'vllm', '--model', 'm', '--tp'], /argument --tp: expected one argument/],
    [['--engine', 'vllm', '--model', 'm', '--speed', '0'], /--speed: must be > 0/],
    [['--engine', 'vllm', '--model', 'm', '--load-format', 'safetensors'], /argument --load-format: invalid choice: 'safetensors'/],
    [['--engine', 'vllm', '--model', 'm', '--load-format'], /argument --load-format: expected one argument/],
  ])('rejects %j argparse-style', (argv, re) => {
    let err: unknown;
    try {
      parseSimArgs(argv);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SimArgsError);
    const msg = (err as SimArgsError).message;
    expect(msg).toMatch(/^usage: servelab sim-serve/);
    expect(msg).toMatch(re);
    expect((err as SimArgsError).code).toBe(2);
  });
});

describe('sim-serve --load-format, as vLLM and SGLang spell it', () => {
  it('takes auto and dummy; dummy drops the weight read from the modelled start-up', () => {
    expect(parseSimArgs(['--engine', 'vllm', '--model', 'm', '--load-format', 'dummy']).loadFormat).toBe('dummy');
    expect(parseSimArgs(['--engine', 'sglang', '--model', 'm', '--load-format=auto']).loadFormat).toBe('auto');
    expect(parseSimArgs(['--engine', 'vllm', '--model', 'm']).loadFormat).toBeUndefined();
    const weights = 30e9;
    expect(defaultLoadTime(weights, false) - defaultLoadTime(weights, false, { dummyWeights: true })).toBeCloseTo(weights / 2e9);
    expect(defaultLoadTime(weights, true, { dummyWeights: false })).toBe(defaultLoadTime(weights, true));
  });
});

describe('knob flags come from the neutral knob list', () => {
  it('every knob round-trips through knobsToSimArgs and parseKnobArgs, compile-off included', () => {
    const knobs = {
      quantization: 'fp8',
      kvCacheDtype: 'fp8',
      tp: 2,
      pp: 2,
      dp: 2,
      ep: 4,
      dpAttention: true,
      maxBatchedTokens: 8192,
      maxRunningSeqs: 256,
      memFraction: 0.85,
      attentionBackend: 'fa2',
      torchCompile: false,
      cudaGraph: false,
      maxModelLen: 4096,
      speculative: { method: 'eagle3' as const, numSteps: 3, topk: 1, draftTokens: 4, draftModel: 'd/e3' },
      extraArgs: ['--x=1'],
    };
    const argv = knobsToSimArgs(knobs);
    expect(argv).toContain('--no-torch-compile');
    const parsed = parseKnobArgs([...argv, '--gpu', 'H100']);
    expect(parsed.knobs).toEqual(knobs);
    expect(parsed.rest).toEqual(['--gpu', 'H100']);
  });

  it('rejects a knob value out of its range in argparse style', () => {
    expect(() => parseKnobArgs(['--mem-fraction', '1.5'])).toThrow(/argument --mem-fraction: must be in \(0, 1\], got 1.5/);
    expect(() => parseKnobArgs(['--tp', '0'])).toThrow(/argument --tp: must be >= 1, got 0/);
    expect(() => parseKnobArgs(['--speculative', 'medusa'])).toThrow(/invalid choice: 'medusa'/);
  });
});
