// Under a stage's table, on traffic that resends prefixes or runs conversations: the winner's and
// the reference's prefix-cache hit rate and TTFT by turn (the words are core/traffic-text.ts').
import { trafficText } from '../../../core/traffic-text.js';
import { truncate } from '../../base/format.js';
import type { StageTable } from '../../state/results.js';

export function trafficLines(table: StageTable | undefined, width: number): string[] {
  if (!table) return [];
  const rows = table.rows.filter((r) => r.result.status === 'ok' && (r.isWinner || r.isReference));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const r of rows) {
    const t = trafficText(r.result);
    if (!t || seen.has(r.result.variantId)) continue;
    seen.add(r.result.variantId);
    out.push(truncate(`${r.label}: ${t}`, width));
  }
  return out;
}
