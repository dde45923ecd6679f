// The link a collective crosses when its group spans nodes. Inside a node GPUs talk over NVLink
// (GpuSpec.interconnectBps, 900 GB/s on H100/H200: NVIDIA's NVLink 4 figure, both directions
// together); between nodes each GPU has its own NIC. The reference is NVIDIA DGX H100/H200
// ("8x single-port NVIDIA ConnectX-7 VPI, up to 400 Gb/s InfiniBand/Ethernet" per system: one
// 400 Gb/s port per GPU, DGX H100 datasheet and user guide), so 400 Gb/s = 50 GB/s per direction,
// 100 GB/s both directions together: the same convention as the NVLink figure, 9x less.
// A ring all-reduce over a group that spans nodes runs at the slowest hop (NCCL's rings cross the
// NICs), so the whole collective is charged the inter-node bandwidth.
// The latency is an assumption, not a fit: NCCL's inter-node all-reduce of small messages is
// several times the in-node custom all-reduce (no NVLink SHARP, a network round trip); 30 us.
import type { ServerConfig } from './estimate.js';

const GB = 1e9;

export const INTER_NODE = {
  /** Per-GPU NIC bandwidth, both directions together (400 Gb/s InfiniBand x 2 directions). */
  bps: 2 * (400 / 8) * GB,
  /** Per-call latency of a collective that crosses nodes (assumed, see above). */
  allReduceLatencyS: 30e-6,
} as const;

/** GPUs of one node the server runs on; undefined = the whole server is one node. */
export type NodeSize = Pick<ServerConfig, 'gpusPerNode'>;

/** Whether a group of `groupGpus` consecutive GPUs crosses a node boundary. */
export function spansNodes(c: NodeSize, groupGpus: number): boolean {
  return !!c.gpusPerNode && groupGpus > c.gpusPerNode;
}

/** Bandwidth (bytes/s, before collective efficiency) and per-call latency for a group's collectives. */
export function groupLink(
  c: NodeSize & Pick<ServerConfig, 'gpu'>,
  groupGpus: number,
  inNodeLatencyS: number,
): { bps: number; latencyS: number } {
  if (!spansNodes(c, groupGpus)) return { bps: c.gpu.interconnectBps, latencyS: inNodeLatencyS };
  return { bps: Math.min(c.gpu.interconnectBps, INTER_NODE.bps), latencyS: Math.max(inNodeLatencyS, INTER_NODE.allReduceLatencyS) };
}

/** A resolved server placed on nodes of `gpusPerNode` GPUs (multi-node: collectives may cross them). */
export function onNodes<T extends ServerConfig>(c: T, gpusPerNode: number | undefined): T {
  return gpusPerNode && gpusPerNode < c.gpus ? { ...c, gpusPerNode } : c;
}
