// The session's final tied set: the last deciding stage's members, and an earlier stage's while the
// later stages kept that stage's winner (its members were measured against the same configuration).
import { describe, expect, it } from 'vitest';
import type { StageRecord } from '../../../../src/profiles/schema/profile.js';
import { decisionRecord } from '../../../../src/tune/stage/noise-record.js';

const ctx = { config: { marginPct: 2 } } as never;
const stage = (name: string, winnerId: string | null, tiedIds?: string[]): StageRecord => ({
  name,
  winnerId,
  gainPct: null,
  results: [],
  ...(tiedIds ? { tiedIds } : {}),
});

describe('final tied set', () => {
  it("joins an earlier stage's tied members while the later stages kept its winner", () => {
    const stages = [
      stage('engine', 'q', ['q']),
      stage('quantization', 'q4', ['q4', 'q8']),
      stage('slots', 's8', ['s8', 's16-unified']),
      stage('threads', 's8', ['s8', 's8-t2']),
    ];
    // q8 was compared with q4 on default slots, never with s8: the walk stops at the stage that kept another variant.
    expect(decisionRecord(ctx, stages, 's8').tiedIds).toEqual(['s8', 's8-t2', 's16-unified']);
  });

  it('a later stage that changed the configuration keeps only its own set', () => {
    const stages = [stage('slots', 's8', ['s8', 's16']), stage('threads', 's8-t2', ['s8-t2', 's8'])];
    expect(decisionRecord(ctx, stages, 's8-t2').tiedIds).toEqual(['s8-t2', 's8']);
  });

  it('skipped stages in between neither add nor end the walk while they carry the winner', () => {
    const stages = [stage('slots', 's8', ['s8', 's16']), stage('batching', 's8'), stage('threads', 's8', ['s8'])];
    expect(decisionRecord(ctx, stages, 's8').tiedIds).toEqual(['s8', 's16']);
  });

  it('no stage decided among runs: the winner alone', () => {
    expect(decisionRecord(ctx, [stage('engine', 'a')], 'a').tiedIds).toEqual(['a']);
  });
});
