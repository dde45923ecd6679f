// Knob -> flag translation beyond the studies' commands: env vars, YAML, docker, the sim adapter.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import type { Knobs, Variant, EngineName } from '../../../src/core/variant.js';
import { adapterFor, buildLaunchSpec, getAdapter } from '../../../src/engines/index.js';
import type { LaunchContext } from '../../../src/engines/kit/types.js';
import { parseSimArgs } from '../../../src/cli/sim-serve-args.js';
import { SELF_SCRIPT } from '../../../src/core/self.js';
import { sglang } from '../../../src/engines/sglang/adapter.js';
import { sim } from '../../../src/engines/sim/adapter.js';
import { trtllm } from '../../../src/engines/trtllm/adapter.js';
import { vllm } from '../../../src/engines/vllm/adapter.js';

const runDir = mkdtempSync(path.join(os.tmpdir(), 'servelab-adapters-'));
afterAll(() => rmSync(runDir, { recursive: true, force: true }));
const ctx: LaunchContext = { host: '127.0.0.1', port: 8123, runDir, runtime: { kind: 'native' } };
const v = (engine: EngineName, knobs: Knobs = {}, model = 'Qwen/Qwen3-14B'): Variant => ({ id: 'x', engine, model, knobs });
const after = (argv: string[], f: string) => (argv.includes(f) ? argv[argv.indexOf(f) + 1] : undefined);

describe('vLLM', () => {
  it('sets the attention backend through VLLM_ATTENTION_BACKEND, never a flag', () => {
    for (const [neutral, env] of [
      ['fa3', 'FLASH_ATTN'],
      ['flash_attn', 'FLASH_ATTN'],
      ['flashinfer', 'FLASHINFER'],
      ['triton', 'TRITON_ATTN'],
      ['flex', 'FLEX_ATTENTION'],
    ]) {
      const spec = vllm.command(v('vllm', { attentionBackend: neutral }), ctx);
      expect(spec.env.VLLM_ATTENTION_BACKEND).toBe(env);
      expect(spec.argv.join(' ')).not.toMatch(/attention/);
    }
  });

  it('maps every knob to its flag', () => {
    const spec = vllm.command(
      v('vllm', {
        quantization: 'fp8',
        kvCacheDtype: 'fp8',
        tp: 2,
        pp: 2,
        dp: 2,
        ep: 4,
        maxBatchedTokens: 8192,
        maxRunningSeqs: 512,
        memFraction: 0.92,
        maxModelLen: 32768,
        cudaGraph: false,
        speculative: { method: 'eagle3', draftModel: 'd/e3', numSteps: 3 },
        extraArgs: ['--disable-log-requests'],
      }),
      ctx,
    );
    const a = spec.argv;
    expect(a.slice(0, 3)).toEqual(['vllm', 'serve', 'Qwen/Qwen3-14B']);
    expect(after(a, '--quantization')).toBe('fp8');
    expect(after(a, '--kv-cache-dtype')).toBe('fp8');
    expect(after(a, '--tensor-parallel-size')).toBe('2');
    expect(after(a, '--pipeline-parallel-size')).toBe('2');
    expect(after(a, '--data-parallel-size')).toBe('2');
    expect(a).toContain('--enable-expert-parallel');
    expect(after(a, '--max-num-batched-tokens')).toBe('8192');
    expect(after(a, '--max-num-seqs')).toBe('512');
    expect(after(a, '--gpu-memory-utilization')).toBe('0.92');
    expect(after(a, '--max-model-len')).toBe('32768');
    expect(a).toContain('--enforce-eager');
    expect(JSON.parse(after(a, '--speculative-config')!)).toEqual({ method: 'eagle3', model: 'd/e3', num_speculative_tokens: 3 });
    expect(a.at(-1)).toBe('--disable-log-requests');
  });

  it('turns compilation off without turning CUDA graphs off, spelled by version (docs/engines.md)', () => {
    const a = vllm.command(v('vllm', { torchCompile: false }), ctx).argv;
    expect(JSON.parse(after(a, '--compilation-config')!)).toEqual({ level: 0, cudagraph_mode: 'FULL_DECODE_ONLY' });
    expect(a).not.toContain('--enforce-eager');
    const b = vllm.command({ ...v('vllm', { torchCompile: false }), engineVersion: '0.11.1' }, ctx).argv;
    expect(JSON.parse(after(b, '--compilation-config')!)).toEqual({ mode: 0, cudagraph_mode: 'FULL_DECODE_ONLY' });
  });

  it('pins the FlashAttention version, so fa2 and fa3 are different commands (docs/engines.md)', () => {
    const fa2 = vllm.command(v('vllm', { attentionBackend: 'fa2' }), ctx).env;
    const fa3 = vllm.command(v('vllm', { attentionBackend: 'fa3' }), ctx).env;
    expect(fa2).toMatchObject({ VLLM_ATTENTION_BACKEND: 'FLASH_ATTN', VLLM_FLASH_ATTN_VERSION: '2' });
    expect(fa3).toMatchObject({ VLLM_ATTENTION_BACKEND: 'FLASH_ATTN', VLLM_FLASH_ATTN_VERSION: '3' });
    expect(vllm.command(v('vllm', { attentionBackend: 'flashinfer' }), ctx).env.VLLM_FLASH_ATTN_VERSION).toBeUndefined();
  });

  it('does not offer draft-model speculation on 0.11.x (docs/engines.md)', () => {
    for (const engineVersion of ['0.11.0', '0.11.1']) {
      expect(() => vllm.command({ ...v('vllm', { speculative: { method: 'draft', draftModel: 'd' } }), engineVersion }, ctx)).toThrow(
        /not supported yet/,
      );
    }
  });

  it('rejects a backend vLLM does not have, in one line', () => {
    expect(() => vllm.command(v('vllm', { attentionBackend: 'fa9' }), ctx)).toThrow(UserError);
    expect(() => vllm.command(v('vllm', { attentionBackend: 'fa9' }), ctx)).toThrow(/has no attention backend 'fa9'/);
  });

  it('does not claim knobs it cannot express', () => {
    expect(vllm.supports.has('dpAttention')).toBe(false);
    expect(trtllm.supports.has('quantization')).toBe(false);
    expect(sglang.supports.has('dpAttention')).toBe(true);
  });
});

describe('SGLang', () => {
  it('maps knobs to full flag names', () => {
    const a = sglang.command(
      v('sglang', {
        kvCacheDtype: 'fp8',
        maxBatchedTokens: 4096,
        maxRunningSeqs: 256,
        memFraction: 0.85,
        cudaGraph: false,
        maxModelLen: 8192,
        quantization: 'fp8',
      }),
      ctx,
    ).argv;
    expect(after(a, '--kv-cache-dtype')).toBe('fp8_e4m3');
    expect(after(a, '--chunked-prefill-size')).toBe('4096');
    expect(after(a, '--max-running-requests')).toBe('256');
    expect(after(a, '--mem-fraction-static')).toBe('0.85');
    expect(after(a, '--context-length')).toBe('8192');
    expect(after(a, '--quantization')).toBe('fp8');
    expect(a).toContain('--disable-cuda-graph');
  });

  it('runs inside a given Python environment', () => {
    const spec = sglang.command(v('sglang'), { ...ctx, runtime: { kind: 'native', executable: '/opt/envs/sgl/bin/python' } });
    expect(spec.argv[0]).toBe('/opt/envs/sgl/bin/python');
    expect(spec.engineArgv[0]).toBe('python3');
  });
});

describe('TensorRT-LLM', () => {
  it('puts attention, CUDA graph, compile, attention-DP, KV dtype and speculation in the YAML', () => {
    const spec = trtllm.command(
      v('trtllm', {
        attentionBackend: 'flashinfer',
        cudaGraph: false,
        torchCompile: true,
        dpAttention: true,
        kvCacheDtype: 'fp8',
        tp: 8,
        speculative: { method: 'mtp', numSteps: 3 },
        maxBatchedTokens: 8192,
        maxRunningSeqs: 128,
        memFraction: 0.8,
      }),
      ctx,
    );
    const doc = YAML.parse(spec.files[0]!.content);
    expect(doc).toEqual({
      enable_iter_perf_stats: true,
      attn_backend: 'FLASHINFER',
      cuda_graph_config: null,
      torch_compile_config: { enable_fullgraph: true },
      enable_attention_dp: true,
      // The fraction travels inside kv_cache_config: the YAML object replaces the flag's (docs/engines.md).
      kv_cache_config: { dtype: 'fp8', free_gpu_memory_fraction: 0.8 },
      speculative_config: { decoding_type: 'MTP', num_nextn_predict_layers: 3 },
    });
    const a = spec.argv;
    expect(after(a, '--tp_size')).toBe('8');
    expect(after(a, '--max_num_tokens')).toBe('8192');
    expect(after(a, '--max_batch_size')).toBe('128');
    expect(after(a, '--kv_cache_free_gpu_memory_fraction')).toBe('0.8');
    expect(after(a, '--extra_llm_api_options')).toBe(path.join(runDir, 'extra_llm_api_options.yaml'));
    expect(a.join(' ')).not.toMatch(/attn|cuda_graph|enable_attention_dp/);
  });

  it('refuses an attention backend it would silently replace', () => {
    expect(() => trtllm.command(v('trtllm', { attentionBackend: 'fa3' }), ctx)).toThrow(/has no attention backend 'fa3'/);
  });
});

describe('docker runtime', () => {
  it('wraps the same engine argv in docker run with GPUs, IPC, the port and the HF cache', () => {
    const dctx: LaunchContext = { ...ctx, runtime: { kind: 'docker', image: 'vllm/vllm-openai:v0.11.0', hfCache: '/data/hf' } };
    const spec = vllm.command(v('vllm', { tp: 2, attentionBackend: 'flashinfer' }), dctx);
    const a = spec.argv;
    expect(a.slice(0, 3)).toEqual(['docker', 'run', '--rm']);
    expect(after(a, '--gpus')).toBe('all');
    expect(a).toContain('--ipc=host');
    expect(after(a, '-p')).toBe('127.0.0.1:8123:8123');
    expect(a).toContain('/data/hf:/root/.cache/huggingface');
    expect(a).toContain('VLLM_ATTENTION_BACKEND=FLASHINFER');
    const img = a.indexOf('vllm/vllm-openai:v0.11.0');
    expect(a[img - 2]).toBe('--entrypoint');
    expect(a[img - 1]).toBe('vllm');
    // After the image: the engine argv minus its executable; inside the container it listens on all interfaces.
    expect(a.slice(img + 1)).toEqual(spec.engineArgv.slice(1));
    expect(after(spec.engineArgv, '--host')).toBe('0.0.0.0');
    const name = after(a, '--name')!;
    expect(spec.cleanupArgv).toEqual(['docker', 'rm', '-f', name]);
  });

  it('pins GPUs with --gpus device=... in a container and CUDA_VISIBLE_DEVICES natively', () => {
    const d = vllm.command(v('vllm'), { ...ctx, devices: [2, 3], runtime: { kind: 'docker', image: 'i:1' } });
    expect(after(d.argv, '--gpus')).toBe('"device=2,3"');
    const n = vllm.command(v('vllm'), { ...ctx, devices: [2, 3] });
    expect(n.env).toMatchObject({ CUDA_VISIBLE_DEVICES: '2,3', CUDA_DEVICE_ORDER: 'PCI_BUS_ID' });
  });
});

describe('sim adapter', () => {
  const sctx: LaunchContext = { ...ctx, sim: { gpu: 'A100', gpus: 8, speed: 50, seed: 7 } };

  it('launches servelab sim-serve with the knobs, and keeps the real command as engineArgv', () => {
    const variant = v(
      'sglang',
      { tp: 8, dpAttention: true, attentionBackend: 'fa3', speculative: { method: 'mtp', numSteps: 1, topk: 1, draftTokens: 2 } },
      'deepseek-ai/DeepSeek-R1-0528',
    );
    const spec = buildLaunchSpec(variant, sctx);
    expect(adapterFor(variant, sctx)).toBe(sim);
    expect(spec.argv.slice(0, 3)).toEqual([process.execPath, SELF_SCRIPT, 'sim-serve']);
    expect(path.isAbsolute(SELF_SCRIPT) && SELF_SCRIPT.endsWith(path.join('bin', 'servelab.js'))).toBe(true);
    const parsed = parseSimArgs(spec.argv.slice(3));
    expect(parsed).toMatchObject({
      engine: 'sglang',
      model: 'deepseek-ai/DeepSeek-R1-0528',
      gpu: 'A100',
      gpus: 8,
      port: 8123,
      host: '127.0.0.1',
      speed: 50,
      seed: 7,
    });
    expect(parsed.knobs).toEqual(variant.knobs);
    expect(spec.speed).toBe(50);
    expect(spec.engineArgv).toEqual(sglang.command(variant, ctx).argv);
    expect(spec.healthPath).toBe('/health');
  });

  it("a pinned launch sees only its GPUs, as an engine under CUDA_VISIBLE_DEVICES does (unpinned: the host's)", () => {
    const variant = v('vllm');
    expect(parseSimArgs(buildLaunchSpec(variant, { ...sctx, devices: [3] }).argv.slice(3)).gpus).toBe(1);
    expect(parseSimArgs(buildLaunchSpec(variant, { ...sctx, devices: [4, 5] }).argv.slice(3)).gpus).toBe(2);
    expect(parseSimArgs(buildLaunchSpec(variant, sctx).argv.slice(3)).gpus).toBe(8);
  });

  it('uses the engine adapter on a real host', () => {
    expect(adapterFor(v('trtllm'), ctx)).toBe(trtllm);
    expect(buildLaunchSpec(v('trtllm'), ctx).argv[0]).toBe('trtllm-serve');
  });
});

describe('bad input', () => {
  it('an unknown engine name is a one-line UserError', () => {
    expect(() => getAdapter('tgi')).toThrow(UserError);
    expect(() => getAdapter('tgi')).toThrow("unknown engine 'tgi' (choose from vllm, sglang, trtllm, llamacpp)");
    expect(() => buildLaunchSpec({ id: 'x', engine: 'tgi' as EngineName, model: 'm', knobs: {} }, ctx)).toThrow(/unknown engine 'tgi'/);
  });
});

describe('SGLang DP-attention ports', () => {
  it('declares the internal ports above the server port, to be checked before launch', () => {
    const spec = sglang.command(v('sglang', { tp: 8, dp: 8, dpAttention: true }), ctx);
    // port+13 (the DP controller's handshake) and port+233 ... port+238 are fixed whatever dp is;
    // the NCCL port is given with --nccl-port (docs/engines.md).
    expect(spec.extraPorts).toEqual([8123 + 13, 8356, 8357, 8358, 8359, 8360, 8361, 8123 + 239]);
    expect(after(spec.argv, '--nccl-port')).toBe(String(8123 + 239));
    expect(sglang.command(v('sglang', { tp: 8 }), ctx).extraPorts).toBeUndefined();
  });
});
