// The simulated host's prefix cache: requests known by their token blocks skip the prefill of
// blocks cached by earlier requests, idle blocks are evicted oldest (and tail) first when the KV
// budget needs them, each engine has its default and its off switch, a host-memory tier keeps
// evicted blocks at a copy cost, and DP replicas keep one cache each.
import { describe, expect, it } from 'vitest';
import type { EngineName, Knobs } from '../../../src/core/variant.js';
import { resolveServer, type ServerConfig } from '../../../src/model/estimate.js';
import { findGpu } from '../../../src/model/gpus.js';
import { getModel } from '../../../src/model/models.js';
import { BlockHasher } from '../../../src/sim/scheduler/block-hash.js';
import { PrefixCache } from '../../../src/sim/scheduler/prefix-cache.js';
import { Scheduler } from '../../../src/sim/scheduler/scheduler.js';
import type { SimRequest } from '../../../src/sim/scheduler/scheduler-types.js';
import { simulateWorkload } from '../../../src/sim/scheduler/virtual.js';

const h100 = findGpu('H100')!;
const model = getModel('Qwen/Qwen3-14B')!;

/** Block keys of `shared` tokens common to every request, then `own` tokens of request `i`. */
function blocks(i: number, shared: number, own: number): number[] {
  const h = new BlockHasher();
  for (let k = 0; k < shared; k++) h.push(k);
  for (let k = 0; k < own; k++) h.push(1e9 + i * 1e5 + k);
  return h.keys;
}

function server(engine: EngineName, knobs: Knobs = {}, kvTokens?: number): ServerConfig {
  const cfg = resolveServer(engine, h100, 1, model, knobs);
  return kvTokens ? { ...cfg, kvCapacityTokens: kvTokens } : cfg;
}

/** Run requests one after another (each to the end before the next arrives); returns each one's cached tokens and the prompt tokens computed. */
function oneByOne(cfg: ServerConfig, reqs: Omit<SimRequest, 'id' | 'arrival'>[]): { cached: number[]; computed: number; seconds: number } {
  const s = new Scheduler(cfg, 1);
  const cached: number[] = [];
  let seconds = 0;
  reqs.forEach((r, id) => {
    const req: SimRequest = { ...r, id, arrival: 0 };
    s.add(req);
    for (let step = s.plan(); step; step = s.plan()) {
      seconds += step.seconds;
      s.commit(step);
    }
    cached.push(req.cachedTokens ?? -1);
  });
  return { cached, computed: s.snapshot().promptTokens, seconds };
}

const req = (i: number, shared: number, own: number, out = 8) => ({
  promptLen: shared + own,
  maxTokens: out,
  outputTarget: out,
  blocks: blocks(i, shared, own + out),
});

describe('the prefix cache of the simulated host', () => {
  it('serves a shared prefix from cache: the second request computes only its own blocks and says how many it found', () => {
    const r = oneByOne(server('vllm'), [req(0, 1000, 100), req(1, 1000, 100)]);
    // Whole 16-token blocks of the 1000-token prefix: 62 blocks = 992 tokens.
    expect(r.cached).toEqual([0, 992]);
    expect(r.computed).toBe(1100 + (1100 - 992));
  });

  it('is on by default for vLLM, SGLang and TensorRT-LLM, and off with the knob', () => {
    for (const engine of ['vllm', 'sglang', 'trtllm'] as const) {
      expect(oneByOne(server(engine), [req(0, 512, 64), req(1, 512, 64)]).cached[1]).toBe(512);
      const off = oneByOne(server(engine, { prefixCaching: false }), [req(0, 512, 64), req(1, 512, 64)]);
      expect(off.cached[1]).toBe(0);
      expect(off.computed).toBe(2 * 576);
    }
  });

  it('is off for TensorRT-LLM under the FLASHINFER attention backend whatever the knob says (engine audit 4)', () => {
    const r = oneByOne(server('trtllm', { attentionBackend: 'flashinfer', prefixCaching: true }), [req(0, 512, 64), req(1, 512, 64)]);
    expect(r.cached[1]).toBe(0);
  });

  it('always computes the last prompt token: a repeated prompt hits all but its last block', () => {
    const same = { promptLen: 320, maxTokens: 4, outputTarget: 4, blocks: blocks(0, 320, 4) };
    expect(oneByOne(server('vllm'), [same, same]).cached).toEqual([0, 304]);
  });

  it("finds a conversation's earlier turn and its reply cached (generated blocks join the cache)", () => {
    // Turn 2 sends turn 1's 200-token prompt, its 100-token reply and 50 new tokens.
    const h1 = new BlockHasher();
    const h2 = new BlockHasher();
    for (let k = 0; k < 300; k++) {
      h1.push(k);
      h2.push(k);
    }
    for (let k = 0; k < 50; k++) h2.push(5000 + k);
    const turn1 = { promptLen: 200, maxTokens: 100, outputTarget: 100, blocks: h1.keys };
    const turn2 = { promptLen: 350, maxTokens: 10, outputTarget: 10, blocks: h2.keys };
    const r = oneByOne(server('vllm'), [turn1, turn2]);
    // The reply's last token has no KV yet: 299 tokens computed, 18 whole blocks.
    expect(r.cached[1]).toBe(288);
  });

  it('evicts the least recently used idle blocks when the KV budget needs them', () => {
    // 4096 tokens of KV: a 1600-token prompt from A, then B's, then C's; A is the oldest and goes first.
    const cfg = server('vllm', {}, 4096);
    const a = req(0, 1600, 0, 4);
    const b = { ...req(1, 0, 1600, 4), blocks: blocks(1, 0, 1604).map((k) => k + 7) };
    const c = { ...req(2, 0, 1600, 4), blocks: blocks(2, 0, 1604).map((k) => k + 11) };
    const r = oneByOne(cfg, [a, b, c, b, a]);
    expect(r.cached[3]).toBe(1584); // B is still cached after C
    expect(r.cached[4]).toBeLessThan(1584); // A's blocks were evicted for C
  });

  it('keeps evicted blocks in a host-memory tier and pays their copy back', () => {
    const cfg = server('vllm', { kvOffloadGiB: 8 }, 4096);
    const a = req(0, 1600, 0, 4);
    const b = { ...req(1, 0, 1600, 4), blocks: blocks(1, 0, 1604).map((k) => k + 7) };
    const c = { ...req(2, 0, 1600, 4), blocks: blocks(2, 0, 1604).map((k) => k + 11) };
    const withHost = oneByOne(cfg, [a, b, c, a]);
    expect(withHost.cached[3]).toBe(1584);
    const without = oneByOne(server('vllm', {}, 4096), [a, b, c, a]);
    expect(without.cached[3]).toBeLessThan(1584);
  });

  it('orders idle blocks tail first, so a released request loses its tail before its head', () => {
    const c = new PrefixCache(0);
    const keys = [1, 2, 3, 4];
    c.hold(keys, 0);
    for (const k of keys) c.add(k);
    expect(c.release(keys, 4)).toBe(4);
    c.evict(1);
    expect(c.match(keys, 4).blocks).toBe(3);
    c.evict(2);
    expect(c.match(keys, 4).blocks).toBe(1);
  });

  it('keeps one cache per DP replica: requests dealt round-robin compute a shared prefix once per replica', () => {
    const one = server('vllm');
    const two = resolveServer('vllm', h100, 2, model, { dp: 2 });
    const reqs = [0, 1, 2, 3].map((i) => req(i, 1024, 64));
    expect(oneByOne(one, reqs).cached).toEqual([0, 1024, 1024, 1024]);
    expect(oneByOne(two, reqs).cached).toEqual([0, 0, 1024, 1024]);
  });

  it('SGLang with --schedule-policy lpm admits the request with the longest cached prefix first', () => {
    const cfg = server('sglang', { schedulePolicy: 'lpm', maxRunningSeqs: 1 });
    const s = new Scheduler(cfg, 1);
    const warm: SimRequest = { ...req(0, 2048, 16), id: 0, arrival: 0 };
    s.add(warm);
    for (let st = s.plan(); st; st = s.plan()) s.commit(st);
    const cold: SimRequest = { ...req(1, 0, 2064), id: 1, arrival: 0, blocks: blocks(1, 0, 2072).map((k) => k + 3) };
    const hot: SimRequest = { ...req(2, 2048, 16), id: 2, arrival: 0 };
    s.add(cold);
    s.add(hot);
    const first = s.plan()!;
    expect(first.work[0]!.seq.req.id).toBe(2);
    expect(hot.cachedTokens).toBe(2048);
  });

  it('cuts TTFT and raises throughput on the virtual clock when a long prefix is shared, and changes nothing without blocks', () => {
    const base = { engine: 'vllm' as const, gpu: 'H100', gpus: 1, model: 'Qwen/Qwen3-14B', seed: 1, maxConcurrency: 16 };
    const shared = Array.from({ length: 200 }, (_, i) => ({ promptLen: 4100, outputLen: 64, blocks: blocks(i, 4000, 164) }));
    const on = simulateWorkload({ ...base, knobs: {}, requests: shared }).metrics!;
    const off = simulateWorkload({ ...base, knobs: { prefixCaching: false }, requests: shared }).metrics!;
    expect(on.mean_ttft_ms).toBeLessThan(off.mean_ttft_ms / 2);
    expect(on.total_token_throughput).toBeGreaterThan(off.total_token_throughput * 1.5);
    const plain = shared.map(({ promptLen, outputLen }) => ({ promptLen, outputLen }));
    const a = simulateWorkload({ ...base, knobs: {}, requests: plain }).metrics!;
    const b = simulateWorkload({ ...base, knobs: { prefixCaching: false }, requests: plain }).metrics!;
    expect(a.total_token_throughput).toBe(b.total_token_throughput);
  });
});

describe('predictions for a workload with reuse', () => {
  it('report the share of prompt tokens the cache served, near the possible reuse when the cache holds everything', async () => {
    const { predict } = await import('../../../src/sim/predict/predict.js');
    const { scenarioRequests } = await import('../../../src/sim/predict/workload.js');
    const { workloadReuse } = await import('../../../src/core/workload-reuse.js');
    const s = {
      name: 'p',
      label: 'p',
      dataset: 'random' as const,
      inputLen: 256,
      outputLen: 32,
      prefixLen: 2048,
      numPrompts: 100,
      seed: 1,
      maxConcurrency: 8,
    };
    const p = predict({
      engine: 'vllm',
      model: 'Qwen/Qwen3-14B',
      gpu: 'H100',
      gpus: 1,
      knobs: {},
      requests: scenarioRequests(s, 1),
      maxConcurrency: 8,
      seed: 1,
    });
    const possible = workloadReuse(s).share;
    // Requests admitted before the first one's prefill is done cannot hit: a few points under.
    expect(p.prefix_cache_hit_rate!).toBeGreaterThan(possible - 0.1);
    expect(p.prefix_cache_hit_rate!).toBeLessThanOrEqual(possible);
    const plain = predict({
      engine: 'vllm',
      model: 'Qwen/Qwen3-14B',
      gpu: 'H100',
      gpus: 1,
      knobs: {},
      requests: scenarioRequests({ ...s, prefixLen: 0 }, 1),
      seed: 1,
    });
    expect(plain.prefix_cache_hit_rate).toBeUndefined();
  });
});
