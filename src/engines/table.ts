// The engine layer as data: for each engine, one row per neutral knob (or sub-knob) saying how
// that engine spells it (a flag, an environment variable, a YAML key or a JSON key), for which
// releases the spelling holds, and the source it was read from. Adapters, the planner, the
// simulator's argument parser and docs/engines.md all read these rows, so a new knob is a row.
import { UserError } from '../core/errors.js';
import type { EngineName, KnobName } from '../core/variant.js';
import { LLAMACPP_ROWS } from './llamacpp/knobs.js';
import { SGLANG_ROWS } from './sglang/knobs.js';
import { TRTLLM_ROWS } from './trtllm/knobs.js';
import { VLLM_ROWS } from './vllm/knobs.js';
import { compareVersions, DEFAULT_VERSION } from './data/versions.js';
import type { KnobRow } from './data/knob-row.js';

export const ENGINE_ROWS: Readonly<Record<EngineName, readonly KnobRow[]>> = {
  vllm: VLLM_ROWS,
  sglang: SGLANG_ROWS,
  trtllm: TRTLLM_ROWS,
  llamacpp: LLAMACPP_ROWS,
};

function holds(row: KnobRow, version: string): boolean {
  if (row.since && compareVersions(version, row.since) < 0) return false;
  if (row.until && compareVersions(version, row.until) >= 0) return false;
  return true;
}

/** The rows that hold for one known table version (see resolveVersion). */
export function rowsAt(engine: EngineName, version: string = DEFAULT_VERSION[engine]): KnobRow[] {
  return ENGINE_ROWS[engine].filter((r) => holds(r, version));
}

/** The row for a knob at a version, or undefined when the engine cannot express it there. */
export function rowAt(engine: EngineName, knob: string, version?: string): KnobRow | undefined {
  return rowsAt(engine, version).find((r) => r.knob === knob);
}

/** Like rowAt, for knobs an adapter always needs: a missing row is a bug in the table. */
export function mustRow(engine: EngineName, knob: string, version?: string): KnobRow {
  const r = rowAt(engine, knob, version);
  if (!r) throw new Error(`knob table: ${engine} ${version ?? ''} has no row for '${knob}'`);
  return r;
}

/** The engine's spelling of a neutral value; a value the row does not list is bad input (one line). */
export function engineValue(engine: EngineName, row: KnobRow, neutral: string, version?: string): string {
  if (!row.values) return neutral;
  const v = row.values[neutral] ?? (Object.values(row.values).includes(neutral) ? neutral : undefined);
  if (v === undefined) {
    const at = version ? ` ${version}` : '';
    const what = KNOB_LABEL[row.knob] ?? row.knob;
    throw new UserError(`${ENGINE_LABEL[engine]}${at} has no ${what} '${neutral}' (use one of ${Object.keys(row.values).join(', ')})`);
  }
  return v;
}

const KNOB_LABEL: Readonly<Record<string, string>> = {
  attentionBackend: 'attention backend',
  kvCacheDtype: 'KV-cache dtype',
  'speculative.method': 'speculative method',
  performanceMode: 'performance mode',
};

export const ENGINE_LABEL: Readonly<Record<EngineName, string>> = {
  vllm: 'vLLM',
  sglang: 'SGLang',
  trtllm: 'TensorRT-LLM',
  llamacpp: 'llama.cpp',
};

/** Top-level neutral knobs an engine can express at a version (the planner never asks for others). */
export function supportedKnobs(engine: EngineName, version?: string): Set<KnobName> {
  // Every engine takes extra argv and an environment (the env knob), whatever its table says.
  const s = new Set<KnobName>(['extraArgs', 'env']);
  for (const r of rowsAt(engine, version)) if (!r.knob.startsWith('plumbing.')) s.add(r.knob.split('.')[0] as KnobName);
  return s;
}

/**
 * The engine's own values for knobs left unset, as the table rows record them (`engineDefault`)
 * for a release: the same-server check's facts (each row carries its source for docs/engines.md).
 */
export function tableDefaults(engine: EngineName, version: string): { knob: KnobName; value: string; fact: string }[] {
  return rowsAt(engine, version)
    .filter((r) => r.engineDefault !== undefined && !r.knob.includes('.'))
    .map((r) => ({
      knob: r.knob as KnobName,
      value: r.engineDefault!,
      fact: `${ENGINE_LABEL[engine]} ${version}'s ${KNOB_LABEL[r.knob] ?? r.knob} is ${r.engineDefault} by default`,
    }));
}
