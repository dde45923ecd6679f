/** Thrown when the whole session is aborted while a variant runs; nothing is recorded for it. */
export class AbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortedError';
  }
}

/** The failure reason of a launch the user skipped while it ran (the TUI's skip key): it is recorded. */
export const USER_SKIP = 'skipped by the user';
