// A multi-turn scenario's load is its users: sweeps set users with as many conversations each as
// the workload had, a capacity probe runs whole conversations, and neither takes a rate.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../../src/core/errors.js';
import { parseSweep, sweepScenarios } from '../../../../src/sweep/spec.js';
import { parseScenario } from '../../../../src/tune/config/scenarios.js';
import { multiTurnProbe } from '../../../../src/tune/run/scenario-bench.js';

const mt = parseScenario('multi-turn:4/3/100/16/8', { scale: 1 });

describe('multi-turn load', () => {
  it('a concurrency sweep sets the users, with the workload conversations per user', () => {
    const points = sweepScenarios(mt, parseSweep('concurrency:1,16'));
    expect(points.map((p) => [p.maxConcurrency, p.numPrompts])).toEqual([
      [1, 2],
      [16, 32],
    ]);
    expect(points.every((p) => p.dataset === 'multi_turn' && p.turns === 3)).toBe(true);
  });

  it('a rate sweep or a capacity search by rate is one line that says to use users', () => {
    expect(() => sweepScenarios(mt, parseSweep('rate:1,2'))).toThrow(UserError);
    expect(() => multiTurnProbe(mt, 'm', 'rate')).toThrow(/search its capacity by concurrency \(its users\)/);
  });

  it('other scenarios keep the bench run (no probe of their own)', () => {
    expect(multiTurnProbe(parseScenario('random:10/10', { scale: 1 }), 'm', 'rate')).toBeUndefined();
    expect(typeof multiTurnProbe(mt, 'm', 'concurrency')).toBe('function');
  });
});
