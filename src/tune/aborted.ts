/** Thrown when the whole session is aborted while a variant runs; nothing is recorded for it. */
export class AbortedError extends Error {
  constructor() {
    super('aborted');
    this.name = 'AbortedError';
  }
}
