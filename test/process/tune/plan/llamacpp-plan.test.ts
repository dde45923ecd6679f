// The planner's llama.cpp side without launching: which engines and stages a GGUF brings, its
// candidates per stage, and the prunes before launch (a quantized V cache with flash attention
// off; a context the host's memory cannot hold, sized from the GGUF header).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { GPU_STAGES, LLAMACPP_STAGES, type SessionConfig } from '../../../../src/tune/config/config.js';
import { llamacppPreflight, QUANTIZED_V_NEEDS_FA } from '../../../../src/engines/llamacpp/preflight.js';
import { ggufFacts, kvBytesPerToken } from '../../../../src/engines/llamacpp/gguf.js';
import { llamaStageCandidates } from '../../../../src/engines/llamacpp/stages.js';
import { NO_REPACK_NOTE } from '../../../../src/engines/llamacpp/amx.js';
import { AMX_OFF_FLAGS } from '../../../../src/host/llamacpp-backend.js';
import { CMAKE_FLAGS } from '../../../../src/host/llamacpp-build.js';
import { buildPlan } from '../../../../src/tune/plan/plan.js';
import { engineStageContext } from '../../../../src/tune/plan/candidates.js';
import { planHost, realPlanDeps } from '../../../../src/tune/plan/deps.js';
import type { ExpandContext } from '../../../../src/tune/plan/types.js';
import type { PlanHost } from '../../../../src/engines/kit/plan-types.js';
import type { Variant } from '../../../../src/core/variant.js';
import { LLAMA_SKIP, testGguf } from '../../../helpers/llamacpp-fixture.js';
import { skipNote } from '../../../helpers/skip.js';

const cpuHost = (memAvailMiB: number, threads = 4): PlanHost => ({
  gpuName: 'CPU',
  gpuCount: 0,
  gpuMemMiB: 0,
  simulated: false,
  cpu: { threads, memAvailMiB },
});
const variant = (model: string, knobs: Variant['knobs'] = {}): Variant => ({ id: 'v', engine: 'llamacpp', model, knobs });

describe.skipIf(LLAMA_SKIP !== undefined)(`llama.cpp in the planner${skipNote(LLAMA_SKIP)}`, () => {
  it('a GGUF model is llama.cpp alone with its stages; a checkpoint alone keeps the GPU engines and stages', () => {
    const gguf = testGguf();
    const llama = parseAutoArgs(['--model', gguf]).config!;
    expect(llama.engines).toEqual(['llamacpp']);
    expect(llama.stages).toEqual([...LLAMACPP_STAGES]);
    expect(llama.llamacpp).toEqual({ gguf: [gguf] });
    expect(llama.validation.map((s) => s.name)).toEqual([llama.scenario.name]);
    const gpu = parseAutoArgs(['--model', 'Qwen/Qwen3-14B']).config!;
    expect(gpu.engines).toEqual(['vllm', 'sglang', 'trtllm']);
    expect(gpu.stages).toEqual([...GPU_STAGES]);
    expect(gpu.llamacpp).toBeUndefined();
    const both = parseAutoArgs(['--model', 'Qwen/Qwen3-14B', '--gguf', gguf]).config!;
    expect(both.engines).toEqual(['vllm', 'sglang', 'trtllm', 'llamacpp']);
    expect(both.stages).toContain('slots');
    expect(both.stages).toContain('attention');
  });

  it('refuses llama.cpp without a GGUF and a GPU engine on a GGUF, in one line', () => {
    expect(() => parseAutoArgs(['--model', 'Qwen/Qwen3-14B', '--engines', 'llamacpp'])).toThrow(
      /^llama\.cpp serves GGUF files: give --model FILE\.gguf/,
    );
    expect(() => parseAutoArgs(['--model', testGguf(), '--engines', 'vllm'])).toThrow(/is a GGUF file, which only llama\.cpp serves here/);
    expect(() => parseAutoArgs(['--model', '/nonexistent/x.gguf'])).toThrow(/^--model \/nonexistent\/x\.gguf: no such file$/);
  });

  it("prunes a quantized V cache without flash attention in the binary's words, and not with it on", () => {
    const gguf = testGguf();
    const off = llamacppPreflight(variant(gguf, { kvCacheDtype: 'q8_0', flashAttn: 'off' }), cpuHost(1e6));
    expect(off.failure).toMatchObject({ kind: 'unsupported', reason: expect.stringContaining(QUANTIZED_V_NEEDS_FA) });
    expect(llamacppPreflight(variant(gguf, { kvCacheDtype: 'q8_0', flashAttn: 'on' }), cpuHost(1e6)).failure).toBeUndefined();
    expect(
      llamacppPreflight(variant(gguf, { vCacheDtype: 'f16', kvCacheDtype: 'q8_0', flashAttn: 'off' }), cpuHost(1e6)).failure,
    ).toBeUndefined();
  });

  it('prunes a context the host memory cannot hold, sized by the GGUF header', () => {
    const gguf = testGguf();
    const f = ggufFacts(gguf)!;
    // qwen3 hidden 256: 4 layers x 2 KV heads x (64 + 64) dims x 2 bytes (f16) = 2048 bytes per token.
    expect(kvBytesPerToken(f)).toBe(f.layers * f.kvHeads * (f.keyDim + f.valueDim) * 2);
    expect(kvBytesPerToken(f, 'q8_0')).toBeCloseTo((kvBytesPerToken(f) * 34) / 64, 6);
    const ctx = 1 << 20;
    const need = (kvBytesPerToken(f) * ctx + f.weightBytes) / 2 ** 20;
    const pruned = llamacppPreflight(variant(gguf, { ctxSize: ctx }), cpuHost(Math.floor(need) - 1));
    expect(pruned.failure).toMatchObject({
      kind: 'oom',
      reason: expect.stringMatching(/^a context of 1048576 tokens needs .* GiB of KV cache/),
    });
    expect(llamacppPreflight(variant(gguf, { ctxSize: ctx }), cpuHost(Math.ceil(need) + 1)).failure).toBeUndefined();
  });

  it('each stage moves one kind of knob from the carried winner; threads follow the host', () => {
    const gguf = testGguf();
    const config = { ...parseAutoArgs(['--model', gguf, '--scenario', 'random:100/20']).config!, runDir: '/tmp/r' } as SessionConfig;
    const ctx = engineStageContext({ config, host: cpuHost(1e6, 4), deps: {} } as unknown as ExpandContext);
    const w = variant(gguf);
    const th = llamaStageCandidates('threads', w, ctx).candidates.map((c) => c.knobs);
    expect(th).toEqual([{ threads: 1 }, { threads: 2 }, { threads: 4 }, { threadsBatch: 1 }, { threadsBatch: 2 }, { threadsBatch: 4 }]);
    const q = llamaStageCandidates('quantization', w, ctx).candidates;
    expect(q.map((c) => c.model)).toEqual(['/tmp/r/gguf/qwen3-256x4-Q8_0.gguf', '/tmp/r/gguf/qwen3-256x4-Q4_0.gguf']);
    const slots = llamaStageCandidates('slots', w, ctx).candidates.map((c) => c.knobs);
    for (const k of slots) expect(k.ctxSize! % (k.kvUnified ? 1 : k.maxRunningSeqs!)).toBe(0);
    expect(llamaStageCandidates('offload', w, ctx).skipped).toMatch(/no GPU/);
    expect(llamaStageCandidates('speculative', w, ctx).skipped).toMatch(/--draft-model/);
    expect(llamaStageCandidates('attention', w, ctx).skipped).toMatch(/a stage of the GPU engines/);
    const b = llamaStageCandidates('batch-size', variant(gguf, { maxBatchedTokens: 512, ubatch: 512 }), ctx).candidates.map(
      (c) => c.change,
    );
    expect(b).not.toContain('b=512 ub=512');
  });

  it('on an AMX CPU, with a llama-server that carries AMX kernels, --no-repack is a host condition of every launch, stated once; quantization variants change the file alone', () => {
    const gguf = testGguf();
    // A llama-server of the user's (no servelab stamp beside it): its AMX kernels are assumed.
    const args = ['--model', gguf, '--scenario', 'random:100/20', '--stages', 'engine,quantization,threads', '--llama-server', '/bin/true'];
    const config = { ...parseAutoArgs(args).config!, runDir: '/tmp/r' } as SessionConfig;
    const plan = (amx: boolean, c = config) => {
      const host = { simulated: false, gpus: [], cpu: { threads: 2, memAvailMiB: 1e5, ...(amx ? { amx } : {}) } };
      return buildPlan(c, planHost(host), realPlanDeps(c, host, '/tmp/r'));
    };
    const p = plan(true);
    expect(p.notes.filter((n) => n === NO_REPACK_NOTE)).toHaveLength(1);
    const [engine, quant, threads] = p.stages;
    const base = engine!.variants[0]!;
    // The F16 baseline carries it too, so that the quantized files are the only change.
    expect(base.variant.knobs.repack).toBe(false);
    expect(quant!.variants.map((v) => v.change)).toEqual(['gguf Q8_0', 'gguf Q4_0']);
    for (const v of quant!.variants) {
      expect(v.variant.model).not.toBe(base.variant.model);
      expect(v.variant.knobs).toEqual(base.variant.knobs);
    }
    for (const v of [...engine!.variants, ...quant!.variants, ...threads!.variants]) expect(v.engineArgv).toContain('--no-repack');
    const plain = plan(false);
    expect(plain.notes).not.toContain(NO_REPACK_NOTE);
    for (const s of plain.stages) for (const v of s.variants) expect(v.engineArgv).not.toContain('--no-repack');
    // servelab's own build, its stamp saying AMX was compiled out: repacking stays on.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-amx-build-'));
    try {
      fs.mkdirSync(path.join(dir, 'bin'));
      fs.copyFileSync('/bin/true', path.join(dir, 'bin', 'llama-server'));
      fs.writeFileSync(
        path.join(dir, 'servelab-build.json'),
        JSON.stringify({ commit: '80fb11a', flags: [...CMAKE_FLAGS, ...AMX_OFF_FLAGS] }),
      );
      const own = { ...config, llamacpp: { ...config.llamacpp!, server: path.join(dir, 'bin', 'llama-server') } };
      const ownPlan = plan(true, own);
      expect(ownPlan.notes).not.toContain(NO_REPACK_NOTE);
      for (const s of ownPlan.stages) for (const v of s.variants) expect(v.engineArgv).not.toContain('--no-repack');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // An F16 file alone, no quantization stage: nothing is repacked, so no launch needs it.
    const f16only = { ...config, stages: ['engine', 'threads'] } as SessionConfig;
    const host = { simulated: false, gpus: [], cpu: { threads: 2, memAvailMiB: 1e5, amx: true } };
    const q = buildPlan(f16only, planHost(host), realPlanDeps(f16only, host, '/tmp/r'));
    expect(q.notes).not.toContain(NO_REPACK_NOTE);
    expect(q.stages[0]!.variants[0]!.engineArgv).not.toContain('--no-repack');
  });
});
