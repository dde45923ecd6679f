// Reading the AMD tools' JSON: amd-smi and rocm-smi print numbers as {"value": N, "unit": "MB"}
// objects, bare numbers, or strings ("196592 MB", "N/A"), and may print a warning line before the
// document. One reading for both readers, so a unit is converted in one place.
import { UserError } from '../core/errors.js';

/** The JSON document in a tool's output (warning lines before it are skipped); throws UserError when there is none. */
export function jsonOf(tool: string, text: string): unknown {
  const at = text.search(/^\s*[[{]/m);
  if (at < 0)
    throw new UserError(`cannot read ${tool} output (no JSON in it): '${firstLine(text)}'; check the ROCm install, or run with --sim`);
  try {
    return JSON.parse(text.slice(at));
  } catch {
    throw new UserError(
      `cannot read ${tool} output (not valid JSON): '${firstLine(text.slice(at))}'; check the ROCm install, or run with --sim`,
    );
  }
}

export function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find(Boolean) ?? ''
  ).slice(0, 160);
}

const MIB: Record<string, number> = { b: 1 / 1048576, kb: 1 / 1024, kib: 1 / 1024, mb: 1, mib: 1, gb: 1024, gib: 1024 };

/** A number however the tool spelled it; undefined for N/A, missing or unreadable values. */
export function numberOf(x: unknown): number | undefined {
  if (typeof x === 'number') return Number.isFinite(x) ? x : undefined;
  if (typeof x === 'string') {
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*[A-Za-z%]*\s*$/.exec(x);
    return m ? Number(m[1]) : undefined;
  }
  if (x && typeof x === 'object' && 'value' in x) return numberOf((x as { value: unknown }).value);
  return undefined;
}

/**
 * A memory figure in MiB. amd-smi's "MB" is MiB: its CLI divides the byte count by 1024*1024
 * (amdsmi_cli/amdsmi_commands.py, `used_vram // (1024*1024)`, ROCm 6.2); "B" is bytes. A bare
 * number is taken in `bareUnit`.
 */
export function mibOf(x: unknown, bareUnit: 'B' | 'MB'): number | undefined {
  const n = numberOf(x);
  if (n === undefined) return undefined;
  let unit: string = bareUnit;
  if (x && typeof x === 'object' && 'unit' in x) unit = String((x as { unit: unknown }).unit);
  else if (typeof x === 'string') unit = /[A-Za-z]+\s*$/.exec(x)?.[0].trim() ?? bareUnit;
  const f = MIB[unit.toLowerCase()];
  // Whole MiB rounded down, as amd-smi itself reports them.
  return f === undefined ? undefined : Math.floor(n * f);
}

/** A JSON object's own fields, or {} for anything else (N/A strings, arrays, null). */
export function fieldsOf(x: unknown): Record<string, unknown> {
  return x && typeof x === 'object' && !Array.isArray(x) ? (x as Record<string, unknown>) : {};
}
