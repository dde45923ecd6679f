// A capacity search as data: the profile's `capacity` section and the one object `--json` prints
// (the same shape): the answer, the failing probe above it, the rule that broke first, goodput at
// the answer and every probe with its metrics. Also the probes as a sweep, for the sweep's table
// and charts.
import { z } from 'zod';
import { formatSlo } from '../core/slo.js';
import type { SloRule } from '../core/slo-rule.js';
import type { VariantSweep } from '../sweep/types.js';
import type { CapacityResult } from './runner.js';
import { formatResolution, type Resolution } from './search.js';

const ProbeSchema = z.object({
  load: z.number().positive(),
  numPrompts: z.number().int().positive(),
  holds: z.boolean(),
  breaks: z.string().nullable(),
  violations: z.array(z.string()),
  metrics: z.record(z.string(), z.union([z.number(), z.null()])),
  /** Why the probe stopped before its last request: its verdict could no longer change. */
  early: z.string().optional(),
  /** A short probe that only placed the bracket's start. */
  pilot: z.boolean().optional(),
  /** 2 or 3: a re-probe of a load. */
  attempt: z.number().int().optional(),
  /** Share of prompt tokens served from a cache the probe had not filled (0..1), where the server reports its cache. */
  cacheHitBeforeRun: z.number().nonnegative().optional(),
});

export const CapacityRecordSchema = z.object({
  at: z.string().min(1),
  by: z.enum(['concurrency', 'rate']),
  /** "ttft:p99<2000,tpot:mean<100". */
  slo: z.string().min(1),
  /** "10% of the answer", "4 concurrent". */
  resolution: z.string().min(1),
  /** Where the prompts came from: the profile's scenario name, or the bench dataset. */
  workload: z.string().min(1),
  simulated: z.boolean(),
  answer: z.number().positive().nullable(),
  failing: z.number().positive().nullable(),
  breaks: z.string().nullable(),
  /** Requests/s meeting the SLO at the answer (vLLM's request_goodput). */
  goodput: z.number().nonnegative().nullable(),
  /** Requests sent over all probes. */
  requests: z.number().int().nonnegative(),
  probes: z.array(ProbeSchema),
  /** The SVG chart's file name, beside the report. */
  chart: z.string().optional(),
  /** Run-to-run noise measured from the re-probes, ±% of the SLO's figure. */
  noisePct: z.number().nonnegative().optional(),
  /** % under the tightest limit at the answer. */
  marginPct: z.number().nullable().optional(),
  /** Probes that re-ran a load. */
  reprobes: z.number().int().nonnegative().optional(),
});

export type CapacityRecord = z.infer<typeof CapacityRecordSchema>;

function numbersOnly(m: object): Record<string, number | null> {
  return Object.fromEntries(Object.entries(m).filter(([, v]) => typeof v === 'number' || v === null)) as Record<string, number | null>;
}

export function capacityRecord(
  r: CapacityResult,
  o: { slo: readonly SloRule[]; resolution: Resolution; workload: string; at?: Date },
): CapacityRecord {
  return {
    at: (o.at ?? new Date()).toISOString(),
    by: r.by,
    slo: formatSlo(o.slo),
    resolution: formatResolution(o.resolution, r.by),
    workload: o.workload,
    simulated: r.simSpeed !== undefined,
    answer: r.answer,
    failing: r.failing,
    breaks: r.breaks,
    goodput: r.goodput,
    requests: r.requests,
    probes: r.probes.map((p) => ({
      load: p.value,
      numPrompts: p.numPrompts,
      holds: p.holds,
      breaks: p.breaks,
      violations: p.violations,
      metrics: numbersOnly(p.metrics),
      ...(p.early ? { early: p.early } : {}),
      ...(p.pilot ? { pilot: true } : {}),
      ...(p.attempt ? { attempt: p.attempt } : {}),
      ...(p.cacheHitBeforeRun !== undefined ? { cacheHitBeforeRun: p.cacheHitBeforeRun } : {}),
    })),
    ...(r.noise ? { noisePct: r.noise.pct } : {}),
    marginPct: r.marginPct,
    reprobes: r.reprobes,
  };
}

/** The probes in load order as one variant's sweep (each probe a point), for the sweep's table and charts. */
export function probeSweep(r: Pick<CapacityRecord, 'by' | 'probes'>, label: string): VariantSweep {
  // Pilots and probes that failed early are not points: their figures cover a few requests.
  const probes = r.probes.filter((p) => !p.pilot && !(p.early && !p.holds)).sort((a, b) => a.load - b.load);
  return {
    variantId: 'capacity',
    label,
    points: probes.map((p) => ({
      load: { kind: r.by, value: p.load },
      scenario: `capacity@${p.load}`,
      numPrompts: p.numPrompts,
      status: 'ok' as const,
      metrics: p.metrics,
      violations: p.violations,
    })),
  };
}
