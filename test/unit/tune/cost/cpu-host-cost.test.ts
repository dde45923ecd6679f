// The cost on a host without GPUs (llama.cpp on the CPU) says what was used, not "0 GPUs": the
// threads, the wall time and the servers' own CPU-seconds, in the core's summary, the ledger, the
// live line, the headless summary table and the TUI's cost lines.
import { describe, expect, it } from 'vitest';
import type { VariantResult } from '../../../../src/core/events.js';
import { applyToView, emptyView } from '../../../../src/core/view.js';
import { gpuTimeText, liveCost } from '../../../../src/core/view-cost.js';
import { summaryText } from '../../../../src/cli/text.js';
import { sessionGpuTime } from '../../../../src/tune/cost/gpu-hours.js';
import { CostLedger } from '../../../../src/tune/cost/ledger.js';
import { launchGpuTime } from '../../../../src/tune/cost/variant-cost.js';
import { liveCostText, sessionCostLine } from '../../../../src/tui/components/cost-text.js';

const variant = { id: 'llamacpp', engine: 'llamacpp' as const, model: '/m/q.gguf', knobs: {} };
const gpuTime = launchGpuTime(variant, { cpuHost: true, launchMs: 0, readyMs: 2000, stopMs: 12_000 });
const row: VariantResult = {
  variantId: 'llamacpp',
  stage: 'engine',
  scenario: 's',
  status: 'ok',
  variant,
  argv: [],
  gpuTime,
  cpuS: 21.5,
  startupS: 2,
  metrics: {
    total_token_throughput: 900,
    output_throughput: 150,
    mean_ttft_ms: 10,
    mean_tpot_ms: 5,
  } as unknown as VariantResult['metrics'],
  startedAt: '2026-12-01T00:00:00Z',
  finishedAt: '2026-12-01T00:00:12Z',
};

describe('cost on a CPU host', () => {
  it('a launch holds no GPU, and its time reads as CPU time', () => {
    expect(gpuTime).toMatchObject({ gpus: 0, gpuS: 0, startupS: 2, benchmarkS: 10 });
    expect(launchGpuTime(variant, { launchMs: 0, readyMs: 2000, stopMs: 12_000 }).gpus).toBe(1);
    expect(gpuTimeText(gpuTime)).toBe('CPU (no GPU): startup 2 s, benchmark 10 s');
  });

  it("the session's summary names threads, wall and the servers' CPU-seconds, never GPUs", () => {
    const ledger = new CostLedger(0, false, 2);
    ledger.addWave([row, { ...row, variantId: 'b', cpuS: 8.5 }]);
    const c = ledger.summary();
    expect(c.cpu).toEqual({ threads: 2, cpuS: 30 });
    expect(c.summary).toMatch(
      /^CPU host \(2 threads, no GPU\): \d+ s wall; the servers used 30\.0 CPU-seconds \(startup 4 s, benchmark 20 s of wall\) \[wall clock\]$/,
    );
    expect(c.summary).not.toMatch(/GPU-hours|GPUs/);
    expect(sessionCostLine(c, 60)).toBe('cost: 30.0 CPU-s over 0 s · wall clock');
    // A GPU host keeps its GPU-hours.
    expect(sessionGpuTime(8, 3600, [], false, { threads: 2, cpuS: 1 }).summary).toMatch(/^8\.00 host GPU-hours \(8 GPUs x 60 min\)/);
  });

  it('the headless summary and the live line say CPU-seconds', () => {
    const plan = { host: { gpuName: 'CPU', gpuCount: 0, gpuMemMiB: 0, simulated: false } } as never;
    let view = applyToView(emptyView(), { type: 'session-started', runDir: '/r', simulated: false, at: '2026-12-01T00:00:00Z' } as never);
    view = applyToView(view, { type: 'plan-ready', plan });
    view = applyToView(view, { type: 'variant-finished', result: row });
    const text = summaryText(view);
    expect(text).toMatch(/^variant\s+status.*start-up s\s+CPU-s/m);
    expect(text).toMatch(/^llamacpp\s+ok\s.*\s21\.5\s/m);
    expect(text).toContain('Tuning cost: the servers have used 21.5 CPU-seconds so far (CPU host, no GPU)');
    expect(text).not.toMatch(/GPU-h|0 GPUs/);
    expect(liveCostText(liveCost(view, Date.parse('2026-12-01T00:01:00Z')), 100)).toBe(
      'servers used 21.5 CPU-s so far (CPU host) · wall clock',
    );
  });
});
