// The cache stage: in the default stage list only when the tuning workload has prefix reuse,
// skipped with the reason when asked for on one without; each engine's own candidates, spelled
// with flags its release's reference list has; the notes for DP replicas and for TensorRT-LLM's
// FLASHINFER backend on shared-prefix traffic.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import type { Scenario } from '../../../../src/core/scenario.js';
import type { EngineName, Variant } from '../../../../src/core/variant.js';
import { multiTurnShare, MULTI_TURN_SHAPE, workloadReuse } from '../../../../src/core/workload-reuse.js';
import { getAdapter } from '../../../../src/engines/index.js';
import { KNOWN_VERSIONS } from '../../../../src/engines/data/versions.js';
import { simulatedHost } from '../../../../src/host/gpus.js';
import { defaultStages, type SessionConfig } from '../../../../src/tune/config/config.js';
import { planHost, realPlanDeps } from '../../../../src/tune/plan/deps.js';
import { buildPlan, expandStage } from '../../../../src/tune/plan/plan.js';
import type { Plan } from '../../../../src/tune/plan/types.js';
import { makeVariant } from '../../../../src/tune/plan/variant-ids.js';

const SHARED: Scenario = {
  name: 'random-512-64-p4000',
  label: 'random 512/64 after a 4000-token prefix',
  dataset: 'random',
  inputLen: 512,
  outputLen: 64,
  prefixLen: 4000,
  numPrompts: 100,
  seed: 42,
  maxConcurrency: null,
};

function configFor(args: string[], scenario?: Scenario): SessionConfig {
  const config = parseAutoArgs(['--auto', '--sim', '--model', 'Qwen/Qwen3-14B', '--run-dir', '/tmp/servelab-cache-test', ...args]).config!;
  if (scenario) {
    config.scenario = scenario;
    if (!args.includes('--stages')) config.stages = defaultStages(config.engines, scenario);
  }
  return config;
}

function plan(config: SessionConfig): Plan {
  const host = simulatedHost(config.sim!.gpu, config.sim!.gpus);
  return buildPlan(config, planHost(host), realPlanDeps(config, host, config.runDir!));
}

const stage = (p: Plan, name: string) => p.stages.find((s) => s.name === name);

describe('which workloads have reuse (workloadReuse)', () => {
  it('none for ShareGPT, the ShareGPT-like stand-in and random prompts without a prefix', () => {
    expect(workloadReuse({ ...SHARED, dataset: 'sharegpt', name: 'sharegpt' })).toMatchObject({ has: false, share: 0 });
    expect(workloadReuse(configFor([]).scenario)).toMatchObject({ has: false, share: 0 });
    expect(workloadReuse({ ...SHARED, prefixLen: undefined }).has).toBe(false);
  });

  it('the share an earlier request already sent, for a shared prefix, repeated prefixes and conversations', () => {
    // 99 of 100 prompts resend the 4000-token prefix of 4512 tokens.
    expect(workloadReuse(SHARED).share).toBeCloseTo((99 * 4000) / (100 * 4512), 6);
    const rep = workloadReuse({ ...SHARED, dataset: 'prefix_repetition', prefixLen: 256, inputLen: 256, numPrefixes: 10 });
    expect(rep.share).toBeCloseTo((90 * 256) / (100 * 512), 6);
    expect(workloadReuse({ ...SHARED, dataset: 'multi_turn' }).share).toBeCloseTo(multiTurnShare(MULTI_TURN_SHAPE), 9);
    expect(multiTurnShare({ users: 1, turns: 1, systemLen: 100, userLen: 10, replyLen: 10 })).toBe(0);
  });
});

describe('the cache stage in the stage list', () => {
  it('joins the default stages only when the workload has reuse, after batching (GPU engines) and after slots (llama.cpp)', () => {
    expect(defaultStages(['vllm'], configFor([]).scenario)).not.toContain('cache');
    const gpu = defaultStages(['vllm', 'sglang'], SHARED);
    expect(gpu.slice(gpu.indexOf('batching'), gpu.indexOf('batching') + 3)).toEqual(['batching', 'cache', 'attention']);
    const llama = defaultStages(['llamacpp'], SHARED);
    expect(llama.slice(llama.indexOf('slots'), llama.indexOf('slots') + 3)).toEqual(['slots', 'cache', 'batch-size']);
  });

  it('a plan without reuse has exactly the stages it had before the cache stage existed', () => {
    const p = plan(configFor(['--gpu', 'H100', '--gpus', '1', '--scale', '0.1']));
    expect(p.stages.map((s) => s.name)).toEqual([
      'engine',
      'quantization',
      'parallelism',
      'batching',
      'attention',
      'compile',
      'speculative',
    ]);
    expect(JSON.stringify(p)).not.toMatch(/prefix cach|cache-aware/);
  });

  it('asked for on a workload without reuse, it is skipped with the reason', () => {
    const p = plan(configFor(['--gpu', 'H100', '--gpus', '1', '--scale', '0.1', '--stages', 'engine,cache']));
    expect(stage(p, 'cache')!.skipped).toBe(
      'no prefix reuse for a cache to serve: ShareGPT-like single prompts, each opening a different conversation, share no prefix',
    );
    expect(stage(p, 'cache')!.variants).toEqual([]);
  });
});

describe("each engine's cache candidates", () => {
  const config = configFor(['--gpu', 'H100', '--gpus', '1', '--engines', 'vllm,sglang,trtllm'], SHARED);
  const host = simulatedHost('H100', 1);
  const base = { config, host: planHost(host), deps: realPlanDeps(config, host, '/tmp/servelab-cache-test') };
  const changes = (v: Variant) => expandStage('cache', v, base).variants.map((x) => x.change);
  const carried = (engine: EngineName, knobs = {}, version?: string) =>
    makeVariant(engine, 'Qwen/Qwen3-14B', knobs, config, undefined, version);

  it('vLLM: prefix caching off; KV offloading to CPU only where the release has it', () => {
    expect(changes(carried('vllm'))).toEqual(['prefix caching off']);
    const b33 = { ...base, deps: realPlanDeps(config, host, '/tmp/servelab-cache-test', { vllm: '0.33.0' }) };
    const x = expandStage('cache', carried('vllm', {}, '0.33.0'), b33);
    expect(x.variants.map((v) => v.change)).toEqual(['prefix caching off', 'KV offload to CPU 64 GiB']);
    expect(x.variants[1]!.engineArgv).toEqual(expect.arrayContaining(['--kv-offloading-size', '64', '--kv-offloading-backend', 'native']));
    expect(x.variants[0]!.engineArgv).toContain('--no-enable-prefix-caching');
  });

  it('SGLang: radix cache off, longest-prefix-match admission, the hierarchical cache', () => {
    const x = expandStage('cache', carried('sglang'), base);
    expect(x.variants.map((v) => v.change)).toEqual(['radix cache off', 'schedule=lpm', 'hierarchical cache 64 GB']);
    const tails = x.variants.map((v) => v.engineArgv!.join(' '));
    expect(tails[0]).toMatch(/--enable-metrics --disable-radix-cache$/);
    expect(tails[1]).toMatch(/--enable-metrics --schedule-policy lpm$/);
    expect(tails[2]).toMatch(/--enable-metrics --enable-hierarchical-cache --hicache-size 64$/);
    expect(x.notes.join(' ')).toMatch(/more than 128 requests wait/);
  });

  it('TensorRT-LLM: block reuse off in the YAML; under FLASHINFER the stage says it has no cache to measure', () => {
    const x = expandStage('cache', carried('trtllm'), base);
    expect(x.variants.map((v) => v.change)).toEqual(['block reuse off']);
    const yaml = getAdapter('trtllm').commandFiles!(x.variants[0]!.variant, x.variants[0]!.engineArgv!)[0]!.content;
    expect(yaml).toMatch(/kv_cache_config:\n {2}enable_block_reuse: false/);
    expect(expandStage('cache', carried('trtllm', { attentionBackend: 'flashinfer' }), base).notes.join(' ')).toMatch(/cache_reuse=False/);
  });

  it('TensorRT-LLM: the attention stage says FLASHINFER measures the cache, not the kernel, on shared-prefix traffic only', () => {
    expect(expandStage('attention', carried('trtllm'), base).notes.join(' ')).toMatch(
      /attn=flashinfer.*measures the prefix cache, not the attention kernel/,
    );
    const plain = { ...base, config: configFor(['--gpu', 'H100', '--gpus', '1']) };
    expect(expandStage('attention', carried('trtllm'), plain).notes.join(' ')).not.toMatch(/prefix cache/);
  });

  it('llama.cpp: prompt cache off, KV shifting, the RAM prompt cache, slot similarity, one KV buffer or one per slot', () => {
    const llama = makeVariant('llamacpp', '/models/x.gguf', {}, config);
    const own = expandStage('cache', llama, base).variants;
    expect(own.map((v) => v.change)).toEqual([
      'prompt cache off',
      'cache-reuse=256',
      'RAM prompt cache off',
      'RAM prompt cache unbounded',
      'sps=0',
      'sps=0.5',
      'KV per slot',
    ]);
    // The simulator has no llama.cpp: the adapter's own command, as a real host launches it.
    const argv = (v: Variant) =>
      getAdapter('llamacpp').command(v, {
        host: '127.0.0.1',
        port: 8080,
        runDir: '/run',
        runtime: { kind: 'native', executable: 'llama-server' },
      }).engineArgv;
    expect(own.map((v) => argv(v.variant).slice(10).join(' '))).toEqual([
      '--no-cache-prompt',
      '--cache-reuse 256',
      '-cram 0',
      '-cram -1',
      '-sps 0',
      '-sps 0.5',
      '-no-kvu',
    ]);
  });

  it('with DP replicas it says a cache-aware router could change the answer', () => {
    const c = configFor(['--gpu', 'H100', '--gpus', '2', '--replica', 'off'], SHARED);
    const h = simulatedHost('H100', 2);
    const b = { config: c, host: planHost(h), deps: realPlanDeps(c, h, '/tmp/servelab-cache-test') };
    expect(expandStage('cache', makeVariant('vllm', 'Qwen/Qwen3-14B', { dp: 2 }, c), b).notes.join(' ')).toMatch(
      /2 DP replicas each replica keeps its own prefix cache.*cache-aware router/,
    );
    expect(expandStage('parallelism', makeVariant('vllm', 'Qwen/Qwen3-14B', { tp: 2 }, c), b).notes.join(' ')).toMatch(
      /cache-aware router/,
    );
  });
});

describe('cache flags against the releases’ reference lists (src/engines/data/flags)', () => {
  const DIR = path.join(import.meta.dirname, '../../../../src/engines/data/flags');
  const lists = readdirSync(DIR).map(
    (f) =>
      JSON.parse(readFileSync(path.join(DIR, f), 'utf8')) as {
        engine: EngineName;
        version: string;
        flags: Record<string, { aliases?: string[] }>;
        yaml?: Record<string, unknown>;
      },
  );
  const config = configFor(['--gpu', 'H100', '--gpus', '1'], SHARED);
  const host = simulatedHost('H100', 1);
  const base = { config, host: planHost(host), deps: realPlanDeps(config, host, '/tmp/servelab-cache-test') };
  for (const engine of ['vllm', 'sglang', 'trtllm', 'llamacpp'] as const)
    for (const { version } of KNOWN_VERSIONS[engine])
      it(`${engine} ${version}: every cache candidate's flags are in its list`, () => {
        const list = lists.find((l) => l.engine === engine && l.version === version)!;
        const names = new Set(Object.entries(list.flags).flatMap(([n, e]) => [n, ...(e.aliases ?? [])]));
        const model = engine === 'llamacpp' ? '/models/x.gguf' : 'Qwen/Qwen3-14B';
        const variants = expandStage('cache', makeVariant(engine, model, {}, config, undefined, version), base).variants;
        expect(variants.length).toBeGreaterThan(0);
        for (const v of variants) {
          const runtime = { kind: 'native' as const, ...(engine === 'llamacpp' ? { executable: 'llama-server' } : {}) };
          const argv = getAdapter(engine).command(v.variant, { host: '127.0.0.1', port: 8000, runDir: '/run', runtime }).engineArgv;
          const flags = argv.slice(argv.indexOf(model) + 1).filter((a) => /^-[-a-z]/.test(a));
          expect(flags.filter((f) => !names.has(f))).toEqual([]);
          if (engine === 'trtllm') expect(Object.keys(list.yaml ?? {})).toContain('kv_cache_config.enable_block_reuse');
        }
      });
});
