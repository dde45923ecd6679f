// `export --format k8s` for a profile whose server spans nodes: a LeaderWorkerSet (the
// kubernetes-sigs/lws API, leaderworkerset.x-k8s.io/v1) instead of a Deployment, one pod per
// node. The ranks come from the engine's own multi-node launch (src/host/slurm/engine-ranks.ts),
// with LWS's injected variables for Slurm's: the node rank is $(LWS_WORKER_INDEX), the head's
// address $(LWS_LEADER_ADDRESS) (as in kubernetes-sigs/lws docs/examples/sglang/lws.yaml:
// `--dist-init-addr $(LWS_LEADER_ADDRESS):20000 --nnodes $(LWS_GROUP_SIZE) --node-rank
// $(LWS_WORKER_INDEX)`). Kubernetes expands $(VAR) in args itself, so no shell is involved.
import { getAdapter } from '../../engines/index.js';
import { engineRanks } from '../../engines/ranks.js';
import { HEAD_ADDR_VAR, type Word } from '../../host/slurm/index.js';
import { gpusHeld } from '../../model/layout.js';
import { k8sGpuResource } from '../../host/device-env.js';
import type { Profile } from '../schema/profile.js';

/** Slurm's per-task variables as LWS names them. */
const LWS_VARS: Record<string, string> = { SLURM_NODEID: 'LWS_WORKER_INDEX', [HEAD_ADDR_VAR]: 'LWS_LEADER_ADDRESS' };
const DIST_PORT = 20000;

/** Nodes the profile's server spans (host.nodes, written by `--runtime slurm`); 1 otherwise. */
export function profileNodes(p: Profile): number {
  return p.host.nodes && p.host.nodes > 1 ? p.host.nodes : 1;
}

function k8sWords(words: readonly Word[]): string[] {
  return words.map((w) => {
    if (typeof w === 'string') return w;
    const name = LWS_VARS[w.env];
    if (!name) throw new Error(`k8s export: no LeaderWorkerSet variable for ${w.env}`);
    return `${w.prefix ?? ''}$(${name})${w.suffix ?? ''}`;
  });
}

type Pod = { metadata: { labels: Record<string, string> }; spec: { containers: Record<string, unknown>[]; volumes: unknown[] } };

/**
 * The LeaderWorkerSet for `pod` (the Deployment's pod template, whose container runs `argv`), or
 * a one-line error for engines whose multi-node start needs more than argv (vLLM's per-node DP
 * start rank, TRT-LLM's MPI launcher).
 */
export function leaderWorkerSet(p: Profile, name: string, pod: Pod, argv: string[]): Record<string, unknown> {
  const nodes = profileNodes(p);
  if (!getAdapter(p.engine.name).leaderWorkerSet) {
    throw new Error(
      `k8s export: a ${nodes}-node ${p.engine.name} profile has no LeaderWorkerSet form here (its ranks need a shell or MPI); use --format slurm`,
    );
  }
  const k = p.variant.knobs;
  const gpusPerNode = Math.ceil(gpusHeld(p.engine.name, k) / nodes);
  const { ranks } = engineRanks(p.engine.name, argv, k, { nodes, gpusPerNode, distPort: DIST_PORT });
  const cmd = k8sWords(ranks.head);
  const [leader] = pod.spec.containers as [Record<string, unknown>];
  const gpus = String(gpusPerNode);
  const gpuKey = k8sGpuResource(p.host.vendor);
  const resources = { limits: { [gpuKey]: gpus }, requests: { [gpuKey]: gpus } };
  const leaderC = { ...leader, command: [cmd[0]!], args: cmd.slice(1), resources };
  // Workers serve no HTTP: no ports, no probes.
  const { ports: _p, startupProbe: _s, readinessProbe: _r, ...workerBase } = leaderC as Record<string, unknown>;
  return {
    apiVersion: 'leaderworkerset.x-k8s.io/v1',
    kind: 'LeaderWorkerSet',
    metadata: { name, labels: pod.metadata.labels },
    spec: {
      replicas: 1,
      leaderWorkerTemplate: {
        size: nodes,
        restartPolicy: 'RecreateGroupOnPodRestart',
        leaderTemplate: { metadata: { labels: { ...pod.metadata.labels, role: 'leader' } }, spec: { ...pod.spec, containers: [leaderC] } },
        workerTemplate: {
          metadata: { labels: { ...pod.metadata.labels, role: 'worker' } },
          spec: { ...pod.spec, containers: [workerBase] },
        },
      },
    },
  };
}

/** The Service selector of the leader pod (LWS labels every pod with its set's name). */
export function leaderSelector(name: string): Record<string, string> {
  return { 'leaderworkerset.sigs.k8s.io/name': name, role: 'leader' };
}
