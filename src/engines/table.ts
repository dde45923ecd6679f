// The engine layer as data: for each engine, one row per neutral knob (or sub-knob) saying how
// that engine spells it (a flag, an environment variable, a YAML key or a JSON key), for which
// releases the spelling holds, and the source it was read from. Each engine owns its rows and
// their table (vllm/knobs.ts, ...; the questions in kit/knob-table.ts); this file answers for any
// engine by name, for the planner, the simulator's argument parser and docs/engines.md.
import type { EngineName, KnobName } from '../core/variant.js';
import type { KnobTable } from './kit/knob-table.js';
import type { KnobRow } from './data/knob-row.js';
import { LLAMACPP_TABLE } from './llamacpp/knobs.js';
import { SGLANG_TABLE } from './sglang/knobs.js';
import { TRTLLM_TABLE } from './trtllm/knobs.js';
import { VLLM_TABLE } from './vllm/knobs.js';

const TABLES: Readonly<Record<EngineName, KnobTable>> = {
  vllm: VLLM_TABLE,
  sglang: SGLANG_TABLE,
  trtllm: TRTLLM_TABLE,
  llamacpp: LLAMACPP_TABLE,
};

/** Every engine's rows, each engine's table in full. */
export function engineRows(engine: EngineName): readonly KnobRow[] {
  return TABLES[engine].rows;
}

export function rowsAt(engine: EngineName, version?: string): KnobRow[] {
  return TABLES[engine].rowsAt(version);
}

export function rowAt(engine: EngineName, knob: string, version?: string): KnobRow | undefined {
  return TABLES[engine].rowAt(knob, version);
}

export function mustRow(engine: EngineName, knob: string, version?: string): KnobRow {
  return TABLES[engine].mustRow(knob, version);
}

export function supportedKnobs(engine: EngineName, version?: string): Set<KnobName> {
  return TABLES[engine].supportedKnobs(version);
}

export function tableDefaults(engine: EngineName, version: string): { knob: KnobName; value: string; fact: string }[] {
  return TABLES[engine].tableDefaults(version);
}
