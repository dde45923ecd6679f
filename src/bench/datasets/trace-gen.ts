// A synthetic trace in the Mooncake format (mooncake-trace.ts reads it back), written by servelab
// itself with no download, deterministic by seed: sessions arrive as a Poisson process; each
// opens with one of a few shared system prompts (the same hash blocks for every session that
// draws it) and grows turn by turn (turn k resends turn k-1's blocks plus new ones), the way a
// chat product or a coding agent resends its context. One JSON object per line, in time order.
import { PyRandom } from './rng.js';
import { UserError } from '../../core/errors.js';

export interface TraceGenSpec {
  /** Lines to write (default 100). */
  requests?: number;
  /** Mean requests per second over the trace (default 2). */
  rate?: number;
  /** Turns per session (default 4; 1 = independent requests). */
  turns?: number;
  /** Distinct shared system prompts (default 2). */
  prefixes?: number;
  /** Blocks of each system prompt (default 2). */
  prefixBlocks?: number;
  /** New blocks each turn adds (default 1). */
  turnBlocks?: number;
  /** Tokens per block: input_length = blocks x block size (default 512, Mooncake's). */
  blockSize?: number;
  /** Output tokens asked per request (default 64). */
  outputLen?: number;
  /** Seconds between a session's turns (default 5). */
  thinkTimeS?: number;
  seed?: number;
}

export interface TraceLine {
  timestamp: number;
  input_length: number;
  output_length: number;
  hash_ids: number[];
  session_id?: string;
}

function positiveInt(name: string, v: number, min = 1): number {
  if (!Number.isInteger(v) || v < min) throw new UserError(`trace-gen: --${name} must be an integer >= ${min}, got ${v}`);
  return v;
}

export function generateTrace(spec: TraceGenSpec = {}): TraceLine[] {
  const requests = positiveInt('requests', spec.requests ?? 100);
  const turns = positiveInt('turns', spec.turns ?? 4);
  const prefixes = positiveInt('prefixes', spec.prefixes ?? 2);
  const prefixBlocks = positiveInt('prefix-blocks', spec.prefixBlocks ?? 2, 0);
  const turnBlocks = positiveInt('turn-blocks', spec.turnBlocks ?? 1);
  const blockSize = positiveInt('block-size', spec.blockSize ?? 512);
  const outputLen = positiveInt('output-len', spec.outputLen ?? 64);
  const rate = spec.rate ?? 2;
  if (!(rate > 0) || !Number.isFinite(rate)) throw new UserError(`trace-gen: --rate must be a number > 0, got ${rate}`);
  const think = spec.thinkTimeS ?? 5;
  if (!(think >= 0) || !Number.isFinite(think)) throw new UserError(`trace-gen: --think-time must be a number >= 0, got ${think}`);
  const rng = new PyRandom(spec.seed ?? 0);
  // Hash ids 0.. are the system prompts' blocks; every later block is new.
  let nextHash = prefixes * prefixBlocks;
  const lines: TraceLine[] = [];
  const sessionRate = rate / turns;
  let start = 0;
  for (let s = 0; lines.length < requests; s++) {
    start += rng.gamma(1, 1 / sessionRate);
    const p = rng.randbelow(prefixes);
    const ctx = Array.from({ length: prefixBlocks }, (_, b) => p * prefixBlocks + b);
    for (let k = 0; k < turns && lines.length < requests; k++) {
      for (let b = 0; b < turnBlocks; b++) ctx.push(nextHash++);
      lines.push({
        timestamp: Math.round((start + k * think) * 1000),
        input_length: ctx.length * blockSize,
        output_length: outputLen,
        hash_ids: ctx.slice(),
        ...(turns > 1 ? { session_id: `s${s}` } : {}),
      });
    }
  }
  return lines.sort((a, b) => a.timestamp - b.timestamp);
}

/** The trace as JSONL text. */
export function traceJsonl(lines: readonly TraceLine[]): string {
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}
