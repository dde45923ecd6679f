// The cluster as servelab's host: nodes, GPUs per node (gres), GPU type when the gres names one,
// partitions, and the largest allocation a job may get (for preflight). Read with
// `sinfo -h -N -o '%N|%P|%G|%c|%m|%T'` (one line per node and partition) and
// `sinfo -h -o '%P|%s|%l|%a'` (per partition: max nodes per job, time limit, availability).
import { runSlurm, type SlurmCli } from './cli.js';

export interface SlurmNode {
  name: string;
  partitions: string[];
  gpus: number;
  /** The gres type ("h100" in gpu:h100:8), when the site names one. */
  gpuType?: string;
  cpus: number;
  memoryMb: number;
  /** sinfo's state: idle, mixed, allocated, drained, down, ... (a trailing * means not responding). */
  state: string;
}

export interface SlurmPartition {
  name: string;
  isDefault: boolean;
  /** sinfo's availability: up, down, drain, inact. */
  available: string;
  nodes: string[];
  /** Max nodes per job, or undefined for UNLIMITED. */
  maxNodesPerJob?: number;
  timeLimit: string;
}

export interface SlurmCluster {
  nodes: SlurmNode[];
  partitions: SlurmPartition[];
}

/** GPUs and type in a gres string: "gpu:h100:8(S:0-1),nic:2" -> {8, 'h100'}; several gpu entries add up. */
export function parseGres(gres: string): { gpus: number; gpuType?: string } {
  let gpus = 0;
  let gpuType: string | undefined;
  for (const entry of gres.split(/,(?![^(]*\))/)) {
    const parts = entry.replace(/\(.*\)$/, '').split(':');
    if (parts[0] !== 'gpu') continue;
    const count = Number(parts[parts.length - 1]);
    if (!Number.isFinite(count)) continue;
    gpus += count;
    if (parts.length === 3) gpuType ??= parts[1];
  }
  return gpuType ? { gpus, gpuType } : { gpus };
}

/** Nodes that can take a job now or once others finish (not down, drained or failing). */
const USABLE = /^(idle|mixed|allocated|alloc|mix|completing|planned|reserved)\b/;

export function isUsable(node: SlurmNode): boolean {
  return USABLE.test(node.state.replace(/[*~#!%$@^-]+$/, ''));
}

export function parseSinfoNodes(text: string): SlurmNode[] {
  const byName = new Map<string, SlurmNode>();
  for (const line of text.split('\n')) {
    const f = line.trim().split('|');
    if (f.length < 6) continue;
    const [name, partition, gres, cpus, mem, state] = f as [string, string, string, string, string, string];
    const part = partition.replace(/\*$/, '');
    const known = byName.get(name);
    if (known) {
      if (!known.partitions.includes(part)) known.partitions.push(part);
      continue;
    }
    byName.set(name, { name, partitions: [part], ...parseGres(gres), cpus: Number(cpus), memoryMb: Number(mem), state });
  }
  return [...byName.values()];
}

export function parseSinfoPartitions(text: string, nodes: SlurmNode[]): SlurmPartition[] {
  const out: SlurmPartition[] = [];
  for (const line of text.split('\n')) {
    const f = line.trim().split('|');
    if (f.length < 4) continue;
    const [raw, maxNodes, timeLimit, available] = f as [string, string, string, string];
    const name = raw.replace(/\*$/, '');
    // %s prints the job size range in nodes, "1-infinite" or "1-16".
    const max = Number(maxNodes.split('-').pop());
    out.push({
      name,
      isDefault: raw.endsWith('*'),
      available,
      nodes: nodes.filter((n) => n.partitions.includes(name)).map((n) => n.name),
      ...(Number.isInteger(max) ? { maxNodesPerJob: max } : {}),
      timeLimit,
    });
  }
  return out;
}

export async function discoverCluster(cli: SlurmCli): Promise<SlurmCluster> {
  const nodes = parseSinfoNodes(await runSlurm(cli, 'sinfo', ['-h', '-N', '-o', '%N|%P|%G|%c|%m|%T']));
  const partitions = parseSinfoPartitions(await runSlurm(cli, 'sinfo', ['-h', '-o', '%P|%s|%l|%a']), nodes);
  return { nodes, partitions };
}

export interface Allocation {
  partition: string;
  nodes: number;
  gpusPerNode: number;
  gpuType?: string;
}

/**
 * The largest allocation one job may get in a partition (the default one when none is named):
 * usable nodes with the most common GPU count, capped by the partition's max nodes per job.
 * Null when the partition is unknown, not up, or has no usable GPU node.
 */
export function largestAllocation(c: SlurmCluster, partition?: string): Allocation | null {
  const p = c.partitions.find((x) => (partition ? x.name === partition : x.isDefault)) ?? (partition ? undefined : c.partitions[0]);
  if (!p || p.available !== 'up') return null;
  const usable = c.nodes.filter((n) => p.nodes.includes(n.name) && isUsable(n) && n.gpus > 0);
  if (!usable.length) return null;
  // Nodes with the largest GPU count that many nodes share: a multi-node job needs alike nodes.
  const counts = new Map<number, SlurmNode[]>();
  for (const n of usable) counts.set(n.gpus, [...(counts.get(n.gpus) ?? []), n]);
  let best: Allocation | null = null;
  for (const [gpus, ns] of counts) {
    const nodes = Math.min(ns.length, p.maxNodesPerJob ?? Infinity);
    const a: Allocation = { partition: p.name, nodes, gpusPerNode: gpus, ...(ns[0]!.gpuType ? { gpuType: ns[0]!.gpuType } : {}) };
    if (!best || nodes * gpus > best.nodes * best.gpusPerNode) best = a;
  }
  return best;
}

/** A CPU-only partition's largest allocation: usable nodes, and the CPUs and memory every one of them has. */
export interface CpuAllocation {
  partition: string;
  nodes: number;
  cpusPerNode: number;
  /** sinfo's %m (slurm.conf RealMemory); Slurm reports 1 when the site did not configure it. */
  memoryMbPerNode: number;
}

/**
 * The largest allocation of a partition without GPUs (for an engine that runs on the CPU,
 * llama.cpp): its usable nodes, with the fewest CPUs and least memory among them (a job may
 * land on any). Null when the partition is unknown, not up, has a GPU node or no usable node.
 */
export function largestCpuAllocation(c: SlurmCluster, partition?: string): CpuAllocation | null {
  const p = c.partitions.find((x) => (partition ? x.name === partition : x.isDefault)) ?? (partition ? undefined : c.partitions[0]);
  if (!p || p.available !== 'up') return null;
  const usable = c.nodes.filter((n) => p.nodes.includes(n.name) && isUsable(n));
  if (!usable.length || usable.some((n) => n.gpus > 0)) return null;
  return {
    partition: p.name,
    nodes: Math.min(usable.length, p.maxNodesPerJob ?? Infinity),
    cpusPerNode: Math.min(...usable.map((n) => n.cpus)),
    memoryMbPerNode: Math.min(...usable.map((n) => n.memoryMb)),
  };
}

/**
 * Preflight: why a job of `nodes` x `gpusPerNode` cannot run in the largest allocation, as one
 * line that says what to change; null when it fits.
 */
export function allocationShortfall(a: Allocation | null, nodes: number, gpusPerNode: number, partition?: string): string | null {
  const where = partition ? `partition ${partition}` : 'the default partition';
  if (!a) return `slurm: ${where} has no usable GPU node (sinfo shows none idle, mixed or allocated); pick another with --partition`;
  if (nodes <= a.nodes && gpusPerNode <= a.gpusPerNode) return null;
  const type = a.gpuType ? ` ${a.gpuType}` : '';
  return `slurm: ${where} offers at most ${a.nodes} node(s) x ${a.gpusPerNode}${type} GPU(s) per job; this needs ${nodes} x ${gpusPerNode}: use fewer nodes or GPUs, or another --partition`;
}

/** Where a node is reached: its NodeAddr (`scontrol show node -o NAME`), else its name. */
export async function nodeAddress(cli: SlurmCli, node: string): Promise<string> {
  const out = await runSlurm(cli, 'scontrol', ['show', 'node', '-o', node]);
  const m = /(?:^|\s)NodeAddr=(\S+)/.exec(out);
  return m?.[1] ?? node;
}
