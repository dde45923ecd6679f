// Under a stage's table, on traffic that resends prefixes or runs conversations: the winner's and
// the reference's prefix-cache hit rate and TTFT by turn (the words are core/traffic-text.ts').
import { cacheText, trafficText, turnText } from '../../../core/traffic-text.js';
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
    const line = `${r.label}: ${t}`;
    const [cache, turns] = [cacheText(r.result), turnText(r.result)];
    // Too wide for one line (80 columns): the cache and the turns each on a line of their own.
    if ([...line].length > width && cache && turns) out.push(truncate(`${r.label}: ${cache}`, width), truncate(`  ${turns}`, width));
    else out.push(truncate(line, width));
  }
  return out;
}
