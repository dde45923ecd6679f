// `servelab predict`: the flags are sim-serve's and --auto's, the answer is the virtual clock's,
// and bad input is one line with exit 2. Speed is measured in perf/predict.bench.ts, not here.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePredictArgs } from '../../../src/cli/predict-args.js';
import { predict } from '../../../src/sim/predict/predict.js';
import { simulateWorkload } from '../../../src/sim/scheduler/virtual.js';
import { scenarioRequests, sharegptLike } from '../../../src/sim/predict/workload.js';
import { BIN } from '../../helpers/sim/helpers.js';
import { parseSimArgs } from '../../../src/cli/sim-serve-args.js';
import { BUILTIN_CONFIGS } from '../../../src/model/model-configs.js';

const cli = (...args: string[]) => spawnSync(process.execPath, [BIN, 'predict', ...args], { encoding: 'utf8', timeout: 60_000 });

describe('servelab predict', () => {
  it('parses the sim-serve knob flags and the workload flags', () => {
    const a = parsePredictArgs([
      '--model',
      'Qwen/Qwen3-14B',
      '--gpu',
      'H200',
      '--gpus',
      '2',
      '--tp',
      '2',
      '--max-batched-tokens',
      '4096',
      '--dp-attention',
      '--no-cuda-graph',
      '--scenario',
      'random:2000/100',
      '--num-prompts',
      '50',
      '--max-concurrency',
      '8',
      '--request-rate',
      '4',
      '--seed',
      '7',
      '--engine',
      'sglang',
      '--engine-version',
      'v0.4.1',
    ]);
    expect(a).toMatchObject({
      engines: ['sglang'],
      engineVersion: '0.4.1',
      gpu: 'H200',
      gpus: 2,
      maxConcurrency: 8,
      requestRate: 4,
      seed: 7,
    });
    expect(a.knobs).toEqual({ tp: 2, maxBatchedTokens: 4096, dpAttention: true, cudaGraph: false });
    expect(a.scenario).toMatchObject({ inputLen: 2000, outputLen: 100, numPrompts: 50 });
    expect(parsePredictArgs(['--model', 'Qwen/Qwen3-14B']).engines).toEqual(['vllm', 'sglang', 'trtllm']);
  });

  it('answers with the same figures as the virtual clock and vLLM result keys', () => {
    const requests = sharegptLike(200, 3);
    const p = predict({ engine: 'vllm', model: 'Qwen/Qwen3-14B', gpu: 'H100', gpus: 1, knobs: {}, requests, seed: 3 });
    const v = simulateWorkload({ engine: 'vllm', model: 'Qwen/Qwen3-14B', gpu: 'H100', gpus: 1, knobs: {}, requests, seed: 3 });
    expect(p.fits).toBe(true);
    expect(p.total_token_throughput).toBe(v.metrics!.total_token_throughput);
    for (const k of [
      'output_throughput',
      'request_throughput',
      'mean_ttft_ms',
      'p99_ttft_ms',
      'mean_tpot_ms',
      'p99_itl_ms',
      'total_input_tokens',
    ])
      expect(typeof (p as Record<string, unknown>)[k], k).toBe('number');
  });

  it('an older SGLang without the overlap scheduler is predicted slower (versions.ts)', () => {
    const requests = scenarioRequests({ name: 'sharegpt-like', dataset: 'custom', numPrompts: 300 }, 42);
    const run = (engineVersion?: string) =>
      predict({
        engine: 'sglang',
        ...(engineVersion ? { engineVersion } : {}),
        model: 'Qwen/Qwen3-14B',
        gpu: 'H100',
        gpus: 1,
        knobs: {},
        requests,
        seed: 42,
      });
    const old = run('0.3.6');
    expect(old.version_changes?.[0]?.source).toMatch(/sglang-v0-4/);
    expect(old.total_token_throughput!).toBeLessThan(run().total_token_throughput!);
    // sim-serve takes the same release (its default: the target release).
    expect(parseSimArgs(['--engine', 'sglang', '--model', 'Qwen/Qwen3-14B', '--engine-version', 'v0.3.6']).engineVersion).toBe('0.3.6');
    expect(parseSimArgs(['--engine', 'sglang', '--model', 'Qwen/Qwen3-14B']).engineVersion).toBeUndefined();
  });

  it('--json prints one object with fits and reason; a config that does not fit says why', () => {
    const r = cli(
      '--model',
      'zai-org/GLM-4.6',
      '--gpu',
      'A100',
      '--gpus',
      '8',
      '--tp',
      '8',
      '--engine',
      'vllm',
      '--json',
      '--num-prompts',
      '10',
    );
    expect(r.status, r.stderr).toBe(0);
    const o = JSON.parse(r.stdout);
    expect(o).toMatchObject({ engine: 'vllm', fits: false });
    expect(o.reason).toMatch(/weights need 82\.\d+ GiB per GPU/);
  });

  it('prints the vllm bench serve command that replays the same ShareGPT-shaped prompts (custom JSONL)', () => {
    const r = cli('--model', 'Qwen/Qwen3-14B', '--engine', 'vllm', '--num-prompts', '20', '--seed', '5');
    expect(r.status, r.stderr).toBe(0);
    const m =
      /--dataset-name custom --dataset-path (\S+\.jsonl) --custom-output-len -1 --skip-chat-template --num-prompts 20 --seed 5/.exec(
        r.stdout,
      );
    expect(m, r.stdout).not.toBeNull();
    const lines = readFileSync(m![1]!, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { output_tokens: number });
    expect(lines.map((l) => l.output_tokens)).toEqual(sharegptLike(20, 5).map((x) => x.outputLen));
  });

  it('says its measured error where it was measured, and that another part is unmeasured', () => {
    const h200 = cli('--model', 'Qwen/Qwen3-14B', '--engine', 'sglang', '--gpu', 'H200');
    expect(h200.status, h200.stderr).toBe(0);
    expect(h200.stdout).toMatch(
      /^Measured error of this model for sglang at .* real H200 runs .*: throughput per GPU \d+%, mean TPOT \d+%, mean TTFT \d+%$/m,
    );
    const amd = cli('--model', 'Qwen/Qwen3-14B', '--engine', 'sglang', '--gpu', 'MI300X');
    expect(amd.status, amd.stderr).toBe(0);
    expect(amd.stdout).toMatch(
      /^Measured error of this model for sglang .*\(measured on H200, not on MI300X 192GB: its error there is unmeasured\)$/m,
    );
  });

  it('caps --gpus as --auto and the workbench do (64), in their words', () => {
    expect(() => parsePredictArgs(['--model', 'Qwen/Qwen3-14B', '--gpus', '100'])).toThrow(
      "--gpus must be a whole number >= 1 and <= 64, got '100'",
    );
    expect(parsePredictArgs(['--model', 'Qwen/Qwen3-14B', '--gpus', '64']).gpus).toBe(64);
  });

  it('bad input is one line on stderr and exit 2', () => {
    for (const args of [
      ['--model', 'Qwen/Qwen3-14B', '--tp', 'x'],
      ['--model', 'Qwen/Qwen3-14B', '--engine', 'tgi'],
      ['--model', 'nope'],
      ['--model', 'Qwen/Qwen3-14B', '--port', '1'],
      ['--model', 'Qwen/Qwen3-14B', '--scenario', 'bogus'],
    ]) {
      const r = cli(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stdout).toBe('');
    }
  });

  it('a checkpoint folder with a broken config.json or hf_quant_config.json is one line and exit 2, naming the file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'servelab-badcfg-'));
    try {
      const a = join(dir, 'a');
      mkdirSync(a);
      writeFileSync(join(a, 'config.json'), '{"hidden_size": 4096,');
      const b = join(dir, 'b');
      mkdirSync(b);
      writeFileSync(join(b, 'config.json'), JSON.stringify(BUILTIN_CONFIGS['Qwen/Qwen3-14B']));
      writeFileSync(join(b, 'hf_quant_config.json'), 'not json');
      for (const [folder, file] of [
        [a, 'config.json'],
        [b, 'hf_quant_config.json'],
      ] as const) {
        const r = cli('--model', folder, '--gpu', 'H100', '--engine', 'vllm');
        expect(r.status, file).toBe(2);
        expect(r.stderr.trim().split('\n'), file).toHaveLength(1);
        expect(r.stderr).toContain(join(folder, file));
        expect(r.stderr).toMatch(/is not valid JSON/);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
