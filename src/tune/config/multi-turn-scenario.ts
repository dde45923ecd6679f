// The multi-turn tuning workload, named on the command line as
// 'multi-turn:USERS/TURNS[/SYSTEM/IN/OUT]' (or plain 'multi-turn': the bench defaults): USERS
// conversations in flight at once (the scenario's concurrency), TURNS user turns each, on a
// SYSTEM-token system prompt all conversations share, IN tokens per user message and OUT reply
// tokens. The conversations and the closed loop are src/bench/multiturn's; this only names them.
import { UserError } from '../../core/errors.js';
import type { Scenario } from '../../core/scenario.js';
import type { Workload } from '../../profiles/schema/profile.js';
import { checkMultiTurn, MULTI_TURN_DEFAULTS as D, type MultiTurnSpec } from '../../bench/multiturn/spec.js';

/** Conversations each user runs in a tuning measurement (the bench's default is one). */
const CONVERSATIONS_PER_USER = 2;

const FORM = 'multi-turn:USERS/TURNS[/SYSTEM/IN/OUT], e.g. multi-turn:8/6 or multi-turn:8/6/1000/128/64';

/** The scenario, or undefined when `text` is not a multi-turn name. */
export function parseMultiTurnScenario(text: string, opts: { numPrompts?: number; seed: number }): Scenario | undefined {
  const t = text.trim().toLowerCase();
  if (t !== 'multi-turn' && t !== 'multi_turn' && !/^multi[-_]turn:/.test(t)) return undefined;
  const body = t.includes(':') ? t.slice(t.indexOf(':') + 1) : `${D.users}/${D.turns}`;
  const parts = body.split('/');
  if (!(parts.length === 2 || parts.length === 5) || !parts.every((p) => /^\d+$/.test(p)))
    throw new UserError(`scenario '${text}': use ${FORM}`);
  const [users, turns, system, input, output] = [...parts.map(Number), D.systemPromptLen, D.inputLen, D.outputLen].slice(0, 5) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (!(users >= 1 && turns >= 1 && input >= 1 && output >= 1))
    throw new UserError(`scenario '${text}': users, turns, message and reply tokens must be at least 1 (${FORM})`);
  return multiTurnScenario({
    users,
    turns,
    systemPromptLen: system,
    inputLen: input,
    outputLen: output,
    conversations: opts.numPrompts ?? users * CONVERSATIONS_PER_USER,
    seed: opts.seed,
  });
}

interface Shape {
  users: number;
  turns: number;
  systemPromptLen: number;
  inputLen: number;
  outputLen: number;
  conversations: number;
  seed: number;
}

function multiTurnScenario(s: Shape): Scenario {
  return {
    name: `multi-turn-${s.users}-${s.turns}-${s.systemPromptLen}-${s.inputLen}-${s.outputLen}`,
    label: `multi-turn ${s.users} users x ${s.turns} turns (${s.conversations} conversations)`,
    dataset: 'multi_turn',
    inputLen: s.inputLen,
    outputLen: s.outputLen,
    // A conversation is the unit a user runs: numPrompts counts conversations, not requests.
    numPrompts: s.conversations,
    seed: s.seed,
    maxConcurrency: s.users,
    turns: s.turns,
    systemPromptLen: s.systemPromptLen,
  };
}

/**
 * The bench spec a multi-turn scenario runs. No think time: a tuning measurement times the
 * server, and a pause would be wall-clock time a simulated server does not run at.
 */
export function multiTurnSpecOf(s: Scenario): MultiTurnSpec {
  return checkMultiTurn({
    users: s.maxConcurrency ?? D.users,
    conversations: s.numPrompts,
    turns: s.turns ?? D.turns,
    systemPromptLen: s.systemPromptLen ?? D.systemPromptLen,
    inputLen: s.inputLen ?? D.inputLen,
    outputLen: s.outputLen ?? D.outputLen,
    thinkTimeS: 0,
    seed: s.seed,
  });
}

/** `servelab bench`'s multi-turn flags that run the same conversations (users: --max-concurrency). */
export function multiTurnBenchArgs(s: Scenario): string[] {
  const m = multiTurnSpecOf(s);
  return [
    '--dataset-name multi_turn',
    `--multi-turn-conversations ${m.conversations}`,
    `--multi-turn-turns ${m.turns}`,
    `--multi-turn-system-prompt-len ${m.systemPromptLen}`,
    `--multi-turn-input-len ${m.inputLen}`,
    `--multi-turn-output-len ${m.outputLen}`,
    '--multi-turn-think-time 0',
  ];
}

/** The multi-turn workload's own fields, the same in a Scenario and a profile. */
export function multiTurnFields(s: Pick<Scenario, 'turns' | 'systemPromptLen'>) {
  return {
    ...(s.turns !== undefined ? { turns: s.turns } : {}),
    ...(s.systemPromptLen !== undefined ? { systemPromptLen: s.systemPromptLen } : {}),
  };
}

/** The scenario that re-runs a recorded multi-turn workload; undefined for the others. */
export function multiTurnScenarioForWorkload(w: Workload): Scenario | undefined {
  if (w.dataset !== 'multi_turn') return undefined;
  return {
    name: w.scenario,
    label: w.label ?? w.scenario,
    dataset: 'multi_turn',
    inputLen: w.inputLen ?? D.inputLen,
    outputLen: w.outputLen ?? D.outputLen,
    numPrompts: w.numPrompts,
    seed: w.seed,
    maxConcurrency: w.maxConcurrency ?? D.users,
    turns: w.turns ?? D.turns,
    systemPromptLen: w.systemPromptLen ?? D.systemPromptLen,
  };
}
