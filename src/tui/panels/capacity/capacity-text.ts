// The capacity search as the TUI lays it out, from the projection (src/core/view-capacity.ts):
// the header, the probes' lines (the core's sentences) cut to the room, the probe running now,
// and the answer lines. Pure: lines and their tone, nothing measured or judged here.
import { capacityLoadText, type CapacityView } from '../../../core/view-capacity.js';
import { wrapLines } from '../../base/format.js';

export interface CapacityLine {
  text: string;
  tone?: 'good' | 'warn' | 'info' | 'muted';
}

/** Probe lines without the "probe N  " lead the numbered list makes redundant on a narrow screen. */
const short = (line: string, width: number) => (width < 100 ? line.replace(/^probe (\d+)\s+/, '$1 ') : line);

/** At most `room` lines: the header, the newest probes (older ones give way), the running probe, the answer. */
export function capacityLines(c: CapacityView, width: number, room: number): CapacityLine[] {
  const head: CapacityLine[] = wrapLines(`capacity of ${c.label} under ${c.slo} (by ${c.by}, resolution ${c.resolution})`, width, 2).map(
    (text) => ({ text, tone: 'info' as const }),
  );
  const running: CapacityLine[] = c.running
    ? [
        {
          text: `${c.running.index} ${capacityLoadText(c.by, c.running.load)}, ${c.running.done ?? 0}/${c.running.numPrompts} requests: measuring…`,
          tone: 'muted',
        },
      ]
    : [];
  const result: CapacityLine[] = (c.result?.lines ?? []).flatMap((l, i) =>
    wrapLines(l, width, 3).map((text) => ({
      text,
      ...(i === 0 ? { tone: c.result?.answer != null ? ('good' as const) : ('warn' as const) } : {}),
    })),
  );
  const probeRoom = Math.max(1, room - head.length - running.length - result.length);
  const probes = c.probes.map((p) => ({ text: short(p.line, width), tone: p.holds ? undefined : ('warn' as const) }));
  const kept =
    probes.length > probeRoom
      ? [
          { text: `${probes.length - probeRoom + 1} earlier probe(s) in the report`, tone: 'muted' as const },
          ...probes.slice(-(probeRoom - 1)),
        ]
      : probes;
  return [...head, ...(probeRoom > 1 || !probes.length ? kept : kept.slice(-1)), ...running, ...result].slice(0, Math.max(room, 1));
}
