// Numbers as the Markdown report and the replay text print them.
import type { RecordedResult } from './schema.js';

export function fmt(n: number | null | undefined, digits = 2): string {
  return typeof n === 'number' && Number.isFinite(n) ? n.toFixed(digits) : '–';
}

export function fmtPct(p: number | null | undefined): string {
  if (typeof p !== 'number' || !Number.isFinite(p)) return '–';
  return `${p >= 0 ? '+' : ''}${p.toFixed(1)}%`;
}

export function metric(r: RecordedResult, key: string): number | undefined {
  const v = (r.metrics as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'number' ? v : undefined;
}
