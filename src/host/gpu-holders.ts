// What holds each GPU's memory, for `servelab gpus`: the host model's GPU processes on a real host
// (whichever vendor's tool reported them), matched to the servers in the ledger by process group; on the simulated host each running
// sim-serve reports the memory it models (/sim/gpus).
import { readSimGpus, type GpuInfo } from './gpus.js';
import { queryGpuProcesses } from './gpu-procs.js';
import type { LedgerEntry } from './ledger.js';
import { procCmdline, procGroup, stillRunning } from './proc-identity.js';

export interface GpuHolder {
  /** The GPU's index; its UUID when the index is not known; '?' when the tool does not say (rocm-smi). */
  gpu: number | string;
  pid: number;
  usedMiB?: number;
  /** The holder's command line. */
  command: string;
  /** Set when it is a server servelab started: the servelab that owns it, alive or not. */
  servelab?: { ownerPid: number; ownerAlive: boolean };
}

function ledgerOf(pid: number, entries: readonly LedgerEntry[]): LedgerEntry | undefined {
  const pg = procGroup(pid);
  return entries.find((e) => e.server && (e.server.pid === pid || e.server.pid === pg) && stillRunning(e.server));
}

function owner(e: LedgerEntry | undefined): GpuHolder['servelab'] {
  return e ? { ownerPid: e.owner.pid, ownerAlive: stillRunning(e.owner) } : undefined;
}

async function simHolders(entries: readonly LedgerEntry[]): Promise<GpuHolder[]> {
  const out: GpuHolder[] = [];
  for (const e of entries) {
    if (!e.server || !stillRunning(e.server)) continue;
    // null: not a sim server, or it is stopping; it holds nothing we can report.
    const gpus = await readSimGpus(`http://127.0.0.1:${e.port}`);
    for (const g of gpus ?? []) {
      if ((g.memUsedMiB ?? 0) > 0)
        out.push({ gpu: g.index, pid: e.server.pid, usedMiB: g.memUsedMiB, command: e.argv.join(' '), servelab: owner(e) });
    }
  }
  return out;
}

export async function gpuHolders(simulated: boolean, gpus: readonly GpuInfo[], entries: readonly LedgerEntry[]): Promise<GpuHolder[]> {
  if (simulated) return simHolders(entries);
  const byUuid = new Map(gpus.map((g) => [g.uuid, g.index]));
  return (await queryGpuProcesses()).map((a) => {
    const e = ledgerOf(a.pid, entries);
    return {
      gpu: a.gpuIndex ?? (a.gpuUuid !== undefined ? (byUuid.get(a.gpuUuid) ?? a.gpuUuid) : '?'),
      pid: a.pid,
      ...(a.usedMiB !== undefined ? { usedMiB: a.usedMiB } : {}),
      command: (procCmdline(a.pid) ?? ['?']).join(' ').slice(0, 160),
      servelab: owner(e),
    };
  });
}
