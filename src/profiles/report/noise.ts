// The report's account of the noise rule: the noise measured on the host, the margin the
// decisions used, each stage's tied set with its members' intervals, and the declared tie-break.
import type { Profile, StageRecord } from '../schema/profile.js';

/** "a 1,234 ±3.1% (3 runs)" for each member of a stage's tied set. */
function members(s: StageRecord): string {
  return (s.tiedIds ?? [])
    .map((id) => {
      const iv = s.intervals?.[id];
      if (!iv) return `\`${id}\``;
      return `\`${id}\` ${iv.mean.toFixed(1)}${iv.halfPct !== undefined ? ` ±${iv.halfPct.toFixed(1)}%` : ''} (${iv.runs} run${iv.runs === 1 ? '' : 's'})`;
    })
    .join(', ');
}

export function noiseMarkdown(p: Profile): string[] {
  const d = p.decision;
  if (!d) return [];
  const out = ['', '## Noise and ties', ''];
  out.push(
    d.noisePct !== undefined
      ? `Noise on this host: ±${d.noisePct.toFixed(1)}% (${d.noiseSource ?? `${d.noiseRuns} runs`}), the 95% Student-t half-width of one run, pooled over every repeated run of the session.`
      : 'Noise on this host: not measured (no variant ran twice).',
  );
  out.push(
    '',
    `A difference counts only beyond the larger of --margin (${d.marginPct}%) and the noise (the two candidates' intervals must not overlap). Within the tied set the winner is chosen by properties no measurement moves: fewer GPUs, threads, slots, memory reserved; then fewer changes from the defaults; then higher precision; then the plan's order.`,
  );
  const rows = p.stages.filter((s) => s.tiedIds?.length);
  if (rows.length) {
    out.push('', '| stage | effective margin | tied set | chosen by |', '|---|---|---|---|');
    for (const s of rows)
      out.push(
        `| ${s.name} | ${s.marginPct !== undefined ? `±${s.marginPct.toFixed(1)}%` : '-'} | ${members(s)} | ${s.tieBreak ? `\`${s.winnerId}\` ${s.tieBreak}` : 'clear winner'} |`,
      );
  }
  out.push(
    '',
    `Final tied set: ${d.tiedIds.map((id) => `\`${id}\``).join(', ')}: the last deciding stage's, and each earlier stage's while the later stages kept its winner (measured against the same configuration, so any of them serves as well within the noise).`,
  );
  return out;
}
