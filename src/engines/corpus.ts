// The corpus of real engine output (src/engines/data/corpus.json): every failure text in
// servelab, the simulator's included, is one of these entries, quoted from the engine's source
// or a public issue with its origin. Here: typed access and filling in the engine's own fields.
import corpusJson from './data/corpus.json' with { type: 'json' };
import type { FailureKind } from '../core/events.js';

export interface CorpusEntry {
  id: string;
  engine: 'vllm' | 'sglang' | 'trtllm' | 'llamacpp' | 'any';
  /** The failure kind the classifier must give; null for start-up lines no rule may match. */
  expect: FailureKind | null;
  /** The engine's lines; {name} marks a field the engine fills in. */
  lines: string[];
  example?: Record<string, string>;
  source: string;
}

export const CORPUS: readonly CorpusEntry[] = (corpusJson as { entries: CorpusEntry[] }).entries;

/** An entry by id; a missing id is a bug (the simulator and tests name entries that exist). */
export function corpusEntry(id: string): CorpusEntry {
  const e = CORPUS.find((x) => x.id === id);
  if (!e) throw new Error(`engine corpus has no entry '${id}'`);
  return e;
}

/** The entry's lines with its fields filled (missing values: the entry's example values). */
export function corpusLines(id: string, values: Record<string, string | number> = {}): string[] {
  const e = corpusEntry(id);
  const all: Record<string, string | number> = { ...(e.example ?? {}), ...values };
  return e.lines.map((l) =>
    l.replace(/\{(\w+)\}/g, (m, k: string) => {
      if (all[k] === undefined) throw new Error(`engine corpus entry '${id}' needs a value for {${k}}`);
      return String(all[k]);
    }),
  );
}
