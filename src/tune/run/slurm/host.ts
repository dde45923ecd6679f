// `--runtime slurm`: the host the planner sees is the cluster. Slurm's own report (sinfo: nodes,
// GPUs per node from gres, GPU type, partitions) gives the largest allocation one job may get;
// the session is checked against it before anything is submitted (preflight), and on a real
// cluster the planner sees nodes x GPUs per node of the gres type.
import { isGpuEngine } from '../../../core/variant.js';
import { UserError } from '../../../core/errors.js';
import { cpuInfo } from '../../../host/cpu.js';
import { simulatedHost, type HostInfo } from '../../../host/gpus.js';
import {
  allocationShortfall,
  assertSlurmClients,
  discoverCluster,
  largestAllocation,
  largestCpuAllocation,
  SlurmCommandError,
  type CpuAllocation,
  type SlurmCluster,
} from '../../../host/slurm/index.js';
import { findGpu } from '../../../model/gpus.js';
import type { SessionConfig, SlurmRuntimeConfig } from '../../config/config.js';
import { SLURM_CLI } from './start.js';

/** sinfo's report; Slurm's own refusal (no slurm.conf, slurmctld down) is bad input, one line, not a crash. */
async function describeCluster(): Promise<SlurmCluster> {
  try {
    return await discoverCluster(SLURM_CLI);
  } catch (e) {
    if (!(e instanceof SlurmCommandError)) throw e;
    throw new UserError(
      `--runtime slurm: Slurm cannot describe the cluster (${e.message}): run servelab on a login node of a working Slurm cluster, or drop --runtime slurm`,
    );
  }
}

/**
 * The cluster as a host. Fills in `runtime.gpusPerNode` (and `runtime.nodes` when not given) from
 * what Slurm reported, so the runner and a resumed run size jobs the same way.
 */
export async function resolveSlurmHost(config: SessionConfig): Promise<HostInfo> {
  const runtime = config.runtime as SlurmRuntimeConfig;
  assertSlurmClients();
  const cluster = await describeCluster();
  const alloc = largestAllocation(cluster, runtime.partition);
  const sim = config.sim;
  if (sim) {
    const nodes = sim.nodes ?? 1;
    const short = allocationShortfall(alloc, nodes, sim.gpus / nodes, runtime.partition);
    if (short) throw new UserError(`${short} (the simulated cluster is ${nodes} x ${sim.gpus / nodes} ${sim.gpu})`);
    runtime.gpusPerNode = sim.gpus / nodes;
    runtime.nodes ??= nodes;
    return {
      ...simulatedHost(
        sim.gpu,
        sim.gpus,
        `simulated ${nodes} node(s) x ${sim.gpus / nodes} ${sim.gpu}, jobs on Slurm partition ${alloc!.partition}`,
      ),
      gpusPerNode: sim.gpus / nodes,
    };
  }
  // A partition without GPUs is a CPU cluster for llama.cpp; for the GPU engines it is the shortfall below.
  if (!alloc && !config.engines.some(isGpuEngine)) {
    const cpu = largestCpuAllocation(cluster, runtime.partition);
    if (cpu) return cpuClusterHost(cpu, runtime);
  }
  const short = allocationShortfall(alloc, runtime.nodes ?? 1, 1, runtime.partition);
  if (short) throw new UserError(short);
  const nodes = Math.min(runtime.nodes ?? alloc!.nodes, alloc!.nodes);
  const spec = alloc!.gpuType ? findGpu(alloc!.gpuType) : undefined;
  if (!spec) {
    throw new UserError(
      `slurm: partition ${alloc!.partition} names no known GPU type in its gres (${alloc!.gpuType ?? 'untyped gpu'}); servelab needs it for the plan: ask for a typed gres with --slurm-arg, or tune on a node directly`,
    );
  }
  runtime.gpusPerNode = alloc!.gpusPerNode;
  runtime.nodes = nodes;
  const host = simulatedHost(
    spec.name,
    Math.min(64, nodes * alloc!.gpusPerNode),
    `Slurm partition ${alloc!.partition}: ${nodes} node(s) x ${alloc!.gpusPerNode} ${spec.name}`,
  );
  // Real GPUs, only not on this login node: the catalog's figures stand in for nvidia-smi's.
  return { ...host, simulated: false, gpusPerNode: alloc!.gpusPerNode };
}

/**
 * A CPU-only partition as the host: no GPU, and one node's CPUs and memory as sinfo reports them
 * (what one llama-server job can use). Slurm reports memory 1 MB when slurm.conf sets no
 * RealMemory; then this login node's available memory stands in, and the note says so.
 */
function cpuClusterHost(a: CpuAllocation, runtime: SlurmRuntimeConfig): HostInfo {
  runtime.gpusPerNode = 0;
  runtime.nodes = Math.min(runtime.nodes ?? a.nodes, a.nodes);
  const known = a.memoryMbPerNode > 1;
  const memMiB = known ? a.memoryMbPerNode : cpuInfo().memAvailMiB;
  const mem = known ? `${memMiB} MB memory` : "memory not configured (RealMemory), this node's available memory assumed";
  return {
    simulated: false,
    gpus: [],
    note: `Slurm partition ${a.partition}: ${a.nodes} node(s) x ${a.cpusPerNode} CPUs, ${mem}, no GPU: llama.cpp runs on the CPU`,
    cpu: { threads: a.cpusPerNode, memAvailMiB: memMiB, memTotalMiB: memMiB },
  };
}
