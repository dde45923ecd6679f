// The projection's live figures: which variants run now when several share the host,
// the session's host GPU-hours while it runs (validation included), and a stage's tie in the core's
// words. The streams are real ones; parallel-sim.jsonl is `servelab --auto --sim --gpu H100
// --gpus 8 --model Qwen/Qwen3-14B --parallel 4 --num-prompts 40 --validation none --json` (logs,
// GPU and server samples left out; the node and checkout paths in argv made relative).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { TuneEvent } from '../../../src/core/events.js';
import { applyToView, emptyView, projectSession } from '../../../src/core/view.js';
import { tieClause } from '../../../src/core/stage-text.js';
import { liveCost } from '../../../src/core/view-cost.js';

const stream = (name = 'parallel-sim'): TuneEvent[] =>
  readFileSync(new URL(`../../fixtures/events/${name}.jsonl`, import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as TuneEvent);

describe('running variants in the view', () => {
  it('holds every variant of a parallel wave at once, with its GPUs, and none after the stage', () => {
    let view = emptyView();
    let peak = 0;
    for (const e of stream()) {
      view = applyToView(view, e);
      const live = Object.values(view.running).filter((r) => r.phase !== 'stopping');
      peak = Math.max(peak, live.length);
      // Variants that run together never share a GPU.
      const gpus = live.flatMap((r) => r.gpuIds ?? []);
      expect(new Set(gpus).size).toBe(gpus.length);
      if (e.type === 'stage-started') expect(Object.values(view.running).filter((r) => r.phase !== 'stopping')).toEqual([]);
    }
    expect(peak).toBe(4);
    expect(view.running).toEqual({});
  });

  it('drops a launch that stopped without variant-finished (a validation side) once the next one starts', () => {
    const events: TuneEvent[] = [
      { type: 'variant-launching', variantId: 'base', stage: 'validation', argv: [], port: 8100 },
      { type: 'server-stopping', variantId: 'base' },
      { type: 'variant-launching', variantId: 'win', stage: 'validation', argv: [], port: 8101 },
    ];
    expect(Object.keys(projectSession(events).running)).toEqual(['win']);
  });
});

describe('host GPU-hours while the session runs', () => {
  it('counts simulated time wave by wave as the core does, and ends on the core figure', () => {
    const events = stream();
    const at = events.findIndex((e) => e.type === 'session-cost');
    const cost = (events[at] as Extract<TuneEvent, { type: 'session-cost' }>).cost;
    let view = emptyView();
    let last = 0;
    const seen: number[] = [];
    for (const e of events.slice(0, at)) {
      view = applyToView(view, e);
      const live = liveCost(view, 0);
      expect(live.final).toBe(false);
      expect(live.hostGpuHours ?? 0).toBeGreaterThanOrEqual(last);
      last = live.hostGpuHours ?? 0;
      if (e.type === 'stage-finished') seen.push(last);
    }
    // Every stage adds time; the first stage's waves are a fraction of the session.
    expect(seen.every((h, i) => i === 0 || h > seen[i - 1]!)).toBe(true);
    expect(seen[0]).toBeLessThan(cost.hostGpuHours / 2);
    // Before the core's sum: within 1% of it. The carried winner's repeat runs end without
    // variant-finished; their time is counted through the challenger that ran beside them.
    expect(Math.abs(last - cost.hostGpuHours) / cost.hostGpuHours).toBeLessThan(0.01);
    const final = liveCost(applyToView(view, events[at]!), 0);
    expect(final).toEqual({ hostGpuHours: cost.hostGpuHours, variantGpuHours: cost.variantGpuHours, simulated: true, final: true });
  });

  // validation-sim.jsonl: `servelab --auto --sim --gpu H100 --gpus 8 --model Qwen/Qwen3-14B
  // --parallel 4 --num-prompts 40 --stages engine,batching --scale 0.05 --json` (the studies' five
  // validation scenarios at 5% of their size; logs, GPU and server samples left out, paths made relative).
  it('counts each validation side as its launch is paid, and meets the core figure before it comes', () => {
    const events = stream('validation-sim');
    const at = events.findIndex((e) => e.type === 'session-cost');
    const cost = (events[at] as Extract<TuneEvent, { type: 'session-cost' }>).cost;
    let view = emptyView();
    const atValidation: number[] = [];
    let sides = 0;
    for (const e of events.slice(0, at)) {
      const before = liveCost(view, 0);
      view = applyToView(view, e);
      const live = liveCost(view, 0);
      expect(live.hostGpuHours ?? 0).toBeGreaterThanOrEqual(before.hostGpuHours ?? 0);
      if (e.type === 'validation-started') atValidation.push(live.hostGpuHours!);
      if (e.type === 'launch-cost') {
        sides++;
        // Each side adds its own time and GPU time as it lands, and leaves the running set.
        const t = e.gpuTime;
        expect(live.hostGpuHours! - before.hostGpuHours!).toBeCloseTo((8 * (t.startupS + t.benchmarkS)) / 3600, 9);
        expect(live.variantGpuHours - before.variantGpuHours).toBeCloseTo(t.gpuS / 3600, 9);
        expect(view.running[e.variantId]).toBeUndefined();
      }
    }
    expect(sides).toBe(2);
    // Validation is a real share of this session: without it the live figure would be far short.
    expect(atValidation[0]!).toBeLessThan(cost.hostGpuHours * 0.9);
    const last = liveCost(view, 0);
    expect(Math.abs(last.hostGpuHours! - cost.hostGpuHours) / cost.hostGpuHours).toBeLessThan(1e-9);
    expect(Math.abs(last.variantGpuHours - cost.variantGpuHours) / cost.variantGpuHours).toBeLessThan(1e-9);
  });

  it('on a GPU host, is every GPU x the wall clock since the session started', () => {
    const view = projectSession([
      { type: 'session-started', runDir: 'r', simulated: false, at: '2026-01-01T00:00:00.000Z' },
      { type: 'plan-ready', plan: { host: { gpuCount: 8 } } as never },
    ]);
    const c = liveCost(view, Date.parse('2026-01-01T00:30:00.000Z'));
    expect(c.hostGpuHours).toBeCloseTo(4, 9);
    expect(c.simulated).toBe(false);
    expect(liveCost(projectSession([{ type: 'session-started', runDir: 'r', simulated: false, at: 'x' }]), 0).hostGpuHours).toBeNull();
  });
});

describe('ties in the verdict', () => {
  it("finds the repeats' tie clause in a stage's why, and none where the margin decided", () => {
    const view = projectSession(stream());
    const tie = (name: string) => view.stages.find((s) => s.name === name)?.tie;
    expect(tie('engine')).toMatch(
      /^sglang defaults and trtllm defaults tied within noise \(0\.\d% apart after 3 and 3 runs, margin 2%\): trtllm defaults wins on lower p99 TPOT/,
    );
    expect(tie('quantization')).toBeUndefined();
    expect(
      tieClause({
        why: 'best challenger X is +0.3%, within the 2% noise margin: kept the carried winner; X and Y tied within noise (0.3% apart after 3 and 3 runs, margin 2%): X wins on lower p99 TPOT',
      }),
    ).toMatch(/^X and Y tied within noise/);
    expect(tieClause({ why: 'vllm leads sglang by 5.0%, beyond the 2% noise margin' })).toBeNull();
  });
});
