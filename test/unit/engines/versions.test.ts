// Spellings chosen by engine version, and the audit's value defects (sources in docs/engines.md).
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineName, Knobs, Variant } from '../../../src/core/variant.js';
import { sglangSpecNumbers, sglang } from '../../../src/engines/sglang/adapter.js';
import { compareVersions, resolveVersion } from '../../../src/engines/data/versions.js';
import type { LaunchContext } from '../../../src/engines/kit/types.js';
import { getAdapter } from '../../../src/engines/index.js';
import { rowAt, supportedKnobs } from '../../../src/engines/table.js';
import { simulatedHost } from '../../../src/host/gpus.js';
import { getModel } from '../../../src/model/models.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { planHost } from '../../../src/tune/plan/deps.js';
import { expandStage } from '../../../src/tune/plan/plan.js';
import { trtllm } from '../../../src/engines/trtllm/adapter.js';
import { vllm } from '../../../src/engines/vllm/adapter.js';

const runDir = mkdtempSync(path.join(os.tmpdir(), 'servelab-versions-'));
afterAll(() => rmSync(runDir, { recursive: true, force: true }));
const ctx: LaunchContext = { host: '127.0.0.1', port: 8123, runDir, runtime: { kind: 'native' } };
const v = (engine: EngineName, knobs: Knobs, engineVersion?: string): Variant => ({
  id: 'x',
  engine,
  model: 'm',
  knobs,
  ...(engineVersion ? { engineVersion } : {}),
});
const after = (argv: string[], f: string) => (argv.includes(f) ? argv[argv.indexOf(f) + 1] : undefined);
const yamlOf = (variant: Variant) => YAML.parse(trtllm.command(variant, ctx).files[0]!.content);

describe('version resolution', () => {
  it('orders releases, rc before the release and post after it', () => {
    expect(compareVersions('0.11.0', '0.11.1')).toBeLessThan(0);
    expect(compareVersions('1.2.0rc1', '1.2.0')).toBeLessThan(0);
    expect(compareVersions('0.5.5.post1', '0.5.5')).toBeGreaterThan(0);
    expect(compareVersions('v0.11.0', '0.11.0')).toBe(0);
  });

  it('an exact release uses its own table; another one the nearest older, and says so', () => {
    expect(resolveVersion('vllm', '0.11.0')).toMatchObject({ table: '0.11.0', exact: true });
    expect(resolveVersion('vllm', '0.11.1+cu128')).toMatchObject({ table: '0.11.1', exact: true });
    const newer = resolveVersion('vllm', '0.13.0');
    expect(newer).toMatchObject({ table: '0.11.1', exact: false });
    expect(newer.note).toMatch(/vllm 0.13.0 has no knob table of its own: commands use the table for 0.11.1/);
    expect(resolveVersion('sglang', '0.5.5.post1')).toMatchObject({ table: '0.5.5', exact: false });
    expect(resolveVersion('sglang', '0.5.13')).toMatchObject({ table: '0.5.13', exact: true });
    expect(resolveVersion('sglang', '0.5.12')).toMatchObject({ table: '0.5.5', exact: false });
    expect(resolveVersion('sglang', '0.5.15.post1')).toMatchObject({ table: '0.5.13', exact: false });
    expect(resolveVersion('trtllm', '1.0.0').note).toMatch(/older than every release/);
    expect(resolveVersion('trtllm', 'nightly').note).toMatch(/not a release number/);
    expect(resolveVersion('vllm', undefined)).toMatchObject({ table: '0.11.0' });
  });
});

describe('SGLang', () => {
  it('gives fa4 as the prefill backend only (docs/engines.md)', () => {
    const a = sglang.command(v('sglang', { attentionBackend: 'fa4' }), ctx).argv;
    expect(after(a, '--prefill-attention-backend')).toBe('fa4');
    expect(a).not.toContain('--attention-backend');
  });

  it('emits the EAGLE numbers all together or none (docs/engines.md)', () => {
    const a = sglang.command(v('sglang', { speculative: { method: 'eagle3', draftModel: 'd', numSteps: 3 } }), ctx).argv;
    expect([after(a, '--speculative-num-steps'), after(a, '--speculative-eagle-topk'), after(a, '--speculative-num-draft-tokens')]).toEqual(
      ['3', '1', '4'],
    );
    const none = sglang.command(v('sglang', { speculative: { method: 'eagle', draftModel: 'd' } }), ctx).argv;
    expect(none.join(' ')).not.toMatch(/num-steps|eagle-topk|num-draft-tokens/);
    expect(() => sglangSpecNumbers({ method: 'eagle', topk: 4 })).toThrow(/together for eagle \(got steps=- topk=4 draft-tokens=-\)/);
  });

  it('reads the retraction counter by its real name, not the per-step gauge', () => {
    expect(sglang.parseMetrics('sglang:num_retracted_requests_total{model_name="m"} 5\n').preemptions).toBe(5);
    expect(sglang.parseMetrics('sglang:num_retracted_reqs{model_name="m"} 3\n').preemptions).toBeUndefined();
  });
});

describe('TensorRT-LLM', () => {
  it('spells EAGLE-3 as Eagle on 1.2 and Eagle3 from 1.3.0rc27 (docs/engines.md)', () => {
    const spec = { method: 'eagle3', draftModel: 'd/e3', numSteps: 3 } as const;
    expect(yamlOf(v('trtllm', { speculative: spec }, '1.2.0rc1')).speculative_config).toEqual({
      decoding_type: 'Eagle',
      max_draft_len: 3,
      speculative_model_dir: 'd/e3',
    });
    expect(yamlOf(v('trtllm', { speculative: spec }, '1.3.0rc27')).speculative_config).toEqual({
      decoding_type: 'Eagle3',
      max_draft_len: 3,
      speculative_model: 'd/e3',
    });
  });

  it('refuses neutral eagle (EAGLE-1/2) on the PyTorch backend (docs/engines.md)', () => {
    expect(() => trtllm.command(v('trtllm', { speculative: { method: 'eagle', draftModel: 'd' } }), ctx)).toThrow(
      /cannot decode speculatively with 'eagle'/,
    );
  });

  it('writes the memory fraction into kv_cache_config only when the YAML has one (docs/engines.md)', () => {
    expect(yamlOf(v('trtllm', { memFraction: 0.7 }))).toEqual({ enable_iter_perf_stats: true });
    expect(yamlOf(v('trtllm', { memFraction: 0.7, kvCacheDtype: 'fp8' })).kv_cache_config).toEqual({
      dtype: 'fp8',
      free_gpu_memory_fraction: 0.7,
    });
  });
});

describe('vLLM', () => {
  it('offers bfloat16 KV only where the docs list it', () => {
    expect(() => vllm.command(v('vllm', { kvCacheDtype: 'bf16' }, '0.11.0'), ctx)).toThrow(/vLLM 0.11.0 has no KV-cache dtype 'bf16'/);
    expect(after(vllm.command(v('vllm', { kvCacheDtype: 'bf16' }, '0.11.1'), ctx).argv, '--kv-cache-dtype')).toBe('bfloat16');
  });
});

describe('planner candidates from the tables', () => {
  const plan = (gpu: string, engineVersion?: string) => {
    const config = parseAutoArgs([
      '--auto',
      '--sim',
      '--gpu',
      gpu,
      '--gpus',
      '1',
      '--model',
      'Qwen/Qwen3-14B',
      '--engines',
      'vllm',
      '--run-dir',
      '/tmp/x',
    ]).config!;
    const deps = {
      engineInfo: () => ({ supports: supportedKnobs('vllm'), attentionBackends: rowAt('vllm', 'attentionBackend')!.candidates! }),
      command: (v: Variant) => getAdapter(v.engine).command(v, ctx),
      preflight: () => ({ warnings: [] }),
      predict: () => undefined,
      fits: () => undefined,
      model: getModel,
    };
    const carried: Variant = {
      id: 'vllm',
      engine: 'vllm',
      model: 'Qwen/Qwen3-14B',
      knobs: {},
      ...(engineVersion ? { engineVersion } : {}),
    };
    return (stage: 'attention' | 'speculative') => expandStage(stage, carried, { config, host: planHost(simulatedHost(gpu, 1)), deps });
  };

  it('vLLM tries fa2 and fa3 on Hopper, and says why fa3 is not tried elsewhere', () => {
    const h100 = plan('H100')('attention');
    expect(h100.variants.map((v) => v.change)).toEqual(['attn=fa2', 'attn=fa3', 'attn=flashinfer', 'attn=triton', 'attn=flex']);
    const a100 = plan('A100')('attention');
    expect(a100.variants.map((v) => v.change)).not.toContain('attn=fa3');
    expect(a100.notes.join(' ')).toMatch(/FlashAttention-3 runs on Hopper/);
  });

  it('variants carry the engine version their commands are spelled for', () => {
    const s = plan('H100', '0.11.1')('attention');
    expect(s.variants.every((v) => v.variant.engineVersion === '0.11.1')).toBe(true);
  });
});
