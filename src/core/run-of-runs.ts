// Which run of a variant a launch is (adaptive repeats launch one variant again): the events
// carry it so a view or a script tells a repeat from a first run.

/** Which run of a variant a launch is, "run 2 of 3" (runText). */
export interface RunOfRuns {
  n: number;
  of: number;
}

/** "run 2 of 3". */
export function runText(r: RunOfRuns): string {
  return `run ${r.n} of ${r.of}`;
}
