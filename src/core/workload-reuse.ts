// Does a workload resend what it sent before, and how much: the one owner of that answer. The
// planner offers the cache stage by it, the performance model predicts hits from the same shape
// (src/sim/predict/reuse-requests.ts), and the plan says it in one line. The share is what a
// prefix cache with room for everything could serve: the leading prompt tokens an earlier request
// of the same workload already sent, over all prompt tokens (the client measures the same figure
// from the prompts themselves when it runs them).
import { existsSync, readFileSync, statSync } from 'node:fs';
import type { Scenario } from './scenario.js';

export interface WorkloadReuse {
  /** Share of the prompt tokens an earlier request already sent, 0..1. */
  share: number;
  /** The share is large enough for a cache stage to matter (MIN_CACHE_STAGE_REUSE). */
  has: boolean;
  /** One line: where the reuse comes from, or why there is none. */
  why: string;
}

/** Below this share of reusable prompt tokens a cache stage measures noise, not the cache. */
export const MIN_CACHE_STAGE_REUSE = 0.05;

/**
 * The multi-turn shape assumed when a scenario names none: users each holding a conversation of
 * `turns` turns after one system prompt shared by all of them; every turn sends the conversation so
 * far plus a new user message. (The multi_turn workload's own generator defines the real shape.)
 */
export const MULTI_TURN_SHAPE: MultiTurnShape = { users: 8, turns: 6, systemLen: 1000, userLen: 100, replyLen: 200 };

export interface MultiTurnShape {
  users: number;
  turns: number;
  /** Tokens of the system prompt every user's conversation starts with. */
  systemLen: number;
  userLen: number;
  replyLen: number;
}

/** A multi-turn scenario's own shape (each conversation counted as a user), else MULTI_TURN_SHAPE. */
export function multiTurnShapeOf(s: Pick<Scenario, 'turns' | 'systemPromptLen' | 'inputLen' | 'outputLen' | 'numPrompts'>): MultiTurnShape {
  if (s.turns === undefined) return MULTI_TURN_SHAPE;
  return {
    users: Math.max(1, s.numPrompts),
    turns: s.turns,
    systemLen: s.systemPromptLen ?? MULTI_TURN_SHAPE.systemLen,
    userLen: s.inputLen ?? MULTI_TURN_SHAPE.userLen,
    replyLen: s.outputLen ?? MULTI_TURN_SHAPE.replyLen,
  };
}

/** vLLM's prefix_repetition defaults (--prefix-repetition-prefix-len, -suffix-len, -num-prefixes). */
const PREFIX_REPETITION = { prefixLen: 256, suffixLen: 256, numPrefixes: 10 } as const;
/** Mooncake's traces count one hash id as 512 tokens. */
const TRACE_BLOCK = 512;

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

function result(share: number, why: string): WorkloadReuse {
  const s = Math.max(0, Math.min(1, share));
  return { share: s, has: s >= MIN_CACHE_STAGE_REUSE, why };
}

/** Reusable share of a multi-turn workload of this shape (prompts only: replies are the server's). */
export function multiTurnShare(shape: MultiTurnShape): number {
  const { users, turns, systemLen: S, userLen: M, replyLen: R } = shape;
  let total = 0;
  let reusable = 0;
  for (let u = 0; u < users; u++)
    for (let k = 1; k <= turns; k++) {
      total += S + (k - 1) * (M + R) + M;
      // Turn 1: the system prompt, once another user sent it; turn k: the previous turn's whole prompt.
      reusable += k === 1 ? (u > 0 ? S : 0) : S + (k - 2) * (M + R) + M;
    }
  return total > 0 ? reusable / total : 0;
}

const traceCache = new Map<string, { mtimeMs: number; share: number; requests: number }>();

/** A Mooncake trace's reuse: each request's leading hash ids an earlier request already sent. */
function traceShare(path: string, blockSize: number): { share: number; requests: number } | undefined {
  if (!existsSync(path)) return undefined;
  const key = `${path}|${blockSize}`;
  const mtimeMs = statSync(path).mtimeMs;
  const hit = traceCache.get(key);
  if (hit && hit.mtimeMs === mtimeMs) return hit;
  const seen = new Set<number>();
  let total = 0;
  let reusable = 0;
  let requests = 0;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let r: { input_length?: unknown; hash_ids?: unknown };
    try {
      r = JSON.parse(line) as typeof r;
    } catch {
      continue;
    }
    const input = typeof r.input_length === 'number' ? r.input_length : 0;
    const ids = Array.isArray(r.hash_ids) ? (r.hash_ids as unknown[]).filter((x): x is number => typeof x === 'number') : [];
    let lead = 0;
    while (lead < ids.length && seen.has(ids[lead]!)) lead++;
    for (const id of ids) seen.add(id);
    total += input;
    reusable += Math.min(input, lead * blockSize);
    requests++;
  }
  const out = { mtimeMs, share: total > 0 ? reusable / total : 0, requests };
  traceCache.set(key, out);
  return out;
}

/** The workload's possible prefix reuse, from its definition (no prompt is generated). */
export function workloadReuse(s: Scenario): WorkloadReuse {
  const n = Math.max(1, s.numPrompts);
  switch (s.dataset) {
    case 'sharegpt':
      return result(0, "ShareGPT's first turns share no prefix: each request opens a different conversation (vllm-project/vllm#54783)");
    case 'custom':
      return result(
        0,
        s.name.startsWith('sharegpt-like')
          ? 'ShareGPT-like single prompts, each opening a different conversation, share no prefix'
          : 'a JSONL of single prompts, taken as unrelated: servelab does not read them before the session',
      );
    case 'random': {
      const p = s.prefixLen ?? 0;
      if (p <= 0) return result(0, 'random prompts without a shared prefix (--random-prefix-len 0)');
      const share = ((n - 1) * p) / (n * (p + (s.inputLen ?? 1024)));
      return result(share, `every prompt starts with the same ${p}-token prefix: ${pct(share)} of prompt tokens were sent before`);
    }
    case 'prefix_repetition': {
      const p = s.prefixLen ?? PREFIX_REPETITION.prefixLen;
      const k = s.numPrefixes ?? PREFIX_REPETITION.numPrefixes;
      const share = (Math.max(0, n - k) * p) / (n * (p + (s.inputLen ?? PREFIX_REPETITION.suffixLen)));
      return result(share, `${k} shared ${p}-token prefixes over ${n} prompts: ${pct(share)} of prompt tokens were sent before`);
    }
    case 'multi_turn': {
      const share = multiTurnShare(multiTurnShapeOf(s));
      return result(share, `every turn resends the conversation so far: about ${pct(share)} of prompt tokens were sent before`);
    }
    case 'mooncake_trace': {
      const t = s.datasetPath ? traceShare(s.datasetPath, s.traceBlockSize ?? TRACE_BLOCK) : undefined;
      if (!t) return result(0, `the trace ${s.datasetPath ?? '(no file)'} cannot be read here, so its reuse is not known`);
      return result(t.share, `the trace's hash ids repeat: ${pct(t.share)} of its ${t.requests} requests' prompt tokens were sent before`);
    }
  }
}
