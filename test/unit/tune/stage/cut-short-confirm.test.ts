// The stage loop with no process: a variant that early stop cut short, which the tie-break would
// keep, gets one run in full before the stage decides, and is then judged on its runs like any
// other; one the tie-break would not keep stays cut.
import { afterAll, describe, expect, it } from 'vitest';
import type { TuneEvent, VariantResult } from '../../../../src/core/events.js';
import type { ScenarioRunner } from '../../../../src/tune/context/session-context.js';
import { measureStage, settleTies } from '../../../../src/tune/stage/measure-stage.js';
import { okStageResult, plannedTp, removeStageDirs, stageContext } from '../../../helpers/tune/stage-context.js';

afterAll(removeStageDirs);

const seqs = (n: number) => plannedTp('vllm', 8, { maxRunningSeqs: n });

/** Each variant's runs in turn: a number is a full run at that tok/s, `cut` a run stopped early with that bound. */
function scripted(plan: Record<string, (number | { cut: number })[]>) {
  const calls: string[] = [];
  const run: ScenarioRunner = async (v, _s, req) => {
    const i = calls.filter((c) => c === v.id).length;
    calls.push(v.id);
    const next = plan[v.id]![Math.min(i, plan[v.id]!.length - 1)]!;
    if (typeof next === 'number') return [{ ...okStageResult(v, req, next), startedAt: new Date(calls.length * 1000).toISOString() }];
    const r: VariantResult = {
      ...okStageResult(v, req, next.cut / 2),
      status: 'pruned',
      partial: true,
      stopBound: next.cut,
      failure: { kind: 'pruned', reason: 'stopped early: at least 12% below the leader at 8/24 requests' },
    };
    return [r];
  };
  return { calls, run };
}

async function stage(plan: Record<string, (number | { cut: number })[]>, ids: number[]) {
  const s = scripted(plan);
  const { ctx, events } = stageContext(s.run, ['--parallel', 'off', '--no-early-stop']);
  const measured = await measureStage(ctx, ids.map(seqs), null);
  const settled = await settleTies(ctx, 'engine', null, measured);
  const confirms = events.filter((e): e is Extract<TuneEvent, { type: 'confirm-started' }> => e.type === 'confirm-started');
  return { calls: s.calls, settled, confirms };
}

describe('a cut-short variant at the edge of the tied set', () => {
  const s64 = seqs(64).variant.id;
  const s256 = seqs(256).variant.id;
  const s512 = seqs(512).variant.id;

  it('the one the tie-break would keep runs in full, joins the tied set and is chosen', async () => {
    const { calls, settled, confirms } = await stage(
      { [s256]: [1000, 900, 950], [s64]: [{ cut: 880 }, 960, 940], [s512]: [990, 1080, 1000] },
      [256, 64, 512],
    );
    const full = confirms.find((c) => c.variantIds.length === 1 && c.variantIds[0] === s64 && /was stopped early/.test(c.why));
    expect(full?.why).toMatch(/the tie-break would keep it \(holds the fewest slots\): one run in full$/);
    expect(calls.filter((c) => c === s64).length).toBeGreaterThanOrEqual(2);
    const row = settled.results.find((r) => r.variantId === s64)!;
    expect(row).toMatchObject({ status: 'ok' });
    expect(row.partial).toBeUndefined();
    expect(settled.step?.tiedIds).toContain(s64);
    expect(settled.step?.ranked[0]!.variantId).toBe(s64);
  });

  it('one the tie-break would not keep stays cut, and is not launched again', async () => {
    const { calls, settled, confirms } = await stage(
      { [s256]: [1000, 900, 950], [s512]: [{ cut: 960 }], [s64]: [990, 1080, 1000] },
      [256, 512, 64],
    );
    expect(calls.filter((c) => c === s512)).toHaveLength(1);
    expect(confirms.some((c) => c.variantIds.includes(s512))).toBe(false);
    expect(settled.results.find((r) => r.variantId === s512)).toMatchObject({ status: 'pruned' });
  });
});
