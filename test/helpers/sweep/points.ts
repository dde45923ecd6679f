// Scripted sweep points for the sweep tests: metrics in vLLM's key names, values chosen by hand.
import type { SweepPoint, VariantSweep } from '../../../src/sweep/types.js';

/** [concurrency, output tok/s, mean TPOT ms, p99 TPOT ms] per point. */
export type Row = [number, number, number, number];

export function point([c, out, tpot, p99]: Row): SweepPoint {
  return {
    load: { kind: 'concurrency', value: c },
    scenario: `w@c${c}-n100`,
    numPrompts: 100,
    status: 'ok',
    metrics: {
      completed: 100,
      output_throughput: out,
      mean_tpot_ms: tpot,
      p99_tpot_ms: p99,
      median_ttft_ms: 20 + c,
      p99_ttft_ms: 50 + 2 * c,
      request_goodput: 1,
    },
    violations: [],
  };
}

export function sweep(id: string, label: string, rows: Row[]): VariantSweep {
  return { variantId: id, label, points: rows.map(point) };
}
