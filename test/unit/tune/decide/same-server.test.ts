// Same server: a variant that only spells out its engine's own default for this
// release and GPU is not launched; one whose setting differs, or whose release is not known, is.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Knobs, EngineName } from '../../../../src/core/variant.js';
import { simulatedHost } from '../../../../src/host/gpus.js';
import { getModel } from '../../../../src/model/models.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { planHost, realPlanDeps } from '../../../../src/tune/plan/deps.js';
import { buildPlan } from '../../../../src/tune/plan/plan.js';
import type { Plan } from '../../../../src/tune/plan/types.js';
import { effectiveSettings, sameServerAs } from '../../../../src/tune/decide/same-server.js';
import type { ServerContext } from '../../../../src/engines/data/engine-defaults.js';
import { runSession } from '../../../../src/tune/session/session.js';
import { progressLine } from '../../../../src/cli/text.js';
import { planText } from '../../../../src/cli/text-plan.js';
import type { TuneEvent } from '../../../../src/core/events.js';
import { scriptedRunner } from '../../../helpers/tune/scripted-runner.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-same-server-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GLM = 'zai-org/GLM-4.6-FP8';
const A100 = { gpuName: 'A100 SXM 80GB', gpuMemMiB: 81920, computeCap: 8.0, simulated: true };
const H100 = { gpuName: 'H100 SXM 80GB', gpuMemMiB: 81559, computeCap: 9.0, simulated: true };

function v(engine: EngineName, knobs: Knobs, engineVersion?: string, model = GLM) {
  const id = `${engine}-${JSON.stringify(knobs)}`;
  return { id, engine, model, knobs: { tp: 8, ...knobs }, ...(engineVersion ? { engineVersion } : {}) };
}

function ctx(host: ServerContext['host'], model = GLM): ServerContext {
  return { host, model: getModel(model) };
}

/** The attention setting vLLM 0.11.0 gets for an explicit backend on a host. */
const effectiveAttention = (b: string, host: ServerContext['host'], model: string) =>
  effectiveSettings(v('vllm', { attentionBackend: b }, '0.11.0', model), ctx(host, model)).get('attentionBackend')!.value;

describe('sameServerAs: the engine defaults of the release the commands are spelled for', () => {
  it('vLLM 0.11.0 fa2 on an A100 is the default server (FLASH_ATTN, FA version 2 on compute capability 8.0)', () => {
    const why = sameServerAs(v('vllm', { attentionBackend: 'fa2' }), v('vllm', {}), ctx(A100));
    expect(why).toBe(
      `same server as vllm-{} (vLLM 0.11.0 picks FLASH_ATTN v2 on compute capability 8.0 by default): not launched, its measurement is reused`,
    );
  });

  it('fa2 on an H100 differs: Hopper defaults to FA3 when the build has it', () => {
    expect(sameServerAs(v('vllm', { attentionBackend: 'fa2' }), v('vllm', {}), ctx(H100))).toBeUndefined();
    expect(sameServerAs(v('vllm', { attentionBackend: 'fa3' }), v('vllm', {}), ctx(H100))).toBeUndefined();
  });

  it('fa2 on an A100 with an FP8 KV cache differs: vLLM 0.11.0 picks Triton there', () => {
    expect(
      sameServerAs(v('vllm', { attentionBackend: 'fa2', kvCacheDtype: 'fp8' }), v('vllm', { kvCacheDtype: 'fp8' }), ctx(A100)),
    ).toBeUndefined();
    expect(
      sameServerAs(v('vllm', { attentionBackend: 'triton', kvCacheDtype: 'fp8' }), v('vllm', { kvCacheDtype: 'fp8' }), ctx(A100)),
    ).toMatch(/picks TRITON_ATTN on compute capability 8.0 with an FP8 KV cache/);
  });

  it('an explicit fa3 is an FA3 server only where vLLM can run FA3 (not on compute capability 8.6 / 8.9 / 12.x; 10.x falls back to FA2)', () => {
    const L40S = { gpuName: 'L40S', gpuMemMiB: 46068, computeCap: 8.9, simulated: true };
    const RTX = { gpuName: 'RTX PRO 6000', gpuMemMiB: 97887, computeCap: 12.0, simulated: true };
    const B200 = { gpuName: 'B200', gpuMemMiB: 183359, computeCap: 10.0, simulated: true };
    const m = 'Qwen/Qwen3-14B';
    // fa3 on 8.9 / 12.x is no FA3 server (the FA version resolves to None): left unmapped.
    for (const host of [L40S, RTX]) expect(effectiveAttention('fa3', host, m)).toBe('unmapped "fa3"');
    expect(sameServerAs(v('vllm', { attentionBackend: 'fa3' }, undefined, m), v('vllm', {}, undefined, m), ctx(L40S, m))).toBeUndefined();
    expect(effectiveAttention('fa3', B200, m)).toBe('FLASH_ATTN v2');
    expect(effectiveAttention('fa3', H100, m)).toBe('FLASH_ATTN v3');
  });

  it('vLLM 0.33.0: an explicit --performance-mode balanced is the default server; throughput is not', () => {
    const m = 'Qwen/Qwen3-14B';
    const why = sameServerAs(v('vllm', { performanceMode: 'balanced' }, '0.33.0', m), v('vllm', {}, '0.33.0', m), ctx(H100, m));
    expect(why).toBe(
      `same server as vllm-{} (vLLM 0.33.0's performance mode is balanced by default): not launched, its measurement is reused`,
    );
    expect(
      sameServerAs(v('vllm', { performanceMode: 'throughput' }, '0.33.0', m), v('vllm', {}, '0.33.0', m), ctx(H100, m)),
    ).toBeUndefined();
    // 0.11.0 has no performance mode: nothing is assumed.
    expect(effectiveSettings(v('vllm', {}, '0.11.0', m), ctx(H100, m)).has('performanceMode')).toBe(false);
  });

  it('an unknown release launches: a real host with no detected version, or a release whose defaults were not read', () => {
    const real = { ...A100, simulated: false };
    expect(sameServerAs(v('vllm', { attentionBackend: 'fa2' }), v('vllm', {}), ctx(real))).toBeUndefined();
    expect(sameServerAs(v('vllm', { attentionBackend: 'fa2' }, '0.11.1'), v('vllm', {}, '0.11.1'), ctx(real))).toBeUndefined();
    expect(sameServerAs(v('vllm', { attentionBackend: 'fa2' }, '0.12.0'), v('vllm', {}, '0.12.0'), ctx(real))).toBeUndefined();
    expect(sameServerAs(v('vllm', { attentionBackend: 'fa2' }, '0.11.0+cu128'), v('vllm', {}, '0.11.0+cu128'), ctx(real))).toMatch(
      /^same server as/,
    );
  });

  it('batching knobs: equal to the default only where the GPU gives that default', () => {
    expect(sameServerAs(v('vllm', { maxBatchedTokens: 8192 }), v('vllm', {}), ctx(H100))).toMatch(
      /max-num-batched-tokens 8192 on H100 SXM 80GB/,
    );
    expect(sameServerAs(v('vllm', { maxRunningSeqs: 1024 }), v('vllm', {}), ctx(H100))).toMatch(/max-num-seqs 1024/);
    // A100: 2048 and 256 ("a100" in the name), so 8192 and 1024 are other servers.
    expect(sameServerAs(v('vllm', { maxBatchedTokens: 8192 }), v('vllm', {}), ctx(A100))).toBeUndefined();
    expect(sameServerAs(v('vllm', { maxRunningSeqs: 1024 }), v('vllm', {}), ctx(A100))).toBeUndefined();
    expect(sameServerAs(v('vllm', { maxBatchedTokens: 2048 }), v('vllm', {}), ctx(A100))).toMatch(
      /max-num-batched-tokens 2048 on A100 SXM 80GB \(an A100\)/,
    );
    // max_num_seqs = min(default, max_num_batched_tokens): 512 with 512 batched tokens on an H100.
    expect(
      sameServerAs(v('vllm', { maxBatchedTokens: 512, maxRunningSeqs: 512 }), v('vllm', { maxBatchedTokens: 512 }), ctx(H100)),
    ).toMatch(/max-num-seqs 512/);
    // SGLang 0.5.5 chunked prefill: 8192 on 80 GB, 4096 under 60 GB.
    expect(sameServerAs(v('sglang', { maxBatchedTokens: 8192 }), v('sglang', {}), ctx(H100))).toMatch(/chunked-prefill-size 8192/);
    expect(
      sameServerAs(
        v('sglang', { maxBatchedTokens: 8192 }),
        v('sglang', {}),
        ctx({ ...H100, gpuName: 'L40S', gpuMemMiB: 46068, computeCap: 8.9 }),
      ),
    ).toBeUndefined();
  });

  it('SGLang fa3 is the default only on Hopper, for the architectures 0.5.5 lists; TensorRT-LLM defaults are not mapped', () => {
    expect(sameServerAs(v('sglang', { attentionBackend: 'fa3' }), v('sglang', {}), ctx(H100, 'Qwen/Qwen3-14B'))).toMatch(
      /picks fa3 for Qwen3ForCausalLM/,
    );
    expect(sameServerAs(v('sglang', { attentionBackend: 'fa3' }), v('sglang', {}), ctx(A100, 'Qwen/Qwen3-14B'))).toBeUndefined();
    expect(
      sameServerAs(
        v('sglang', { attentionBackend: 'fa3', speculative: { method: 'ngram' } }),
        v('sglang', { speculative: { method: 'ngram' } }),
        ctx(H100, 'Qwen/Qwen3-14B'),
      ),
    ).toBeUndefined();
    expect(sameServerAs(v('trtllm', { maxBatchedTokens: 8192 }), v('trtllm', {}), ctx(H100))).toBeUndefined();
  });

  it('SGLang 0.5.13 (read at its tag): the same defaults, named for 0.5.13; a release between tables stays unknown', () => {
    const real = { ...H100, simulated: false };
    expect(sameServerAs(v('sglang', { maxBatchedTokens: 8192 }, '0.5.13'), v('sglang', {}, '0.5.13'), ctx(real))).toMatch(
      /SGLang 0.5.13 sets chunked-prefill-size 8192 on a GPU of 80 GiB/,
    );
    expect(
      sameServerAs(v('sglang', { attentionBackend: 'fa3' }, '0.5.13'), v('sglang', {}, '0.5.13'), ctx(real, 'Qwen/Qwen3-14B')),
    ).toMatch(/SGLang 0.5.13 picks fa3 for Qwen3ForCausalLM/);
    expect(
      sameServerAs(
        v('sglang', { attentionBackend: 'fa3' }, '0.5.13'),
        v('sglang', {}, '0.5.13'),
        ctx({ ...A100, simulated: false }, 'Qwen/Qwen3-14B'),
      ),
    ).toBeUndefined();
    // 0.5.14 resolves to the 0.5.13 table but not exactly: its defaults were not read.
    expect(sameServerAs(v('sglang', { maxBatchedTokens: 8192 }, '0.5.14'), v('sglang', {}, '0.5.14'), ctx(real))).toBeUndefined();
    // 0.5.23's table is marked read at older tags: its defaults are not assumed either.
    expect(sameServerAs(v('sglang', { maxBatchedTokens: 8192 }, '0.5.23'), v('sglang', {}, '0.5.23'), ctx(real))).toBeUndefined();
  });

  it('never across GPU counts, models or other knobs', () => {
    expect(sameServerAs(v('vllm', { attentionBackend: 'fa2', tp: 4 }), v('vllm', {}), ctx(A100))).toBeUndefined();
    expect(sameServerAs(v('vllm', { attentionBackend: 'fa2' }, undefined, 'zai-org/GLM-4.6'), v('vllm', {}), ctx(A100))).toBeUndefined();
    expect(sameServerAs(v('vllm', { attentionBackend: 'fa2', torchCompile: false }), v('vllm', {}), ctx(A100))).toBeUndefined();
  });
});

function planFor(args: string[]): Plan {
  const { config } = parseAutoArgs(['--auto', '--sim', '--run-dir', join(dir, 'plan'), ...args]);
  const host = simulatedHost(config!.sim!.gpu, config!.sim!.gpus);
  return buildPlan(config!, planHost(host), realPlanDeps(config!, host, config!.runDir!));
}

const variantOf = (p: Plan, id: string) => p.stages.flatMap((s) => s.variants).find((x) => x.variant.id === id);

describe('the plan', () => {
  it('GLM-4.6 on 8 x A100: the fa2 variant is shown as not launched, with why; the others run', () => {
    const p = planFor(['--gpu', 'A100', '--gpus', '8', '--model', 'zai-org/GLM-4.6', '--scale', '0.05']);
    const fa2 = variantOf(p, 'vllm-fp8ckpt-tp8-attn-fa2')!;
    expect(fa2.status).toBe('dropped');
    expect(fa2.reason?.reason).toMatch(
      /^same server as vllm-fp8ckpt-tp8 \(vLLM 0.11.0 picks FLASH_ATTN v2 on compute capability 8.0 by default\)/,
    );
    expect(variantOf(p, 'vllm-fp8ckpt-tp8-attn-flashinfer')!.status).toBe('planned');
    const text = planText(p, parseAutoArgs(['--auto', '--sim', '--gpu', 'A100', '--model', 'zai-org/GLM-4.6']).config!);
    expect(text).toMatch(/\[dropped\] vllm-fp8ckpt-tp8-attn-fa2 {2}\(attn=fa2\): same server as vllm-fp8ckpt-tp8/);
    expect(text).toMatch(/1 not launched \(same server as one measured\)/);
  });

  it('vLLM on 8 x H100: fa2 and fa3 are both launched (Hopper defaults to FA3 when the build has it)', () => {
    const p = planFor([
      '--gpu',
      'H100',
      '--gpus',
      '8',
      '--model',
      'Qwen/Qwen3-14B',
      '--engines',
      'vllm',
      '--replica',
      'off',
      '--scale',
      '0.05',
    ]);
    const attention = p.stages.find((s) => s.name === 'attention')!.variants;
    expect(attention.filter((x) => /attn-fa[23]$/.test(x.variant.id)).map((x) => x.status)).toEqual(['planned', 'planned']);
  });
});

describe('a session on the simulated A100 host', () => {
  it('does not launch the fa2 variant, files it with the reason, and keeps the carried winner', async () => {
    const { config } = parseAutoArgs([
      '--sim',
      '--gpu',
      'A100',
      '--gpus',
      '8',
      '--model',
      'zai-org/GLM-4.6',
      '--engines',
      'vllm',
      '--stages',
      'engine,attention',
      '--scale',
      '0.02',
      '--validation',
      'sharegpt-like',
      '--out',
      dir,
      '--run-dir',
      join(dir, 'run'),
      '--repeats-max',
      '1',
    ]);
    // Were fa2 launched it would win by far: it must not be, so the carried winner stays.
    const { run, calls } = scriptedRunner({ 'vllm-fp8ckpt-tp8': 1000, 'vllm-fp8ckpt-tp8-attn-fa2': 5000 }, 900);
    const events: TuneEvent[] = [];
    const o = await runSession(config!, { runner: run, onEvent: (e) => events.push(e) });
    expect(o.exitCode).toBe(0);
    expect(calls.some((c) => c.includes('attn-fa2'))).toBe(false);
    expect(calls.filter((c) => c.startsWith('attention:')).length).toBe(3);
    const attention = o.stages.find((s) => s.name === 'attention')!;
    const fa2 = attention.results.find((r) => r.variantId === 'vllm-fp8ckpt-tp8-attn-fa2')!;
    expect(fa2.status).toBe('skipped');
    expect(fa2.failure?.reason).toMatch(/^same server as vllm-fp8ckpt-tp8 .*: not launched, its measurement is reused$/);
    expect(fa2.metrics).toBeUndefined();
    expect(attention.winnerId).toBe('vllm-fp8ckpt-tp8');
    expect(o.winner?.variantId).toBe('vllm-fp8ckpt-tp8');
    // The --auto progress line gives the reason alone.
    const finished = events.find((e) => e.type === 'variant-finished' && e.result.variantId === 'vllm-fp8ckpt-tp8-attn-fa2')!;
    expect(progressLine(finished)).toBe(`  vllm-fp8ckpt-tp8-attn-fa2: ${fa2.failure!.reason}`);
  });
});

describe("the Plan screen's word for a row that will not run", () => {
  it("is 'not launched' for the same server, 'dropped' for --drop, 'pruned' for preflight", async () => {
    const { notRunWord } = await import('../../../../src/tui/services/view.js');
    expect(notRunWord('dropped', 'same server as vllm-fp8ckpt-tp8 (vLLM 0.11.0 picks FLASH_ATTN v2 ...): not launched')).toBe(
      'not launched',
    );
    expect(notRunWord('dropped', 'dropped by the user (--drop)')).toBe('dropped');
    expect(notRunWord('pruned', 'does not fit in GPU memory')).toBe('pruned');
  });
});
