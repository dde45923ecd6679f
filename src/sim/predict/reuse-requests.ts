// Requests with their token blocks, for workloads that resend what they sent before: the virtual
// clock's prefix cache matches these blocks as sim-serve matches the words of real prompts, so a
// prediction counts the hits the workload makes possible (the shapes are core/workload-reuse.ts's).
// A workload without reuse gets no blocks, and its prediction is what it always was.
import { existsSync, readFileSync } from 'node:fs';
import { multiTurnShapeOf, workloadReuse, type MultiTurnShape } from '../../core/workload-reuse.js';
import type { Scenario } from '../../core/scenario.js';
import { DATASETS, type DatasetName } from '../../core/dataset-names.js';
import { BlockHasher } from '../scheduler/block-hash.js';

/** A request as the virtual clock takes it (workload.ts LengthPair), with its token blocks. */
type LengthPair = { promptLen: number; outputLen: number; blocks?: readonly number[] };

/** What a scenario says of its requests (recorded workloads name their dataset as plain text). */
export type ReuseShape = Pick<
  Scenario,
  | 'numPrompts'
  | 'inputLen'
  | 'outputLen'
  | 'rangeRatio'
  | 'prefixLen'
  | 'numPrefixes'
  | 'datasetPath'
  | 'traceBlockSize'
  | 'turns'
  | 'systemPromptLen'
> & { dataset: string; name?: string; label?: string; seed?: number; maxConcurrency?: number | null };

/** Token ids: a shared run (prefix p, token k), or one of request r's own tokens. */
const shared = (p: number, k: number) => (p + 1) * 2 ** 22 + k;
const own = (r: number, k: number) => 2 ** 40 + r * 2 ** 20 + k;

function blocksOf(runs: [(k: number) => number, number][]): number[] {
  const h = new BlockHasher();
  for (const [id, n] of runs) for (let k = 0; k < n; k++) h.push(id(k));
  return h.keys;
}

function sharedPrefix(s: ReuseShape, prefixes: number, prefixLen: number, inputLen: number): LengthPair[] {
  const out = s.outputLen ?? 128;
  return Array.from({ length: s.numPrompts }, (_, i) => {
    const p = i % prefixes;
    return {
      promptLen: prefixLen + inputLen,
      outputLen: out,
      blocks: blocksOf([
        [(k) => shared(p, k), prefixLen],
        [(k) => own(i, k), inputLen + out],
      ]),
    };
  });
}

/** Users' conversations turn by turn (all first turns, then all second turns, ...). */
function multiTurn(shape: MultiTurnShape): LengthPair[] {
  const { users, turns, systemLen, userLen, replyLen } = shape;
  const reqs: LengthPair[] = [];
  for (let t = 0; t < turns; t++)
    for (let u = 0; u < users; u++) {
      const runs: [(k: number) => number, number][] = [[(k) => shared(0, k), systemLen]];
      for (let j = 0; j <= t; j++) {
        const base = (u * turns + j) * 2;
        runs.push([(k) => own(base, k), userLen], [(k) => own(base + 1, k), replyLen]);
      }
      reqs.push({ promptLen: systemLen + t * (userLen + replyLen) + userLen, outputLen: replyLen, blocks: blocksOf(runs) });
    }
  return reqs;
}

/** A Mooncake trace's requests: equal hash ids are equal blocks of `blockSize` tokens. */
function trace(path: string, blockSize: number, max: number): LengthPair[] | undefined {
  if (!existsSync(path)) return undefined;
  const reqs: LengthPair[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (reqs.length >= max) break;
    if (!line.trim()) continue;
    let r: { input_length?: unknown; output_length?: unknown; hash_ids?: unknown };
    try {
      r = JSON.parse(line) as typeof r;
    } catch {
      continue;
    }
    const input = typeof r.input_length === 'number' ? Math.max(1, r.input_length) : 1;
    const output = typeof r.output_length === 'number' ? Math.max(1, r.output_length) : 1;
    const ids = Array.isArray(r.hash_ids) ? (r.hash_ids as unknown[]).filter((x): x is number => typeof x === 'number') : [];
    const i = reqs.length;
    const h = new BlockHasher();
    for (let k = 0; k < input; k++) {
      const b = Math.floor(k / blockSize);
      h.push(b < ids.length ? shared(ids[b]!, k % blockSize) : own(i, k));
    }
    for (let k = 0; k < output; k++) h.push(own(i, input + k));
    reqs.push({ promptLen: input, outputLen: output, blocks: h.keys });
  }
  return reqs.length ? reqs : undefined;
}

/** The scenario's requests with their blocks when it has reuse (workloadReuse), else undefined. */
export function reuseRequests(s: ReuseShape): LengthPair[] | undefined {
  if (!(DATASETS as readonly string[]).includes(s.dataset)) return undefined;
  const scenario: Scenario = {
    ...s,
    name: s.name ?? '',
    label: s.label ?? '',
    seed: s.seed ?? 0,
    maxConcurrency: s.maxConcurrency ?? null,
    dataset: s.dataset as DatasetName,
  };
  if (!workloadReuse(scenario).has) return undefined;
  switch (s.dataset) {
    case 'random':
      return sharedPrefix(s, 1, s.prefixLen ?? 0, s.inputLen ?? 1024);
    case 'prefix_repetition':
      return sharedPrefix(s, s.numPrefixes ?? 10, s.prefixLen ?? 256, s.inputLen ?? 256);
    case 'multi_turn':
      return multiTurn(multiTurnShapeOf(scenario));
    case 'mooncake_trace':
      return s.datasetPath ? trace(s.datasetPath, s.traceBlockSize ?? 512, s.numPrompts) : undefined;
    default:
      return undefined;
  }
}
