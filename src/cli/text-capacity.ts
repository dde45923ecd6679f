// The capacity stage's plain text for the headless front end: a progress line per capacity event
// and the summary's "Capacity" section, from the projection. The sentences are the core's
// (src/capacity/text.ts, carried by the events); this file only lays them out.
import type { CapacityEvent } from '../core/capacity-events.js';
import { capacityLoadText, type CapacityView } from '../core/view-capacity.js';

/** One stderr line per capacity event (a probe's start is the live views' only). */
export function capacityProgressLine(e: CapacityEvent): string | null {
  switch (e.type) {
    case 'capacity-started':
      return [`capacity of ${e.variantId} for ${e.slo} on the ${e.workload} workload`, ...e.rule.map((r) => `  ${r}`)].join('\n');
    case 'capacity-probe-started':
      return null;
    case 'capacity-probe-progress':
      return e.line;
    case 'capacity-probe':
      return `  ${e.line}`;
    case 'capacity-finished':
      return e.lines.map((l) => `  ${l}`).join('\n');
  }
}

/** The summary's section: the SLO, every probe, the answer with its failing probe, goodput. */
export function capacitySummaryText(c: CapacityView | undefined): string[] {
  if (!c) return [];
  const out = [`Capacity of ${c.label} under ${c.slo} (by ${c.by}, resolution ${c.resolution}, ${c.workload} workload)`];
  for (const p of c.probes) out.push(`  ${p.line}`);
  if (c.running)
    out.push(
      `  probe ${c.running.index}  ${capacityLoadText(c.by, c.running.load)}, ${c.running.done ?? 0}/${c.running.numPrompts} requests: not finished`,
    );
  out.push(...(c.result?.lines ?? ['  the search did not finish']).map((l) => (l.startsWith('  ') ? l : `  ${l}`)), '');
  return out;
}
