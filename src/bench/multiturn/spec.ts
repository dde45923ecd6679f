// What a multi-turn run is asked for: users (conversations in flight at once), conversations,
// turns, lengths, think time and seed, with the defaults that make `--dataset-name multi_turn`
// work with no other flag. Checked once, before anything is loaded: bad input is one line.
import { UserError } from '../../core/errors.js';

export interface MultiTurnSpec {
  /** Conversations in flight at once: each user runs one conversation at a time (--max-concurrency). */
  users: number;
  /** Conversations in all; a user whose conversation ended starts the next one (default: one per user, or the file's). */
  conversations?: number;
  /** User turns per generated conversation (default 6); for a conversations file, the most taken from each (default all). */
  turns?: number;
  /** Tokens of the system prompt every generated conversation shares. */
  systemPromptLen: number;
  /** Tokens of each new user message, and of each reply asked for (max tokens). */
  inputLen: number;
  outputLen: number;
  /** Lengths are drawn from [len * (1 - r), len * (1 + r)]. */
  rangeRatio: number;
  /** Mean pause between a reply and the user's next message, seconds (exponential). */
  thinkTimeS: number;
  seed: number;
  /** vLLM's multi-turn input file: a generate_conversations config, or a list of conversations. */
  path?: string;
}

/** The defaults: 8 users, one conversation each, 6 turns on a 1,000-token system prompt. */
export const MULTI_TURN_DEFAULTS = {
  users: 8,
  turns: 6,
  systemPromptLen: 1000,
  inputLen: 128,
  outputLen: 64,
  rangeRatio: 0.25,
  thinkTimeS: 1,
} as const;

function int(flag: string, v: number, min: number): number {
  if (!Number.isInteger(v) || v < min) throw new UserError(`${flag} must be an integer >= ${min}, got ${v}`);
  return v;
}

/** The spec with defaults filled, or a one-line UserError naming the flag. */
export function checkMultiTurn(given: Partial<MultiTurnSpec>): MultiTurnSpec {
  const d = MULTI_TURN_DEFAULTS;
  const users = int('--max-concurrency (multi_turn: concurrent users)', given.users ?? d.users, 1);
  const rangeRatio = given.rangeRatio ?? d.rangeRatio;
  if (!(rangeRatio >= 0 && rangeRatio < 1)) throw new UserError(`--multi-turn-range-ratio must be in [0, 1), got ${rangeRatio}`);
  const thinkTimeS = given.thinkTimeS ?? d.thinkTimeS;
  if (!(thinkTimeS >= 0 && Number.isFinite(thinkTimeS)))
    throw new UserError(`--multi-turn-think-time must be a number of seconds >= 0, got ${thinkTimeS}`);
  return {
    users,
    ...(given.conversations !== undefined ? { conversations: int('--multi-turn-conversations', given.conversations, 1) } : {}),
    ...(given.turns !== undefined ? { turns: int('--multi-turn-turns', given.turns, 1) } : {}),
    systemPromptLen: int('--multi-turn-system-prompt-len', given.systemPromptLen ?? d.systemPromptLen, 0),
    inputLen: int('--multi-turn-input-len', given.inputLen ?? d.inputLen, 1),
    outputLen: int('--multi-turn-output-len', given.outputLen ?? d.outputLen, 1),
    rangeRatio,
    thinkTimeS,
    seed: given.seed ?? 0,
    ...(given.path !== undefined ? { path: given.path } : {}),
  };
}
