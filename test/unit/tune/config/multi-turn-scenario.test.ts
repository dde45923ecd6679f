// The multi-turn tuning workload as the tuner, replay and the profile carry it: named on the
// command line (bad forms are one line), run through the bench's driver, recorded and read back.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../src/core/errors.js';
import { workloadReuse } from '../../../../src/core/workload-reuse.js';
import { benchCommand, parseScenario } from '../../../../src/tune/config/scenarios.js';
import { multiTurnSpecOf } from '../../../../src/tune/config/multi-turn-scenario.js';
import { scenarioForWorkload, workloadFromScenario } from '../../../../src/tune/config/profile-workload.js';
import { WorkloadSchema } from '../../../../src/profiles/schema/profile.js';
import { configFromFlags } from '../../../../src/tune/request/from-flags.js';
import { workloadLine } from '../../../../src/profiles/report/lines.js';

const opts = { scale: 1 };

describe('multi-turn:USERS/TURNS[/SYSTEM/IN/OUT]', () => {
  it('names users, turns and lengths; users are the concurrency, two conversations each', () => {
    const s = parseScenario('multi-turn:5/3/400/32/16', opts);
    expect(s).toMatchObject({
      dataset: 'multi_turn',
      maxConcurrency: 5,
      turns: 3,
      systemPromptLen: 400,
      inputLen: 32,
      outputLen: 16,
      numPrompts: 10,
      name: 'multi-turn-5-3-400-32-16',
    });
    expect(multiTurnSpecOf(s)).toMatchObject({ users: 5, conversations: 10, turns: 3, systemPromptLen: 400, thinkTimeS: 0 });
  });

  it('takes the bench defaults for what it does not name, and --num-prompts as conversations', () => {
    expect(parseScenario('multi-turn:4/2', { ...opts, numPrompts: 7 })).toMatchObject({
      maxConcurrency: 4,
      turns: 2,
      systemPromptLen: 1000,
      inputLen: 128,
      outputLen: 64,
      numPrompts: 7,
    });
    expect(parseScenario('multi-turn', opts)).toMatchObject({ maxConcurrency: 8, turns: 6 });
  });

  it.each(['multi-turn:4', 'multi-turn:4/2/100', 'multi-turn:0/2', 'multi-turn:4/0', 'multi-turn:a/b', 'multi-turn:4/2/0/0/8'])(
    "'%s' is a one-line UserError that shows the form",
    (text) => {
      let err: unknown;
      try {
        parseScenario(text, opts);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UserError);
      const msg = (err as Error).message;
      expect(msg.split('\n')).toHaveLength(1);
      expect(msg).toContain('multi-turn:USERS/TURNS');
    },
  );

  it('survives a profile and reproduces as a servelab bench command', () => {
    const s = parseScenario('multi-turn:3/4/200/20/10', opts);
    const recorded = WorkloadSchema.parse(workloadFromScenario(s));
    expect(recorded).toMatchObject({ dataset: 'multi_turn', turns: 4, systemPromptLen: 200, maxConcurrency: 3, numPrompts: 6 });
    expect(scenarioForWorkload(recorded, { simulated: false }).scenario).toEqual(s);
    expect(benchCommand(s, 'm')).toMatch(
      /^servelab bench .*--dataset-name multi_turn --multi-turn-conversations 6 --multi-turn-turns 4 --multi-turn-system-prompt-len 200 .*--max-concurrency 3$/,
    );
  });

  it("the possible reuse is the scenario's own shape: more turns resend more", () => {
    const few = workloadReuse(parseScenario('multi-turn:4/2/100/50/50', opts));
    const many = workloadReuse(parseScenario('multi-turn:4/8/100/50/50', opts));
    expect(few.has && many.has).toBe(true);
    expect(many.share).toBeGreaterThan(few.share);
  });
  it('users are named once: --max-concurrency beside a multi-turn scenario is one line', () => {
    const flags = { sim: true, model: 'Qwen/Qwen3-14B', scenario: 'multi-turn:4/2', validation: 'none' };
    expect(configFromFlags(flags).scenario).toMatchObject({ dataset: 'multi_turn', maxConcurrency: 4 });
    expect(() => configFromFlags({ ...flags, 'max-concurrency': '3' })).toThrow(/names its users in the scenario/);
  });

  it('the report reads conversations, turns and users', () => {
    const w = WorkloadSchema.parse(workloadFromScenario(parseScenario('multi-turn:3/4', opts)));
    expect(workloadLine(w)).toBe('multi-turn-3-4-1000-128-64 (multi_turn, 6 conversations of 4 turns, 3 users, seed 42)');
  });
});
