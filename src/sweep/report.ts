// The Markdown section for a profile's sweep: the choice, the chart (an SVG beside the report),
// the table of every point, and how the points were measured.
import { parseSlo } from '../core/slo-rule.js';
import { analyseSweeps, frontierNotes, sweepTable } from './analyse.js';
import { sweepsOf, type SweepRecord } from './record.js';

/** The recorded SLO; a hand-edited one that no longer parses is left out rather than failing the report. */
function sloOf(text: string) {
  try {
    return text ? parseSlo(text) : [];
  } catch {
    return [];
  }
}

export function sweepMarkdown(r: SweepRecord): string[] {
  const slo = sloOf(r.slo);
  const sweeps = sweepsOf(r);
  const a = analyseSweeps(sweeps, r.gpus, slo);
  const out = ['## Load sweep', ''];
  out.push(
    `Swept \`${r.spec}\` on ${r.gpus} GPU${r.gpus > 1 ? 's' : ''}, prompts drawn from the ${r.workload} workload, one launched server per variant.` +
      (r.simulated ? ' **Simulated host: the numbers come from a performance model, not a GPU.**' : ''),
  );
  out.push('');
  if (r.chosen) out.push(`**Choice${r.slo ? ` for ${r.slo}` : ''}:** ${r.chosen.sentence}. ${r.chosen.why}.`);
  else out.push(`**No choice${r.slo ? ` for ${r.slo}` : ''}:** ${a.noChoice ?? 'nothing measured'}.`);
  out.push('');
  if (r.chart) out.push(`![Throughput per GPU against tokens per second per user](${encodeURI(r.chart)})`, '');
  const t = sweepTable(sweeps, a);
  out.push(`| ${t.head.join(' | ')} |`, `| ${t.head.map((_, i) => (i < 2 || i > 6 ? '---' : '---:')).join(' | ')} |`);
  for (const row of t.rows) out.push(`| ${row.join(' | ')} |`);
  out.push('');
  for (const n of frontierNotes(a)) out.push(`- ${n}`);
  for (const s of sweeps) if (s.stopped) out.push(`- ${s.label}: ${s.stopped}.`);
  out.push(
    '- tok/s/GPU = output token throughput / GPUs; tok/s/user = 1000 / mean TPOT (ms); goodput = requests/s meeting the SLO (vLLM `--goodput`). Each point is one `vllm bench serve`-compatible run.',
  );
  out.push('');
  return out;
}
