// How quiet the host was while a result was measured: the contract between the runner that reads
// it (src/host/host-load.ts, src/tune/run/sampler.ts) and the views that show it.

/** Other processes' CPU share at or above which a result is marked as measured on a busy host. */
export const BUSY_HOST_PCT = 25;

export interface HostLoad {
  /** Other processes' share of the host's CPU time during the run, % of all its cores (the server and servelab itself excluded). */
  othersCpuPct: number;
  /** The highest 1-minute load average read during the run. */
  loadAvg1: number;
  /** Logical cores of the host. */
  cores: number;
  /** Other work took BUSY_HOST_PCT % or more of the host: the figures carry its noise. */
  busy?: boolean;
  /** The server and the benchmark client ran on disjoint cores, e.g. "server 0-2, client 3". */
  pinned?: string;
}

/** " [busy host: others took 41% of 2 cores, load 3.1]" for a row; empty on a quiet host. */
export function busyHostMark(h: HostLoad | undefined): string {
  if (!h?.busy) return '';
  return ` [busy host: others took ${h.othersCpuPct.toFixed(0)}% of ${h.cores} cores, load ${h.loadAvg1.toFixed(1)}]`;
}

/**
 * The profile's notes on the host: which results were measured while other work took a large
 * share of it, and where the server and the client ran (once, from the first pinned run).
 */
export function hostLoadNotes(results: readonly { variantId: string; hostLoad?: HostLoad }[]): string[] {
  const notes: string[] = [];
  const busy = results.filter((r) => r.hostLoad?.busy);
  if (busy.length)
    notes.push(
      `Measured on a busy host (other processes took ${BUSY_HOST_PCT}% or more of its CPU): ${busy
        .map((r) => `${r.variantId} (${r.hostLoad!.othersCpuPct.toFixed(0)}%)`)
        .join(', ')}: those figures carry the other work's noise.`,
    );
  const pinned = results.find((r) => r.hostLoad?.pinned)?.hostLoad?.pinned;
  if (pinned) notes.push(`The server and the benchmark client ran on separate cores: ${pinned}.`);
  return notes;
}
