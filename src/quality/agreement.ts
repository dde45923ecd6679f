// The quality check's measures, pure: how far a variant's greedy outputs agree with the
// baseline's on the same prompts (exact-match rate, mean shared prefix length in tokens), and,
// with the user's own eval file, exact-match accuracy against the expected answers.

export interface Agreement {
  prompts: number;
  /** Share of prompts whose output equals the baseline's, 0..1. */
  exactMatch: number;
  /** Tokens the outputs share from the start, averaged over the prompts. */
  meanSharedPrefix: number;
  /** The baseline's mean output length in tokens, for reading the prefix against. */
  meanBaselineTokens: number;
}

/** Tokens as the benchmark client counts them without a tokenizer: whitespace-separated words. */
export function wordTokens(text: string): string[] {
  return text.split(/\s+/).filter(Boolean);
}

function sharedPrefix(a: readonly string[], b: readonly string[]): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/** Agreement of `variant` with `baseline`, prompt by prompt (same order, same length). */
export function agreement(
  baseline: readonly string[],
  variant: readonly string[],
  tokens: (t: string) => string[] = wordTokens,
): Agreement {
  if (baseline.length !== variant.length) throw new Error(`agreement: ${baseline.length} baseline outputs against ${variant.length}`);
  const n = baseline.length;
  let exact = 0;
  let prefix = 0;
  let length = 0;
  for (let i = 0; i < n; i++) {
    const a = tokens(baseline[i]!);
    const b = tokens(variant[i]!);
    const shared = sharedPrefix(a, b);
    if (shared === a.length && shared === b.length) exact++;
    prefix += shared;
    length += a.length;
  }
  return { prompts: n, exactMatch: n ? exact / n : 0, meanSharedPrefix: n ? prefix / n : 0, meanBaselineTokens: n ? length / n : 0 };
}

const normal = (s: string) => s.trim().replace(/\s+/g, ' ').toLowerCase();

/** Share of outputs equal to their expected answer (case and spacing aside), 0..1. */
export function exactMatchAccuracy(outputs: readonly string[], expected: readonly string[]): number {
  if (outputs.length !== expected.length) throw new Error(`accuracy: ${outputs.length} outputs against ${expected.length} answers`);
  if (!outputs.length) return 0;
  return outputs.filter((o, i) => normal(o) === normal(expected[i]!)).length / outputs.length;
}

/** "exact match 92% (46/50), mean shared prefix 58.1 of 64 tokens". */
export function agreementText(a: Agreement): string {
  const matched = Math.round(a.exactMatch * a.prompts);
  return `exact match ${(a.exactMatch * 100).toFixed(0)}% (${matched}/${a.prompts}), mean shared prefix ${a.meanSharedPrefix.toFixed(1)} of ${a.meanBaselineTokens.toFixed(1)} tokens`;
}
