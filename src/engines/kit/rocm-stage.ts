// Building ROCm-stage candidates from an engine's knob rows: each candidate is the carried
// winner's environment plus the switches it tries, spelled as the rows say. Shared by the engines'
// own rocm-stage.ts files, which choose which rows to try together.
import type { Knobs } from '../../core/variant.js';
import type { KnobTable } from './knob-table.js';
import type { RocmCandidate } from './rocm-stage-types.js';

/** `{knob: neutral value}` -> the env the rows name, or undefined when a row is missing at this version. */
function rowsEnv(table: KnobTable, version: string, set: Readonly<Record<string, string>>): Record<string, string> | undefined {
  const env: Record<string, string> = {};
  for (const [knob, value] of Object.entries(set)) {
    const r = table.rowAt(knob, version);
    if (!r || r.via !== 'env') return undefined;
    env[r.name] = r.values?.[value] ?? value;
  }
  return env;
}

/**
 * A candidate that sets these env rows over the carried winner's environment; undefined when the
 * table lacks a row at this version, or when the winner already runs with exactly that env.
 */
export function envCandidate(
  table: KnobTable,
  version: string,
  knobs: Knobs,
  set: Readonly<Record<string, string>>,
): RocmCandidate | undefined {
  const add = rowsEnv(table, version, set);
  if (!add) return undefined;
  const have = knobs.env ?? {};
  if (Object.entries(add).every(([k, v]) => have[k] === v)) return undefined;
  const env = { ...have, ...add };
  const change = Object.entries(add)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  return { knobs: { env }, change, needs: ['env'] };
}

/** The candidates of a row's enumeration (its `candidates`), at this version. */
export function rowCandidates(table: KnobTable, knob: string, version: string): readonly string[] {
  return table.rowAt(knob, version)?.candidates ?? [];
}
