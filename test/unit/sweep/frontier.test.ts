import { describe, expect, it } from 'vitest';
import { analyseSweeps, frontierNotes } from '../../../src/sweep/analyse.js';
import { chooseForSlo, paretoFrontier, toFrontierPoint } from '../../../src/sweep/frontier.js';
import { parseSlo } from '../../../src/core/slo-rule.js';
import { sweep } from '../../helpers/sweep/points.js';

const a = sweep('a', 'sglang fp8 dp-attn', [
  [1, 800, 8, 9],
  [8, 6000, 10, 12],
  [64, 14800, 20, 38],
  [512, 20000, 50, 90],
]);
const b = sweep('b', 'vllm baseline', [
  [1, 700, 9, 10], // dominated by a@1 (less tok/s/GPU and tok/s/user)
  [8, 6000, 10, 12], // ties a@8 exactly
  [64, 16000, 25, 55], // more tok/s/GPU than a@64, fewer tok/s/user: on the frontier
  [512, 19000, 50, 95], // same tok/s/user as a@512, fewer tok/s/GPU: dominated
]);

describe('the frontier', () => {
  it('computes per-point tok/s/GPU, tok/s/user and TTFT from vLLM metrics', () => {
    const p = toFrontierPoint(
      { variantId: 'a', label: 'x', load: { kind: 'concurrency', value: 64 }, metrics: a.points[2]!.metrics! },
      8,
      [],
    )!;
    expect(p.tokPerGpu).toBe(14800 / 8);
    expect(p.tokPerUser).toBe(1000 / 20);
    expect([p.ttftP50Ms, p.ttftP99Ms, p.goodput]).toEqual([84, 178, 1]);
    expect(
      toFrontierPoint({ variantId: 'a', label: 'x', load: { kind: 'concurrency', value: 1 }, metrics: { completed: 0 } }, 8, []),
    ).toBeNull();
  });

  it('removes dominated points and keeps ties, saying so', () => {
    const an = analyseSweeps([a, b], 8, []);
    const names = (ps: { variantId: string; load: { value: number } }[]) => ps.map((p) => `${p.variantId}@${p.load.value}`);
    expect(names(an.frontier.points)).toEqual(['a@512', 'b@64', 'a@64', 'a@8', 'b@8', 'a@1']);
    expect(names(an.frontier.dominated.map((d) => d.point)).sort()).toEqual(['b@1', 'b@512']);
    expect(an.frontier.dominated.find((d) => d.point.variantId === 'b' && d.point.load.value === 512)!.by.variantId).toBe('a');
    expect(an.frontier.ties).toHaveLength(1);
    expect(names(an.frontier.ties[0]!)).toEqual(['a@8', 'b@8']);
    const notes = frontierNotes(an).join('\n');
    expect(notes).toContain('6 of 8 measured points are on the Pareto frontier; 2 are dominated');
    expect(notes).toContain('tie: sglang fp8 dp-attn at 8 concurrent and vllm baseline at 8 concurrent');
  });

  it('is empty of dominated points when every point trades one axis for the other', () => {
    const f = paretoFrontier(analyseSweeps([a], 1, []).points);
    expect(f.dominated).toEqual([]);
    expect(f.points).toHaveLength(4);
  });
});

describe('the SLO choice', () => {
  it('picks the most tok/s/GPU among points meeting the SLO and says it in one sentence', () => {
    const an = analyseSweeps([a, b], 8, parseSlo('tpot:p99<60'));
    expect(an.choice!.sentence).toBe('vllm baseline: 2,000 tok/s/GPU at 64 concurrent, TPOT p99 55 ms');
    expect(an.choice!.why).toContain('6 of 8 measured points meet the SLO');
    expect(an.choice!.why).toContain('next: sglang fp8 dp-attn: 1,850 tok/s/GPU at 64 concurrent, TPOT p99 38 ms');
  });

  it('follows the SLO: a tighter one picks another variant and load', () => {
    const an = analyseSweeps([a, b], 8, parseSlo('tpot:p99<40'));
    expect(an.choice!.sentence).toBe('sglang fp8 dp-attn: 1,850 tok/s/GPU at 64 concurrent, TPOT p99 38 ms');
  });

  it('breaks a tie on tok/s/GPU by tok/s/user, then the lighter load, and says so', () => {
    const an = analyseSweeps([a, b], 8, parseSlo('tpot:p99<15'));
    expect(an.choice!.point.variantId).toBe('a');
    expect(an.choice!.point.load.value).toBe(8);
    expect(an.choice!.why).toContain('tied on tok/s/GPU with vllm baseline at 8 concurrent');
  });

  it('says why there is no choice when nothing meets the SLO', () => {
    const an = analyseSweeps([a, b], 8, parseSlo('tpot:p99<5'));
    expect(an.choice).toBeNull();
    expect(an.noChoice).toMatch(/^no measured point meets the SLO; the closest, .* p99 TPOT \d+ ms >= 5 ms/);
  });

  it('without an SLO, takes the most tok/s/GPU', () => {
    const c = chooseForSlo(analyseSweeps([a, b], 8, []).points, [])!;
    expect(c.point.variantId).toBe('a');
    expect(c.point.load.value).toBe(512);
    expect(c.sentence).toBe('sglang fp8 dp-attn: 2,500 tok/s/GPU at 512 concurrent, TPOT mean 50 ms');
  });
});
