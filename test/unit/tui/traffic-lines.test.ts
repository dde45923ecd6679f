// Under a stage's table on the Results page: the winner's hit rate and TTFT by turn, on one line
// when it fits and on two at 80 columns, so conversations/s is never cut off.
import { describe, expect, it } from 'vitest';
import { trafficLines } from '../../../src/tui/panels/results/traffic-lines.js';
import type { StageTable } from '../../../src/tui/state/results.js';
import { result } from '../../helpers/tui/fixtures.js';

const r = {
  ...result('vllm', 'engine', 5900),
  cache: { hitRate: 0.87, possibleReuse: 0.75 },
  turnTtftMs: [78, 54, 62],
  conversationsPerS: 1.9,
};
const table = {
  stage: 'engine',
  rows: [{ result: r, label: 'vllm defaults', gainPct: null, dollarsPerMtok: null, isWinner: true, isCarried: false, isReference: true }],
} as unknown as StageTable;

describe('traffic lines', () => {
  it('one line when wide enough', () => {
    expect(trafficLines(table, 200)).toEqual([
      'vllm defaults: prefix cache hit 87% of 75% possible; TTFT by turn 78, 54, 62 ms; 1.9 conversations/s',
    ]);
  });
  it('the cache and the turns on lines of their own at 80 columns', () => {
    expect(trafficLines(table, 80)).toEqual([
      'vllm defaults: prefix cache hit 87% of 75% possible',
      '  TTFT by turn 78, 54, 62 ms; 1.9 conversations/s',
    ]);
  });
});
