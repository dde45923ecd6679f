// One row of an engine's knob table: how a neutral knob is spelled for a range of releases, and
// the source it was read from. Its own file so that the tables and their resolver (table.ts) both
// import it without importing each other.

export interface KnobRow {
  /** Neutral knob (a Knobs key) or a sub-knob such as 'speculative.method'. */
  knob: string;
  via: 'flag' | 'env' | 'yaml' | 'json';
  /** Flag (`--tp-size`), env var, dotted YAML key (`kv_cache_config.dtype`) or JSON key. */
  name: string;
  /** Neutral value -> engine value. Absent: the value passes through unchanged. */
  values?: Readonly<Record<string, string>>;
  /** Values the planner proposes (in order), when the knob is an enumeration. */
  candidates?: readonly string[];
  /** First known release the row holds for (inclusive); absent = every known release before `until`. */
  since?: string;
  /** First known release it no longer holds for (exclusive). */
  until?: string;
  /** The engine's own value when the knob is not given (the same-server check reads it). */
  engineDefault?: string;
  /** File and release (or commit) the spelling was read from. */
  source: string;
  note?: string;
}
