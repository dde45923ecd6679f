// Golden tests: every serve command in the three studies (the published seed studies; src/model/data/studies.ts, docs/calibration.md "Method")
// comes out of its adapter from the equivalent variant.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import type { Knobs, Variant, EngineName } from '../../../src/core/variant.js';
import { getAdapter } from '../../../src/engines/index.js';
import type { LaunchContext } from '../../../src/engines/kit/types.js';
import { normalizeCommand } from '../../helpers/engines/normalize.js';

const runDir = mkdtempSync(path.join(os.tmpdir(), 'servelab-golden-'));
afterAll(() => rmSync(runDir, { recursive: true, force: true }));
const ctx: LaunchContext = { host: '127.0.0.1', port: 8000, runDir, runtime: { kind: 'native' } };

function variant(engine: EngineName, model: string, knobs: Knobs = {}): Variant {
  return { id: 'v', engine, model, knobs };
}

const A = 'Qwen/Qwen3-14B';
const A8 = 'Qwen/Qwen3-14B-FP8';
const B = 'zai-org/GLM-4.6-FP8';
const C = 'deepseek-ai/DeepSeek-R1-0528';
const sgl = 'python3 -m sglang.launch_server';

/** [study command as written, equivalent variant] */
const SEEDS: [string, Variant][] = [
  // Study A: Qwen3-14B on 1 x H100
  ['vllm serve Qwen/Qwen3-14B', variant('vllm', A)],
  [`${sgl} --model-path Qwen/Qwen3-14B`, variant('sglang', A)],
  ['trtllm-serve Qwen/Qwen3-14B', variant('trtllm', A)],
  [`${sgl} --model-path Qwen/Qwen3-14B-FP8`, variant('sglang', A8)],
  [`${sgl} --model-path Qwen/Qwen3-14B-FP8 --attention-backend=fa3`, variant('sglang', A8, { attentionBackend: 'fa3' })],
  [`${sgl} --model-path Qwen/Qwen3-14B-FP8 --attention-backend=flashinfer`, variant('sglang', A8, { attentionBackend: 'flashinfer' })],
  [`${sgl} --model-path Qwen/Qwen3-14B-FP8 --attention-backend=triton`, variant('sglang', A8, { attentionBackend: 'triton' })],
  // Study B: GLM-4.6-FP8 on 8 x A100
  ['vllm serve zai-org/GLM-4.6-FP8 -tp 8', variant('vllm', B, { tp: 8 })],
  [`${sgl} --model-path zai-org/GLM-4.6-FP8 --tp-size 8`, variant('sglang', B, { tp: 8 })],
  ['vllm serve zai-org/GLM-4.6-FP8 -tp 8 --enable-expert-parallel', variant('vllm', B, { tp: 8, ep: 8 })],
  ['vllm serve zai-org/GLM-4.6-FP8 -tp 8 --max-num-batched-tokens 4096', variant('vllm', B, { tp: 8, maxBatchedTokens: 4096 })],
  ['vllm serve zai-org/GLM-4.6-FP8 -tp 8 --max-num-batched-tokens 8192', variant('vllm', B, { tp: 8, maxBatchedTokens: 8192 })],
  ['vllm serve zai-org/GLM-4.6-FP8 -tp 8 --max-num-batched-tokens 16384', variant('vllm', B, { tp: 8, maxBatchedTokens: 16384 })],
  // Study C: DeepSeek-R1-0528 on 8 x H200
  ['vllm serve deepseek-ai/DeepSeek-R1-0528 -tp 8', variant('vllm', C, { tp: 8 })],
  [`${sgl} --model-path deepseek-ai/DeepSeek-R1-0528 --tp-size 8`, variant('sglang', C, { tp: 8 })],
  ['trtllm-serve /workspace/DeepSeek-R1-0528 --tp_size 8 --ep_size 8', variant('trtllm', '/workspace/DeepSeek-R1-0528', { tp: 8, ep: 8 })],
  [
    `${sgl} --model-path deepseek-ai/DeepSeek-R1-0528 --tp-size 8 --enable-dp-attention`,
    variant('sglang', C, { tp: 8, dpAttention: true }),
  ],
  [
    `${sgl} --model-path deepseek-ai/DeepSeek-R1-0528 --tp-size 8 --enable-dp-attention --enable-torch-compile`,
    variant('sglang', C, { tp: 8, dpAttention: true, torchCompile: true }),
  ],
  [
    `${sgl} --model-path deepseek-ai/DeepSeek-R1-0528 --tp-size 8 --enable-dp-attention --speculative-algorithm EAGLE --speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2`,
    variant('sglang', C, { tp: 8, dpAttention: true, speculative: { method: 'mtp', numSteps: 1, topk: 1, draftTokens: 2 } }),
  ],
  // The DeepSeek winner, as the study spells it (--model, --tp).
  [`${sgl} --model deepseek-ai/DeepSeek-R1-0528 --tp 8 --enable-dp-attention`, variant('sglang', C, { tp: 8, dpAttention: true })],
];

describe("golden: the studies' serve commands come out of the adapters", () => {
  it.each(SEEDS)('%s', (command, v) => {
    const spec = getAdapter(v.engine).command(v, ctx);
    expect(spec.argv).toEqual(spec.engineArgv); // native: what runs is the engine command itself
    expect(normalizeCommand(spec.engineArgv)).toEqual(normalizeCommand(command));
    // The plumbing the comparison leaves out is there, with servelab's values.
    const argv = spec.engineArgv;
    expect(argv[argv.indexOf('--host') + 1]).toBe('127.0.0.1');
    expect(argv[argv.indexOf('--port') + 1]).toBe('8000');
    expect(spec.healthPath).toBe('/health');
  });

  it('the normalizer tells different commands apart', () => {
    expect(normalizeCommand('vllm serve m -tp 8')).not.toEqual(normalizeCommand('vllm serve m -tp 4'));
    expect(normalizeCommand('vllm serve m -tp 8')).not.toEqual(normalizeCommand('vllm serve m -tp 8 --enable-expert-parallel'));
    expect(normalizeCommand(`${sgl} --model m --tp 8`)).toEqual(normalizeCommand(`${sgl} --model-path m --tp-size 8`));
    expect(normalizeCommand('vllm serve m -tp 8')).toEqual(normalizeCommand('vllm serve m --tensor-parallel-size 8'));
  });

  it('SGLang always turns on /metrics and spells flags in full', () => {
    const spec = getAdapter('sglang').command(variant('sglang', C, { tp: 8, dp: 8, ep: 8, dpAttention: true }), ctx);
    expect(spec.argv).toContain('--enable-metrics');
    expect(spec.argv).toEqual(expect.arrayContaining(['--tp-size', '8', '--dp-size', '8', '--ep-size', '8']));
    expect(spec.argv).not.toContain('--tp');
  });

  it("TRT-LLM writes its YAML into the run folder: only the metrics switch for the plain studies' commands", () => {
    const spec = getAdapter('trtllm').command(variant('trtllm', '/workspace/DeepSeek-R1-0528', { tp: 8, ep: 8 }), ctx);
    const yamlPath = spec.argv[spec.argv.indexOf('--extra_llm_api_options') + 1]!;
    expect(path.dirname(yamlPath)).toBe(runDir);
    expect(spec.files).toHaveLength(1);
    expect(spec.files[0]!.path).toBe(yamlPath);
    expect(YAML.parse(spec.files[0]!.content)).toEqual({ enable_iter_perf_stats: true });
  });
});
