// The quality check's words for one result, the same in the --auto summary, the TUI-free text
// views and the report (one owner): what it was compared with and how far it agrees, the eval
// accuracy, the floor it fell below, a speculative mismatch, and what random weights mean.
import type { VariantQuality } from '../core/quality-schema.js';
import { agreementText } from './agreement.js';
import { randomWeightsNote } from './greedy.js';
import { fractionPct } from '../core/format.js';

/** One result's quality in a line, e.g. "exact match 40% (2/5), ... vs vllm (KV cache fp8); below the --quality-floor 90%: cannot win". */
export function qualityText(q: VariantQuality): string {
  const parts: string[] = [];
  if (q.agreement)
    parts.push(
      `${agreementText(q.agreement)} vs ${q.referenceId ?? 'the reference'}${q.changes?.length ? ` (${q.changes.join(', ')})` : ''}`,
    );
  else parts.push(`reference: its greedy outputs are what this engine's variants that change numerics are compared with`);
  if (q.accuracy !== undefined) parts.push(`eval accuracy ${fractionPct(q.accuracy)}`);
  if (q.failed) parts.push(`${q.failed} of ${q.prompts} greedy requests failed`);
  if (q.belowFloor !== undefined) parts.push(`below the --quality-floor ${fractionPct(q.belowFloor)}: cannot win`);
  if (q.speculativeMismatch) parts.push('speculative decoding under greedy sampling should agree exactly and does not');
  return parts.join('; ');
}

/** The lines under a table: each checked result's quality, the random-weights note, the check's cost. */
export function qualityLines(results: readonly { variantId: string; quality?: VariantQuality }[], indent = '  '): string[] {
  const checked = results.filter((r) => r.quality);
  if (!checked.length) return [];
  const out = checked.map((r) => `${indent}quality ${r.variantId}: ${qualityText(r.quality!)}`);
  const note = randomWeightsNote(checked.some((r) => r.quality!.randomWeights));
  if (note) out.push(`${indent}note: ${note}`);
  return out;
}

/** GPU-seconds the quality check's greedy requests held, summed. */
export function qualityGpuS(results: readonly { quality?: VariantQuality }[]): number {
  return results.reduce((s, r) => s + (r.quality?.gpuS ?? 0), 0);
}
