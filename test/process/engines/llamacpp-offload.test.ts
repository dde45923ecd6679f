// llama.cpp on a planned GPU host, without launching: the offload stage's candidates (-ngl, -fit,
// -sm none|layer|row, -ts) on one and on several GPUs, and the plan's GPU memory count (a variant
// that pins its layers with -fit off and that one GPU cannot hold is pruned with the figures; with
// -fit on llama-server places what fits itself). The GGUF is a small random one, read by its header.
import { describe, expect, it } from 'vitest';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import type { SessionConfig } from '../../../src/tune/config/config.js';
import { llamacppArgv } from '../../../src/engines/llamacpp/adapter.js';
import { ggufFacts, kvBytesPerToken } from '../../../src/engines/llamacpp/gguf.js';
import { gpuNeed, layersThatFit } from '../../../src/engines/llamacpp/offload.js';
import { llamacppPreflight } from '../../../src/engines/llamacpp/preflight.js';
import { llamaStageCandidates } from '../../../src/engines/llamacpp/stages.js';
import { buildPlan } from '../../../src/tune/plan/plan.js';
import { engineStageContext } from '../../../src/tune/plan/candidates.js';
import { planHost, realPlanDeps } from '../../../src/tune/plan/deps.js';
import type { ExpandContext } from '../../../src/tune/plan/types.js';
import type { PlanHost } from '../../../src/engines/kit/plan-types.js';
import type { Variant } from '../../../src/core/variant.js';
import { LLAMA_SKIP, testGguf } from '../../helpers/llamacpp-fixture.js';
import { skipNote } from '../../helpers/skip.js';

const MiB = 2 ** 20;
const gpuHost = (gpuCount: number, gpuMemMiB: number): PlanHost => ({
  gpuName: 'NVIDIA H100 80GB HBM3',
  gpuCount,
  gpuMemMiB,
  simulated: false,
  cpu: { threads: 16, memAvailMiB: 1e6 },
});
const variant = (model: string, knobs: Variant['knobs'] = {}): Variant => ({ id: 'v', engine: 'llamacpp', model, knobs });
const CTX = 4096;

function stageCtx(gguf: string, host: PlanHost) {
  const config = { ...parseAutoArgs(['--model', gguf, '--scenario', 'random:100/20']).config!, runDir: '/tmp/r' } as SessionConfig;
  return engineStageContext({ config, host, deps: {} } as unknown as ExpandContext);
}

describe.skipIf(LLAMA_SKIP !== undefined)(`llama.cpp offload on a GPU host${skipNote(LLAMA_SKIP)}`, () => {
  it('one GPU: all layers with -fit off, -fit off alone; no split', () => {
    const gguf = testGguf();
    const out = llamaStageCandidates('offload', variant(gguf, { ctxSize: CTX }), stageCtx(gguf, gpuHost(1, 81559)));
    expect(out.skipped).toBeUndefined();
    expect(out.candidates.map((c) => c.change)).toEqual(['ngl=all (fit off)', 'fit off']);
    expect(out.candidates[0]!.knobs).toEqual({ gpuLayers: 'all', fit: false });
  });

  it('several GPUs: split none and row, -ts even and lighter on the main GPU, each spelled as llama-server takes it', () => {
    const gguf = testGguf();
    const out = llamaStageCandidates('offload', variant(gguf, { ctxSize: CTX }), stageCtx(gguf, gpuHost(2, 81559)));
    expect(out.candidates.map((c) => c.change)).toEqual([
      'ngl=all (fit off)',
      'fit off',
      'split=none',
      'split=row',
      'ts=1,1 (even)',
      'ts=2,3 (main GPU lighter)',
    ]);
    const argv = (k: Variant['knobs']) =>
      llamacppArgv(variant(gguf, k), { host: '127.0.0.1', port: 1, runDir: '/tmp/r', runtime: { kind: 'native' } });
    expect(argv({ splitMode: 'row' })).toEqual(expect.arrayContaining(['-sm', 'row']));
    expect(argv({ tensorSplit: '2,3' })).toEqual(expect.arrayContaining(['-ts', '2,3']));
    expect(argv({ gpuLayers: 'all', fit: false })).toEqual(expect.arrayContaining(['-ngl', 'all', '-fit', 'off']));
    // A winner already split row is offered layer back, and -ts stays off a one-GPU winner.
    const row = llamaStageCandidates('offload', variant(gguf, { ctxSize: CTX, splitMode: 'none' }), stageCtx(gguf, gpuHost(2, 81559)));
    expect(row.candidates.map((c) => c.change)).toEqual(['ngl=all (fit off)', 'fit off', 'split=layer', 'split=row']);
  });

  it('counts the GPU memory of a pinned variant: weights and KV per layer, split across GPUs; prunes what one GPU cannot hold', () => {
    const gguf = testGguf();
    const f = ggufFacts(gguf)!;
    const kv = kvBytesPerToken(f) * CTX;
    const need = f.weightBytes + kv;
    const v = variant(gguf, { ctxSize: CTX, gpuLayers: 'all', fit: false });
    const one = gpuNeed(v, f, gpuHost(1, 1), CTX);
    expect(one.perGpu).toHaveLength(1);
    expect(one.perGpu[0]).toBeCloseTo(need, 0);
    // Layer split halves it on two GPUs; row split keeps the KV cache on GPU 0.
    const two = gpuNeed(v, f, gpuHost(2, 1), CTX).perGpu;
    expect(two[0]).toBeCloseTo(need / 2, 0);
    const row = gpuNeed(variant(gguf, { ...v.knobs, splitMode: 'row' }), f, gpuHost(2, 1), CTX).perGpu;
    expect(row[0]).toBeCloseTo(f.weightBytes / 2 + kv, 0);
    expect(row[1]).toBeCloseTo(f.weightBytes / 2, 0);

    const tooSmall = gpuHost(1, Math.floor(need / MiB) - 1);
    const pruned = llamacppPreflight(v, tooSmall).failure;
    expect(pruned).toMatchObject({
      kind: 'oom',
      reason: expect.stringMatching(/^5 of 5 layers on the GPU need .* GiB on one NVIDIA H100/),
    });
    expect(llamacppPreflight(v, gpuHost(1, Math.ceil(need / MiB) + 1)).failure).toBeUndefined();
    // Two such GPUs hold it with a layer split, not with -sm none.
    expect(llamacppPreflight(v, gpuHost(2, Math.floor(need / MiB) - 1)).failure).toBeUndefined();
    expect(
      llamacppPreflight(variant(gguf, { ...v.knobs, splitMode: 'none' }), gpuHost(2, Math.floor(need / MiB) - 1)).failure,
    ).toBeDefined();
    // -fit on (the default): llama-server fits what it can, nothing is pruned.
    expect(llamacppPreflight(variant(gguf, { ctxSize: CTX }), tooSmall).failure).toBeUndefined();
  });

  it('offers as many layers as fit when the whole model does not', () => {
    const gguf = testGguf();
    const f = ggufFacts(gguf)!;
    const perLayer = f.weightBytes / (f.layers + 1) + (kvBytesPerToken(f) * CTX) / f.layers;
    const host = gpuHost(1, (perLayer * 3.5) / MiB);
    expect(layersThatFit(f, host, CTX)).toBe(3);
    const out = llamaStageCandidates('offload', variant(gguf, { ctxSize: CTX }), stageCtx(gguf, host));
    expect(out.candidates.map((c) => c.change)).toContain('ngl=3 (fit off)');
    expect(out.notes.join(' ')).toMatch(/^3 of 5 layers fit the GPUs at 4096 tokens/);
    // Its own count passes the memory check; all layers pinned does not.
    expect(llamacppPreflight(variant(gguf, { ctxSize: CTX, gpuLayers: '3', fit: false }), host).failure).toBeUndefined();
    expect(llamacppPreflight(variant(gguf, { ctxSize: CTX, gpuLayers: 'all', fit: false }), host).failure).toBeDefined();
  });

  it('a planned 2-GPU host: the offload stage in the plan, its pinned variants checked against the GPUs', () => {
    const gguf = testGguf();
    const config = {
      ...parseAutoArgs(['--model', gguf, '--scenario', 'random:100/20', '--stages', 'engine,offload']).config!,
      runDir: '/tmp/r',
    };
    const host = {
      simulated: false,
      gpus: [0, 1].map((index) => ({ index, uuid: `GPU-${index}`, name: 'NVIDIA H100 80GB HBM3', memTotalMiB: 81559 })),
      cpu: { threads: 16, memAvailMiB: 1e5 },
    };
    const plan = buildPlan(config as SessionConfig, planHost(host), realPlanDeps(config as SessionConfig, host, '/tmp/r'));
    const offload = plan.stages.find((s) => s.name === 'offload')!;
    expect(offload.skipped).toBeUndefined();
    expect(offload.variants.map((v) => v.change)).toEqual(expect.arrayContaining(['split=row', 'ts=1,1 (even)']));
    for (const v of offload.variants) expect(v.status, v.reason?.reason).toBe('planned');
  });
});
