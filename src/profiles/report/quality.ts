// The report's quality section: the check's settings and cost, then one line per
// result that sent the greedy prompts (the words are src/quality/text.ts's, as in the summary).
import { qualityLines } from '../../quality/text.js';
import type { Profile } from '../schema/profile.js';

export function qualitySection(p: Pick<Profile, 'quality' | 'stages'>): string[] {
  const q = p.quality;
  if (!q) return [];
  const head = `${q.prompts} greedy prompt(s) (temperature 0, ${q.maxTokens} tokens)${q.eval ? ` from ${q.eval}` : ''} to each engine's engine-stage run and to every variant that changes numerics, after its benchmark on the same server; ${q.gpuS.toFixed(1)} GPU-s${q.floor !== undefined ? `; --quality-floor ${(q.floor * 100).toFixed(0)}%` : ''}.`;
  const lines = qualityLines(
    p.stages.flatMap((s) => s.results),
    '- ',
  );
  return ['', '## Quality check', '', head, '', ...lines];
}
