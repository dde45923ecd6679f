import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../../src/core/errors.js';
import { parseExtraArgs, splitArgs } from '../../../src/tune/request/from-flags.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';

function badInput(argv: string[]): string {
  try {
    parseAutoArgs(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    expect((e as UserError).code).toBe(2);
    const msg = (e as UserError).message;
    expect(msg.split('\n')).toHaveLength(1);
    return msg;
  }
  throw new Error(`accepted ${argv.join(' ')}`);
}

describe('parseAutoArgs', () => {
  it('builds the session config of the acceptance command', () => {
    const { config } = parseAutoArgs(['--auto', '--sim', '--gpu', 'H100', '--gpus', '1', '--model', 'Qwen/Qwen3-14B', '--scale', '0.1']);
    expect(config!.sim).toEqual({ gpu: 'H100', gpus: 1, speed: 5, autoSpeed: true, seed: 0 });
    expect(config!.scenario).toMatchObject({ name: 'sharegpt-like', numPrompts: 100 });
    expect(config!.validation.map((s) => s.numPrompts)).toEqual([100, 100, 50, 50, 10]);
    expect(config!.engines).toEqual(['vllm', 'sglang', 'trtllm']);
    expect(config!.objective).toBe('total');
    expect(config!.marginPct).toBe(2);
    expect(config!.readyTimeoutS).toBe(60);
  });

  it('takes saved settings when flags are absent, flags over settings', () => {
    const s = { engines: ['sglang' as const], margin: 5, slo: 'ttft:p99<3000', 'gpu-hour-price': 2 };
    const { config } = parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B'], s);
    expect(config!.engines).toEqual(['sglang']);
    expect(config!.marginPct).toBe(5);
    expect(config!.slo).toEqual([{ metric: 'ttft', stat: 'p99', limitMs: 3000 }]);
    expect(config!.gpuHourPrice).toBe(2);
    expect(parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--margin', '1'], s).config!.marginPct).toBe(1);
  });

  it('uses the ShareGPT file when given and checks it exists', () => {
    const dir = mkdtempSync(join(tmpdir(), 'servelab-args-'));
    const file = join(dir, 'sg.json');
    writeFileSync(file, '[]');
    const { config } = parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--dataset-path', file, '--num-prompts', '50']);
    expect(config!.scenario).toMatchObject({ name: 'sharegpt', dataset: 'sharegpt', datasetPath: file, numPrompts: 50 });
    // The validation row of the tuning scenario is the tuning workload itself (same size).
    expect(config!.validation[0]).toEqual(config!.scenario);
    expect(config!.validation[1]!.numPrompts).toBe(1000);
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', '--dataset-path', join(dir, 'missing.json')])).toMatch(/no such file/);
  });

  it('rejects bad input with one line each', () => {
    expect(badInput(['--auto', '--model', 'm', '--frobnicate'])).toMatch(/Unknown option '--frobnicate'/);
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', '--stages', 'engine,warp'])).toMatch(/unknown stage 'warp'/);
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', '--slo', 'ttft<2000'])).toMatch(/bad --slo/);
    expect(badInput(['--sim'])).toMatch(/--model is required/);
    expect(badInput(['--model', 'Qwen/Qwen3-14B', '--gpu', 'H100'])).toMatch(/add --sim/);
    expect(badInput(['--sim', '--gpu', 'Z9000', '--model', 'Qwen/Qwen3-14B'])).toMatch(/unknown GPU 'Z9000'/);
    expect(badInput(['--sim', '--model', 'nobody/nothing'])).toMatch(/knows no model/);
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', '--scale', '0'])).toMatch(/--scale must be/);
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', '--repeats', '1.5'])).toMatch(/--repeats must be a whole number/);
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', '--engines', 'vllm,tgi'])).toMatch(/unknown engine 'tgi'/);
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', '--objective', 'goodput'])).toMatch(/needs --slo/);
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', '--scenario', 'huge'])).toMatch(/unknown scenario/);
    expect(badInput(['--resume', '/no/such/run'])).toMatch(/no such folder/);
    // Every objective --auto takes is offered; a container image without the docker runtime is refused, not ignored.
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', '--objective', 'nope'])).toBe(
      "unknown --objective 'nope': use one of total, output, request, goodput, frontier",
    );
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', '--image', 'vllm/vllm-openai:v0.11.0'])).toBe(
      '--image is the container of --runtime docker; add --runtime docker',
    );
    // Conflicting or unknown places are refused, not silently resolved one way.
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', '--run-dir', '/tmp/a', '--runs-dir', '/tmp/b'])).toBe(
      'give --run-dir DIR (the exact run folder) or --runs-dir DIR (its parent), not both',
    );
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', '--baseline', 'nosuch'])).toBe(
      "--baseline 'nosuch' names no engine: give an engine (vllm, sglang, trtllm, llamacpp) or an engine-stage variant id, e.g. --baseline sglang",
    );
    expect(parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--baseline', 'trtllm']).config!.baseline).toBe('trtllm');
    // A resumed run keeps its recorded settings: a flag that would change them is refused, not ignored.
    expect(badInput(['--auto', '--resume', '/tmp', '--gpus', '2'])).toBe(
      '--resume continues a run with its recorded settings: drop --gpus (or start a new run without --resume)',
    );
    expect(badInput(['--resume', '/tmp', '--json', '--dry-run', '--model', 'Qwen/Qwen3-14B'])).toMatch(/drop --model/);
    expect(badInput(['--sim', '--model', 'Qwen/Qwen3-14B', 'extra'])).toMatch(/unexpected argument 'extra'/);
  });

  it("--max-concurrency makes a capped scenario of its own (the studies' low-concurrency case)", () => {
    const { config } = parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--num-prompts', '100', '--max-concurrency', '4']);
    expect(config!.scenario).toMatchObject({ name: 'sharegpt-like-c4', numPrompts: 100, maxConcurrency: 4 });
    expect(config!.validation[0]!.name).toBe('sharegpt-like');
  });

  it('--help needs nothing else', () => {
    expect(parseAutoArgs(['--help']).help).toBe(true);
  });
});

describe('extra args', () => {
  it('splits like a shell and routes ENGINE: prefixes', () => {
    expect(splitArgs(`--a 1 --b "two words" --c ''`)).toEqual(['--a', '1', '--b', 'two words', '--c', '']);
    expect(parseExtraArgs(['--x 1', 'vllm:--y', 'vllm:--z 3'])).toEqual({ '*': ['--x', '1'], vllm: ['--y', '--z', '3'] });
    expect(() => parseExtraArgs(['--a "open'])).toThrow(/unbalanced/);
  });
});

describe('--quality flags', () => {
  const base = ['--sim', '--model', 'Qwen/Qwen3-14B'];
  it('reads --quality N, --quality-floor X and --quality-eval FILE; absent without --quality', () => {
    expect(parseAutoArgs(base).config!.quality).toBeUndefined();
    const dir = mkdtempSync(join(tmpdir(), 'servelab-quality-args-'));
    const file = join(dir, 'eval.jsonl');
    writeFileSync(file, '{"prompt": "2+2?", "expected": "4"}\n');
    expect(parseAutoArgs([...base, '--quality', '8', '--quality-floor', '0.9', '--quality-eval', file]).config!.quality).toEqual({
      prompts: 8,
      floor: 0.9,
      eval: file,
    });
  });

  it('bad input is one line', () => {
    expect(badInput([...base, '--quality', '0'])).toMatch(/--quality/);
    expect(badInput([...base, '--quality', '8', '--quality-floor', '1.5'])).toMatch(/--quality-floor/);
    expect(badInput([...base, '--quality-floor', '0.9'])).toBe('--quality-floor needs --quality N');
    expect(badInput([...base, '--quality', '8', '--quality-eval', join(tmpdir(), 'servelab-no-such.jsonl')])).toMatch(
      /--quality-eval .*no such file$/,
    );
  });
});
