// `servelab bench --dataset-name multi_turn`'s own flags (vLLM's `bench serve` has no multi-turn
// dataset, so the names are servelab's, in the `--<dataset>-*` style of vLLM's dataset flags),
// and the spec they make. --max-concurrency counts users; --seed and --dataset-path (vLLM's
// multi-turn input file) are the shared flags.
import type { FlagSpec } from './flags.js';
import { checkMultiTurn, MULTI_TURN_DEFAULTS as D, type MultiTurnSpec } from '../bench/multiturn/spec.js';

export const MULTI_TURN_FLAGS: Record<string, FlagSpec> = {
  'multi-turn-turns': {
    kind: 'number',
    help: 'multi_turn: user turns per conversation (with --dataset-path: the most taken from each)',
    default: String(D.turns),
  },
  'multi-turn-conversations': {
    kind: 'number',
    help: 'multi_turn: conversations in all; a user starts the next when one ends',
    default: 'one per user',
  },
  'multi-turn-system-prompt-len': {
    kind: 'number',
    help: 'multi_turn: tokens of the system prompt every conversation shares',
    default: String(D.systemPromptLen),
  },
  'multi-turn-input-len': { kind: 'number', help: 'multi_turn: tokens of each new user message', default: String(D.inputLen) },
  'multi-turn-output-len': { kind: 'number', help: 'multi_turn: reply tokens asked for at each turn', default: String(D.outputLen) },
  'multi-turn-range-ratio': {
    kind: 'number',
    help: 'multi_turn: message and reply lengths vary within [1-r, 1+r]',
    default: String(D.rangeRatio),
  },
  'multi-turn-think-time': {
    kind: 'number',
    help: "multi_turn: mean seconds between a reply and the user's next message (exponential)",
    default: String(D.thinkTimeS),
  },
};

type Flags = Record<string, unknown>;

const given = <T>(key: string, v: T | undefined) => (v !== undefined ? { [key]: v } : {});

/** The multi-turn spec of the flags, checked (a one-line UserError names the flag). */
export function multiTurnSpec(flags: Flags): MultiTurnSpec {
  const n = (name: string) => flags[name] as number | undefined;
  return checkMultiTurn({
    ...given('users', n('max-concurrency')),
    ...given('conversations', n('multi-turn-conversations')),
    ...given('turns', n('multi-turn-turns')),
    ...given('systemPromptLen', n('multi-turn-system-prompt-len')),
    ...given('inputLen', n('multi-turn-input-len')),
    ...given('outputLen', n('multi-turn-output-len')),
    ...given('rangeRatio', n('multi-turn-range-ratio')),
    ...given('thinkTimeS', n('multi-turn-think-time')),
    ...given('seed', n('seed')),
    ...given('path', flags['dataset-path'] as string | undefined),
  });
}
