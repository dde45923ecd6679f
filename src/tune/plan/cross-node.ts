// Parallelism across the nodes of a cluster (`--runtime slurm`, or `--sim --nodes N`): a stage of its
// own, apart from the single-host parallelism candidates. Inside a node GPUs talk
// over NVLink, between nodes over a 400 Gb/s NIC per GPU (src/model/interconnect.ts), so a TP
// group wider than a node pays for every all-reduce; the alternatives keep TP inside a node and
// cross nodes with pipeline stages (one hand-off per step), optionally with EP inside each stage,
// or run one replica per node (data parallel).
import type { Knobs } from '../../core/variant.js';
import { getAdapter } from '../../engines/index.js';
import type { ModelInfo } from '../../model/models.js';
import type { ExpandContext } from './types.js';
import type { Candidate } from '../../engines/kit/plan-types.js';
import { engineStageTp } from './tp.js';
import type { PlanHost } from '../../engines/kit/plan-types.js';

/** Nodes of the cluster the planner sees (1 on one host). */
export function clusterNodes(host: PlanHost): number {
  return host.gpusPerNode && host.gpusPerNode < host.gpuCount ? Math.round(host.gpuCount / host.gpusPerNode) : 1;
}

/**
 * The engine stage's TP on a cluster: one node's worth when the checkpoint fits a node (no
 * collective crosses the network), else the largest over all GPUs (the engine's multi-node start).
 */
export function clusterEngineTp(ctx: Pick<ExpandContext, 'host' | 'deps' | 'config'>, checkpoint: string): number {
  const { host, deps } = ctx;
  const model = deps.model(checkpoint);
  const all = engineStageTp(model, host.gpuCount);
  if (clusterNodes(host) === 1) return all;
  const node = engineStageTp(model, host.gpusPerNode!);
  const probe = deps.fits({
    id: 'probe',
    engine: ctx.config.engines[0] ?? 'sglang',
    model: checkpoint,
    knobs: { tp: node > 1 ? node : undefined },
  });
  return probe === false ? all : node;
}

/** Cross-node candidates for the carried winner; none on one host. */
export function crossNodeCandidates(
  k: Knobs,
  engine: string,
  host: PlanHost,
  info: ModelInfo | undefined,
): { candidates: Candidate[]; notes: string[] } {
  const nodes = clusterNodes(host);
  if (nodes === 1) return { candidates: [], notes: [] };
  const per = host.gpusPerNode!;
  const tp = k.tp ?? 1;
  const c: Candidate[] = [];
  const notes: string[] = [];
  const reset: Knobs = { dp: undefined, dpAttention: undefined, ep: undefined };
  if (tp > per) {
    const cannot = getAdapter(engine).noReplicaOverNodes;
    if (cannot) {
      notes.push(cannot);
    } else {
      c.push({
        knobs: { ...reset, tp: per, pp: tp / per },
        change: `tp${per} x pp${tp / per} (TP in a node, PP across nodes)`,
        needs: ['pp'],
      });
      if (info?.moe)
        c.push({
          knobs: { ...reset, tp: per, pp: tp / per, ep: per },
          change: `tp${per}+ep${per} x pp${tp / per} (EP in a node, PP across nodes)`,
          needs: ['pp', 'ep'],
        });
    }
  } else if (getAdapter(engine).dataParallelOverNodes && tp * nodes <= host.gpuCount && !k.dp) {
    // vLLM's native multi-node data parallel (docs/serving/data_parallel_deployment.md); SGLang
    // 0.5 serves replicas on several nodes through its router, not one multi-node launch.
    c.push({ knobs: { ...reset, dp: nodes }, change: `tp${tp} x dp${nodes} (a replica per node)`, needs: ['dp'] });
  }
  return { candidates: c, notes };
}
