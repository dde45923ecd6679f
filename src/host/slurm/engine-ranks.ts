// Each engine's own multi-node launch, as per-rank commands for the batch script. Pure: the
// single-node argv an adapter built goes in, the commands each node runs come out.
//
// SGLang (0.5.x): one launcher per node with `--nnodes N --node-rank R --dist-init-addr HEAD:PORT`
//   and the total --tp over all nodes. Source: docs.sglang.io references/multi_node_deployment/
//   multi_node.md ("Run 405B (fp16) on Two Nodes", and its SLURM example with
//   `--ntasks-per-node=1  # Ensure 1 task per node`).
// vLLM 0.11: servelab launches its native multi-node data-parallel mode, not a Ray cluster. From
//   docs/serving/data_parallel_deployment.md: "Running a single data parallel deployment across
//   multiple nodes requires a different `vllm serve` to be run on each node, specifying which DP
//   ranks should run on that node", node 0 with `--data-parallel-size-local 2
//   --data-parallel-address 10.99.48.128 --data-parallel-rpc-port 13345`, node 1 with
//   `--headless ... --data-parallel-start-rank 2`. (Read on vLLM main 01e4fce; the v0.12.0 page
//   has the same commands and v0.9.1's examples/online_serving/multi_instance_data_parallel.py
//   already uses --headless/--data-parallel-address/--data-parallel-rpc-port, so 0.11 has them.)
//   One model replica spread over nodes (TP or PP across nodes) needs Ray in 0.11:
//   vllm/config/parallel.py "Ray is required for multi-node inference" - not launched here.
// TensorRT-LLM (1.x): every rank under srun runs `trtllm-llmapi-launch trtllm-serve ...`, as many
//   MPI ranks as the world size. Source: examples/llm-api/llm_mgmn_trtllm_serve.sh ("the number of
//   MPI processes should be the same as the model world size"; `srun ... --mpi=pmix`).
import { UserError } from '../../core/errors.js';
import type { Knobs } from '../../core/variant.js';
import { HEAD_ADDR_VAR, type RankCommands, type Word } from './script.js';
import { BIND_ALL } from '../../core/dial.js';

export interface NodeLayout {
  nodes: number;
  gpusPerNode: number;
  /** Port on the head for the engine's rendezvous (SGLang dist-init, vLLM DP RPC). */
  distPort: number;
  /** Address the head's HTTP server binds; default 0.0.0.0 so the login node can reach it. */
  bindHost?: string;
}

export interface EngineRanks {
  ranks: RankCommands;
  tasksPerNode: number;
}

const headAddr = { env: HEAD_ADDR_VAR } as const;

/** argv without the named flags (and their values; `--flag=v` too). */
export function dropFlags(argv: readonly string[], flags: Record<string, boolean>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const name = a.includes('=') ? a.slice(0, a.indexOf('=')) : a;
    if (name in flags) {
      if (!a.includes('=') && flags[name]) i++;
      continue;
    }
    out.push(a);
  }
  return out;
}

/** Replace or add `--host` (TRT-LLM and vLLM and SGLang all spell it so). */
function withHost(argv: readonly string[], host: string): string[] {
  return [...dropFlags(argv, { '--host': true }), '--host', host];
}

export function sglangRanks(argv: readonly string[], l: NodeLayout): EngineRanks {
  const base = withHost(dropFlags(argv, { '--nnodes': true, '--node-rank': true, '--dist-init-addr': true }), l.bindHost ?? BIND_ALL);
  const head: Word[] = [
    ...base,
    '--nnodes',
    String(l.nodes),
    '--node-rank',
    { env: 'SLURM_NODEID' },
    '--dist-init-addr',
    { ...headAddr, suffix: `:${l.distPort}` },
  ];
  return { ranks: { head }, tasksPerNode: 1 };
}

export function vllmRanks(argv: readonly string[], k: Knobs, l: NodeLayout): EngineRanks {
  const dp = k.dp ?? 1;
  const perReplica = (k.tp ?? 1) * (k.pp ?? 1);
  if (perReplica > l.gpusPerNode) {
    throw new UserError(
      `vllm: one replica needs ${perReplica} GPUs but a node has ${l.gpusPerNode}; vLLM 0.11 spans a replica over nodes only through a Ray cluster ("Ray is required for multi-node inference"), which servelab does not launch: use tp x pp <= ${l.gpusPerNode}, or SGLang`,
    );
  }
  if (dp % l.nodes !== 0 || (dp / l.nodes) * perReplica > l.gpusPerNode) {
    throw new UserError(
      `vllm: --data-parallel-size ${dp} does not split into ${l.nodes} nodes of ${l.gpusPerNode} GPUs with tp x pp = ${perReplica}`,
    );
  }
  const local = String(dp / l.nodes);
  const base = withHost(
    dropFlags(argv, {
      '--headless': false,
      '--data-parallel-size-local': true,
      '--data-parallel-address': true,
      '--data-parallel-rpc-port': true,
      '--data-parallel-start-rank': true,
    }),
    l.bindHost ?? BIND_ALL,
  );
  const shared: Word[] = [
    '--data-parallel-size-local',
    local,
    '--data-parallel-address',
    headAddr,
    '--data-parallel-rpc-port',
    String(l.distPort),
  ];
  return {
    ranks: {
      head: [...base, ...shared],
      worker: [...base, '--headless', ...shared, '--data-parallel-start-rank', { env: 'SERVELAB_DP_START_RANK' }],
      setup: [`SERVELAB_DP_START_RANK=$((SLURM_NODEID * ${local}))`],
    },
    tasksPerNode: 1,
  };
}

export function trtllmRanks(argv: readonly string[], l: NodeLayout): EngineRanks {
  const base = withHost(argv, l.bindHost ?? BIND_ALL);
  return { ranks: { head: ['trtllm-llmapi-launch', ...base], srun: ['--mpi=pmix'] }, tasksPerNode: l.gpusPerNode };
}

/** What host needs of an engine to start it over nodes (its adapter, src/engines/kit/types.ts). */
export interface MultiNodeEngine {
  multiNodeRanks?(argv: readonly string[], k: Knobs, l: NodeLayout): EngineRanks;
  /** Why the engine runs on one node only, when it has no multi-node start. */
  oneNode?: string;
}

export function multiNodeRanks(engine: MultiNodeEngine, argv: readonly string[], k: Knobs, l: NodeLayout): EngineRanks {
  if (l.nodes < 1 || !Number.isInteger(l.nodes)) throw new UserError(`slurm: --nodes must be a positive integer, got ${l.nodes}`);
  // One node: the engine's ordinary launch (TRT-LLM's trtllm-serve spawns its own MPI workers).
  if (l.nodes === 1) return { ranks: { head: withHost(argv, l.bindHost ?? BIND_ALL) }, tasksPerNode: 1 };
  if (!engine.multiNodeRanks) throw new UserError(`slurm: ${engine.oneNode}; --nodes ${l.nodes} is not possible`);
  return engine.multiNodeRanks(argv, k, l);
}
