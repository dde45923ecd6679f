// What `--capacity RULES` asks of a session: after validation, search the highest load
// at which every rule holds on the winner's server, with the session's workload (src/capacity
// owns the search; tune/request/capacity-flags.ts checks the flags).

export interface CapacityConfig {
  /** The SLO the answer must meet, as `servelab capacity --slo` takes it: "ttft:p99<2000,tpot:mean<100". */
  slo: string;
  by: 'concurrency' | 'rate';
  /** A load step ("4") or a share of the answer ("10%"), as --resolution takes it. */
  resolution: string;
  /** The highest load probed. */
  max: number;
}
