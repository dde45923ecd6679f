// The cluster as a plan: the runtime flags, the inter-node link in the step time, cross-node
// parallelism as stage candidates, nodes per variant, and the LeaderWorkerSet export. Pure: no
// Slurm needed.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { exportK8s } from '../../../src/profiles/export/k8s.js';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { simulateWorkload } from '../../../src/sim/scheduler/virtual.js';
import { parseAutoArgs } from '../../../src/cli/auto-args.js';
import { clusterNodes, crossNodeCandidates } from '../../../src/tune/plan/cross-node.js';
import { variantNodes } from '../../../src/tune/run/slurm/start.js';
import { INTER_NODE, groupLink } from '../../../src/model/interconnect.js';
import { findGpu } from '../../../src/model/gpus.js';
import { getModel } from '../../../src/model/models.js';

const R1 = 'deepseek-ai/DeepSeek-R1-0528';

describe('--runtime slurm flags', () => {
  it('reads partition, account, time, repeated --slurm-arg and a simulated cluster of --nodes x --gpus', () => {
    const { config } = parseAutoArgs([
      '--model',
      R1,
      '--sim',
      '--gpus',
      '8',
      '--nodes',
      '2',
      '--runtime',
      'slurm',
      '--partition',
      'gpu',
      '--account',
      'proj',
      '--time',
      '1:00:00',
      '--slurm-arg=--qos=high',
      '--slurm-arg=--constraint=ib',
    ]);
    expect(config!.runtime).toEqual({
      kind: 'slurm',
      partition: 'gpu',
      account: 'proj',
      time: '1:00:00',
      extra: ['--qos=high', '--constraint=ib'],
      nodes: 2,
    });
    expect(config!.sim).toMatchObject({ gpus: 16, nodes: 2 });
    // The head is reached from the login node: it listens on every interface unless --host says otherwise.
    expect(config!.bindHost).toBe('0.0.0.0');
  });

  it('refuses Slurm options without --runtime slurm, and --nodes on one host', () => {
    expect(() => parseAutoArgs(['--model', R1, '--partition', 'gpu'])).toThrow('--partition is a Slurm option; add --runtime slurm');
    expect(() => parseAutoArgs(['--model', R1, '--sim', '--nodes', '2'])).toThrow(/--nodes needs --runtime slurm/);
    expect(() => parseAutoArgs(['--model', R1, '--runtime', 'pbs'])).toThrow("--runtime must be native, docker or slurm, got 'pbs'");
  });
});

describe('inter-node link (src/model/interconnect.ts)', () => {
  const h100 = findGpu('H100')!;
  it('charges 400 Gb/s per GPU when a group crosses a node, NVLink inside one', () => {
    expect(groupLink({ gpu: h100, gpusPerNode: 8 }, 8, 10e-6)).toEqual({ bps: h100.interconnectBps, latencyS: 10e-6 });
    expect(groupLink({ gpu: h100, gpusPerNode: 8 }, 16, 10e-6)).toEqual({ bps: INTER_NODE.bps, latencyS: INTER_NODE.allReduceLatencyS });
    expect(groupLink({ gpu: h100 }, 16, 10e-6).bps).toBe(h100.interconnectBps);
  });

  it('makes TP 16 over two nodes slower than on one 16-GPU NVLink domain, and TP 8 x PP 2 faster than TP 16 over nodes', () => {
    const reqs = Array.from({ length: 64 }, () => ({ promptLen: 1000, outputLen: 100 }));
    const run = (knobs: object, gpusPerNode?: number) =>
      simulateWorkload({
        engine: 'sglang',
        gpu: 'H100',
        gpus: 16,
        model: R1,
        knobs,
        requests: reqs,
        seed: 0,
        ...(gpusPerNode ? { gpusPerNode } : {}),
      }).metrics!.total_token_throughput;
    const oneDomain = run({ tp: 16 });
    const twoNodes = run({ tp: 16 }, 8);
    expect(twoNodes).toBeLessThan(oneDomain * 0.9);
    expect(run({ tp: 8, pp: 2 }, 8)).toBeGreaterThan(twoNodes);
  });
});

describe('cross-node parallelism candidates', () => {
  const host = { gpuName: 'H100', gpuCount: 16, gpuMemMiB: 81559, gpusPerNode: 8, simulated: true };
  const moe = getModel(R1);
  it('offers TP inside a node x PP (and EP) across nodes when the winner spans nodes', () => {
    expect(clusterNodes(host)).toBe(2);
    const { candidates } = crossNodeCandidates({ tp: 16 }, 'sglang', host, moe);
    expect(candidates.map((c) => [c.change, c.knobs.tp, c.knobs.pp, c.knobs.ep])).toEqual([
      ['tp8 x pp2 (TP in a node, PP across nodes)', 8, 2, undefined],
      ['tp8+ep8 x pp2 (EP in a node, PP across nodes)', 8, 2, 8],
    ]);
  });

  it('says why vLLM gets no pipeline across nodes, and offers it a replica per node instead', () => {
    expect(crossNodeCandidates({ tp: 16 }, 'vllm', host, moe)).toMatchObject({
      candidates: [],
      notes: [expect.stringMatching(/only through Ray/)],
    });
    expect(crossNodeCandidates({ tp: 8 }, 'vllm', host, moe).candidates.map((c) => c.knobs)).toEqual([
      { dp: 2, dpAttention: undefined, ep: undefined },
    ]);
    expect(crossNodeCandidates({ tp: 16 }, 'sglang', { ...host, gpusPerNode: undefined }, moe).candidates).toEqual([]);
  });

  it("sizes each variant's job: nodes from tp x pp x dp over GPUs per node", () => {
    const v = (knobs: object) => ({ id: 'x', engine: 'sglang' as const, model: R1, knobs });
    expect(variantNodes(v({ tp: 16 }), 8)).toEqual({ nodes: 2, gpusPerNode: 8 });
    expect(variantNodes(v({ tp: 8, pp: 2 }), 8)).toEqual({ nodes: 2, gpusPerNode: 8 });
    expect(variantNodes(v({ tp: 4 }), 8)).toEqual({ nodes: 1, gpusPerNode: 4 });
    expect(variantNodes(v({ tp: 16, dp: 16, dpAttention: true }), 8)).toEqual({ nodes: 2, gpusPerNode: 8 });
  });
});

describe('export --format k8s of a multi-node profile', () => {
  const shipped = loadProfile(fileURLToPath(new URL('../../../profiles/DeepSeek-R1-0528-H200x8.json', import.meta.url)));
  const two = {
    ...shipped,
    host: { ...shipped.host, gpuCount: 16, nodes: 2 },
    variant: { ...shipped.variant, knobs: { ...shipped.variant.knobs, tp: 16 } },
    engineArgv: shipped.engineArgv.map((a) => (a === '8' ? '16' : a)),
  };

  it('is a LeaderWorkerSet of 2 pods x 8 GPUs with the SGLang ranks from LWS variables, the Service on the leader', () => {
    const docs = parseAllDocuments(exportK8s(two, 'r1.json')).map((d) => d.toJS() as any);
    const lws = docs.find((d) => d.kind === 'LeaderWorkerSet');
    expect(docs.map((d) => d.kind)).not.toContain('Deployment');
    expect(lws.spec.leaderWorkerTemplate.size).toBe(2);
    const leader = lws.spec.leaderWorkerTemplate.leaderTemplate.spec.containers[0];
    const worker = lws.spec.leaderWorkerTemplate.workerTemplate.spec.containers[0];
    expect(leader.args.join(' ')).toContain('--nnodes 2 --node-rank $(LWS_WORKER_INDEX) --dist-init-addr $(LWS_LEADER_ADDRESS):20000');
    expect(worker.args).toEqual(leader.args);
    expect(leader.resources.limits['nvidia.com/gpu']).toBe('8');
    expect(worker.readinessProbe).toBeUndefined();
    expect(docs.find((d) => d.kind === 'Service').spec.selector).toEqual({
      'leaderworkerset.sigs.k8s.io/name': lws.metadata.name,
      role: 'leader',
    });
  });

  it('keeps a one-node profile a Deployment, and refuses a multi-node vLLM profile in one line', () => {
    expect(parseAllDocuments(exportK8s(shipped, 'r1.json')).map((d) => (d.toJS() as any).kind)).toContain('Deployment');
    expect(() => exportK8s({ ...two, engine: { ...two.engine, name: 'vllm' } }, 'r1.json')).toThrow(
      /no LeaderWorkerSet form here .* use --format slurm/,
    );
  });
});
