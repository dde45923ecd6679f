// The Mooncake trace format (kvcache-ai/Mooncake's mooncake_trace.jsonl), as AIPerf reads it under
// the name mooncake_trace (ai-dynamo/aiperf src/aiperf/dataset/loader/models.py, MooncakeTrace):
// one JSON object per line with `timestamp` (ms since the trace began), `input_length`,
// `output_length` and `hash_ids` (one id per block of prompt tokens; equal ids are equal blocks),
// or `text_input` instead of the length; AIPerf's `session_id` (entries of one session are sent
// one after another) and `delay` (ms to wait after the session's previous entry) are honoured.
// Equal hash ids become equal token blocks of --trace-block-size tokens (512, the block size of
// Mooncake's published traces), so the trace's reuse is real on the server.
import { readFileSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { PyRandom } from './rng.js';
import { idsToText, textLen, textVocab } from './synthetic-text.js';
import type { TokenCounter } from './tokenizer.js';
import type { SampledRequest } from '../types.js';

export const TRACE_BLOCK_SIZE_DEFAULT = 512;

export interface TraceSpec {
  path?: string;
  /** The first N entries (in time order) are sent. */
  numPrompts: number;
  /** Tokens per hash id (default 512). */
  blockSize?: number;
  /** Replay this many times faster than recorded (default 1; 2 = twice the rate). */
  speedup?: number;
  seed?: number;
}

export interface TraceEntry {
  timestamp?: number;
  inputLength?: number;
  textInput?: string;
  outputLength?: number;
  hashIds?: number[];
  sessionId?: string;
  delay?: number;
}

const num = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

function entryOf(o: Record<string, unknown>, where: string): TraceEntry {
  const e: TraceEntry = {};
  if (o.timestamp !== undefined && o.timestamp !== null) {
    if (!num(o.timestamp)) throw new UserError(`${where}: "timestamp" must be a number of ms >= 0`);
    e.timestamp = o.timestamp;
  }
  if (o.input_length !== undefined && o.input_length !== null) {
    if (!num(o.input_length) || !Number.isInteger(o.input_length) || o.input_length < 1)
      throw new UserError(`${where}: "input_length" must be a positive integer`);
    e.inputLength = o.input_length;
  }
  if (typeof o.text_input === 'string') e.textInput = o.text_input;
  if (e.inputLength === undefined && e.textInput === undefined)
    throw new UserError(`${where}: each line needs "input_length" (or "text_input"), as in the Mooncake trace format`);
  if (o.output_length !== undefined && o.output_length !== null) {
    if (!num(o.output_length) || !Number.isInteger(o.output_length) || o.output_length < 1)
      throw new UserError(`${where}: "output_length" must be a positive integer`);
    e.outputLength = o.output_length;
  }
  if (o.hash_ids !== undefined && o.hash_ids !== null) {
    if (!Array.isArray(o.hash_ids) || !o.hash_ids.every((h) => Number.isInteger(h)))
      throw new UserError(`${where}: "hash_ids" must be a list of integers`);
    e.hashIds = o.hash_ids as number[];
  }
  if (o.session_id !== undefined && o.session_id !== null) e.sessionId = String(o.session_id);
  if (o.delay !== undefined && o.delay !== null) {
    if (!num(o.delay)) throw new UserError(`${where}: "delay" must be a number of ms >= 0`);
    e.delay = o.delay;
  }
  return e;
}

export function readTrace(path: string): TraceEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new UserError(`${path}: cannot read the trace (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const out: TraceEntry[] = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    let o: unknown;
    try {
      o = JSON.parse(raw);
    } catch {
      throw new UserError(`${path}:${i + 1}: not a JSON object (a Mooncake trace has one per line)`);
    }
    if (!o || typeof o !== 'object' || Array.isArray(o)) throw new UserError(`${path}:${i + 1}: not a JSON object`);
    out.push(entryOf(o as Record<string, unknown>, `${path}:${i + 1}`));
  });
  if (out.length === 0) throw new UserError(`${path}: the trace has no requests`);
  return out;
}

/** Token ids of one hash block: the same for the same (seed, hash id), whoever asks. */
class Blocks {
  private readonly cache = new Map<number, number[]>();
  constructor(
    private readonly size: number,
    private readonly vocab: number,
    private readonly seed: number,
  ) {}
  get(hash: number): number[] {
    let b = this.cache.get(hash);
    if (!b) {
      const rng = new PyRandom(this.seed * 1_000_003 + hash);
      b = Array.from({ length: this.size }, () => rng.randbelow(this.vocab));
      this.cache.set(hash, b);
    }
    return b;
  }
}

export function sampleTrace(spec: TraceSpec, counter: TokenCounter): SampledRequest[] {
  if (!spec.path) throw new UserError('the mooncake_trace dataset needs --dataset-path FILE (a JSONL trace)');
  const blockSize = spec.blockSize ?? TRACE_BLOCK_SIZE_DEFAULT;
  if (!Number.isInteger(blockSize) || blockSize < 1) throw new UserError(`--trace-block-size must be a positive integer, got ${blockSize}`);
  const speedup = spec.speedup ?? 1;
  if (!(speedup > 0) || !Number.isFinite(speedup)) throw new UserError(`--trace-speedup must be a number > 0, got ${speedup}`);
  const seed = spec.seed ?? 0;
  const all = readTrace(spec.path);
  // Time order (stable) when every line is timed, so the sender's schedule never waits behind a
  // later entry; else file order (untimed lines leave with the line before them).
  const timed = all.every((e) => e.timestamp !== undefined);
  const order = timed
    ? all
        .map((e, i) => ({ e, i }))
        .sort((a, b) => a.e.timestamp! - b.e.timestamp! || a.i - b.i)
        .map((x) => x.e)
    : all;
  const entries = order.slice(0, spec.numPrompts);
  const t0 = Math.min(...entries.map((e) => e.timestamp ?? Infinity).filter(Number.isFinite), Infinity);
  const vocab = textVocab(counter);
  const blocks = new Blocks(blockSize, vocab, seed);
  const lastOfSession = new Map<string, number>();
  const out: SampledRequest[] = [];
  entries.forEach((e, k) => {
    let prompt: string;
    let promptLen: number;
    if (e.inputLength !== undefined) {
      const ids: number[] = [];
      for (const h of e.hashIds ?? []) {
        if (ids.length >= e.inputLength) break;
        const b = blocks.get(h);
        ids.push(...b.slice(0, Math.min(blockSize, e.inputLength - ids.length)));
      }
      // Tokens past the hash blocks belong to this request alone.
      if (ids.length < e.inputLength) {
        const rng = new PyRandom(seed * 7_919 + 104_729 + k);
        while (ids.length < e.inputLength) ids.push(rng.randbelow(vocab));
      }
      prompt = idsToText(ids, counter);
      promptLen = textLen(prompt, ids, counter);
    } else {
      prompt = e.textInput!;
      promptLen = counter.count(prompt, false);
    }
    const prev = e.sessionId !== undefined ? lastOfSession.get(e.sessionId) : undefined;
    if (e.sessionId !== undefined) lastOfSession.set(e.sessionId, k);
    const arrivalS = e.timestamp !== undefined ? (e.timestamp - t0) / 1000 / speedup : k > 0 ? out[k - 1]!.arrivalS! : 0;
    out.push({
      prompt,
      promptLen,
      // AIPerf falls back to its --osl when a line has no output_length; servelab asks for 128, vLLM's random default.
      expectedOutputLen: e.outputLength ?? 128,
      arrivalS,
      ...(prev !== undefined ? { after: prev, ...(e.delay !== undefined ? { afterDelayS: e.delay / 1000 / speedup } : {}) } : {}),
    });
  });
  return out;
}
