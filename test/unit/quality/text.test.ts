// The quality check's words and its speculative rule: a speculative variant that does not agree
// exactly under greedy sampling is flagged, and random weights are named as drift, not quality.
import { describe, expect, it } from 'vitest';
import { qualityGpuS, qualityLines, qualityText } from '../../../src/quality/text.js';
import { speculativeMismatch } from '../../../src/tune/stage/quality-check.js';

const agreement = { prompts: 4, exactMatch: 0.75, meanSharedPrefix: 50, meanBaselineTokens: 64 };

describe('quality words', () => {
  it('flags speculative decoding that does not agree exactly, and only that', () => {
    expect(speculativeMismatch({ changes: ['speculative eagle3'], agreement })).toBe(true);
    expect(speculativeMismatch({ changes: ['speculative eagle3'], agreement: { ...agreement, exactMatch: 1 } })).toBe(false);
    expect(speculativeMismatch({ changes: ['KV cache fp8'], agreement })).toBe(false);
    const q = {
      prompts: 4,
      failed: 0,
      gpuS: 2,
      changes: ['speculative eagle3'],
      referenceId: 'vllm',
      agreement,
      speculativeMismatch: true,
      accuracy: 0.5,
    };
    expect(qualityText(q)).toBe(
      'exact match 75% (3/4), mean shared prefix 50.0 of 64.0 tokens vs vllm (speculative eagle3); eval accuracy 50%; speculative decoding under greedy sampling should agree exactly and does not',
    );
  });

  it('says random weights measure drift, and adds up the cost', () => {
    const rows = [{ variantId: 'llamacpp', quality: { prompts: 4, failed: 0, gpuS: 1.5, randomWeights: true } }, { variantId: 'x' }];
    const lines = qualityLines(rows);
    expect(lines[0]).toMatch(/^  quality llamacpp: reference/);
    expect(lines[1]).toBe(
      '  note: the model has random weights: agreement here measures numerical drift against the baseline, not quality',
    );
    expect(qualityGpuS(rows)).toBe(1.5);
  });
});
