// One engine's knob table and the questions asked of it: which rows hold at a release, how the
// engine spells a neutral value, which knobs it can express. Each engine builds its own table from
// its rows (vllm/knobs.ts, ...), so an adapter reads its spellings without reaching the registry.
import { UserError } from '../../core/errors.js';
import { ENGINE_LABEL, type EngineName, type KnobName } from '../../core/variant.js';
import type { KnobRow } from '../data/knob-row.js';
import { compareVersions, DEFAULT_VERSION } from '../data/versions.js';

export interface KnobTable {
  engine: EngineName;
  rows: readonly KnobRow[];
  /** The rows that hold for one known table version (see resolveVersion). */
  rowsAt(version?: string): KnobRow[];
  /** The row for a knob at a version, or undefined when the engine cannot express it there. */
  rowAt(knob: string, version?: string): KnobRow | undefined;
  /** Like rowAt, for knobs an adapter always needs: a missing row is a bug in the table. */
  mustRow(knob: string, version?: string): KnobRow;
  /** The engine's spelling of a neutral value; a value the row does not list is bad input (one line). */
  engineValue(row: KnobRow, neutral: string, version?: string): string;
  /** Top-level neutral knobs the engine can express at a version (the planner never asks for others). */
  supportedKnobs(version?: string): Set<KnobName>;
  /** The engine's own values for knobs left unset, as the rows record them (`engineDefault`), with the fact. */
  tableDefaults(version: string): { knob: KnobName; value: string; fact: string }[];
}

const KNOB_LABEL: Readonly<Record<string, string>> = {
  attentionBackend: 'attention backend',
  kvCacheDtype: 'KV-cache dtype',
  'speculative.method': 'speculative method',
  performanceMode: 'performance mode',
};

function holds(row: KnobRow, version: string): boolean {
  if (row.since && compareVersions(version, row.since) < 0) return false;
  if (row.until && compareVersions(version, row.until) >= 0) return false;
  return true;
}

export function knobTable(engine: EngineName, rows: readonly KnobRow[]): KnobTable {
  const label = ENGINE_LABEL[engine];
  const rowsAt = (version: string = DEFAULT_VERSION[engine]) => rows.filter((r) => holds(r, version));
  const rowAt = (knob: string, version?: string) => rowsAt(version).find((r) => r.knob === knob);
  return {
    engine,
    rows,
    rowsAt,
    rowAt,
    mustRow(knob, version) {
      const r = rowAt(knob, version);
      if (!r) throw new Error(`knob table: ${engine} ${version ?? ''} has no row for '${knob}'`);
      return r;
    },
    engineValue(row, neutral, version) {
      if (!row.values) return neutral;
      const v = row.values[neutral] ?? (Object.values(row.values).includes(neutral) ? neutral : undefined);
      if (v === undefined) {
        const at = version ? ` ${version}` : '';
        const what = KNOB_LABEL[row.knob] ?? row.knob;
        throw new UserError(`${label}${at} has no ${what} '${neutral}' (use one of ${Object.keys(row.values).join(', ')})`);
      }
      return v;
    },
    supportedKnobs(version) {
      // Every engine takes extra argv and an environment (the env knob), whatever its table says.
      const s = new Set<KnobName>(['extraArgs', 'env']);
      for (const r of rowsAt(version)) if (!r.knob.startsWith('plumbing.')) s.add(r.knob.split('.')[0] as KnobName);
      return s;
    },
    tableDefaults(version) {
      return rowsAt(version)
        .filter((r) => r.engineDefault !== undefined && !r.knob.includes('.'))
        .map((r) => ({
          knob: r.knob as KnobName,
          value: r.engineDefault!,
          fact: `${label} ${version}'s ${KNOB_LABEL[r.knob] ?? r.knob} is ${r.engineDefault} by default`,
        }));
    },
  };
}
