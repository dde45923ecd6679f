// The `sweep` section of a profile: what was swept, every point's vLLM metrics, and the choice.
// JSON has no Infinity, so a rate of `inf` is stored as null.
import { z } from 'zod';
import type { SloRule } from '../core/slo-rule.js';
import { formatSlo } from '../core/slo.js';
import type { SweepAnalysis } from './analyse.js';
import type { SweepPoint, VariantSweep } from './types.js';
import { formatSweep, type SweepSpec } from './spec.js';

const LoadSchema = z.object({ kind: z.enum(['concurrency', 'rate']), value: z.number().positive().nullable() });

const PointSchema = z.object({
  load: LoadSchema,
  scenario: z.string().min(1),
  numPrompts: z.number().int().positive(),
  status: z.enum(['ok', 'failed', 'not-run']),
  metrics: z.record(z.string(), z.union([z.number(), z.null()])).optional(),
  reason: z.string().optional(),
  violations: z.array(z.string()).default([]),
});

export const SweepRecordSchema = z.object({
  at: z.string().min(1),
  /** "concurrency:1,8,32,128,512". */
  spec: z.string().min(1),
  /** The tuning workload the prompts were drawn from (scenario name). */
  workload: z.string().min(1),
  gpus: z.number().int().positive(),
  /** The SLO the choice was made for, "tpot:p99<60"; empty when none. */
  slo: z.string().default(''),
  sweepAll: z.boolean().default(false),
  simulated: z.boolean(),
  variants: z.array(
    z.object({ variantId: z.string().min(1), label: z.string(), stopped: z.string().optional(), points: z.array(PointSchema) }),
  ),
  chosen: z.object({ variantId: z.string(), load: LoadSchema, sentence: z.string(), why: z.string() }).nullable(),
  /** The SVG chart's file name, beside the report. */
  chart: z.string().optional(),
});

export type SweepRecord = z.infer<typeof SweepRecordSchema>;

const loadOut = (l: { kind: 'concurrency' | 'rate'; value: number }) => ({ kind: l.kind, value: l.value === Infinity ? null : l.value });
const loadIn = (l: { kind: 'concurrency' | 'rate'; value: number | null }) => ({ kind: l.kind, value: l.value ?? Infinity });

/** The devices a sweep's per-GPU figures divide by: a host without a GPU (llama.cpp on the CPU) counts as one. */
export const sweepDevices = (gpuCount: number) => Math.max(1, gpuCount);

export interface RecordInput {
  spec: SweepSpec;
  workload: string;
  gpus: number;
  slo: readonly SloRule[];
  sweepAll: boolean;
  simulated: boolean;
  chart?: string;
  at?: Date;
}

export function sweepRecord(sweeps: readonly VariantSweep[], a: SweepAnalysis, o: RecordInput): SweepRecord {
  const c = a.choice;
  return {
    at: (o.at ?? new Date()).toISOString(),
    spec: formatSweep(o.spec),
    workload: o.workload,
    gpus: o.gpus,
    slo: o.slo.length ? formatSlo(o.slo) : '',
    sweepAll: o.sweepAll,
    simulated: o.simulated,
    variants: sweeps.map((s) => ({
      variantId: s.variantId,
      label: s.label,
      ...(s.stopped ? { stopped: s.stopped } : {}),
      points: s.points.map((p) => ({
        load: loadOut(p.load),
        scenario: p.scenario,
        numPrompts: p.numPrompts,
        status: p.status,
        ...(p.metrics ? { metrics: numbersOnly(p.metrics) } : {}),
        ...(p.reason ? { reason: p.reason } : {}),
        violations: p.violations,
      })),
    })),
    chosen: c ? { variantId: c.point.variantId, load: loadOut(c.point.load), sentence: c.sentence, why: c.why } : null,
    ...(o.chart ? { chart: o.chart } : {}),
  };
}

function numbersOnly(m: Record<string, unknown>): Record<string, number | null> {
  return Object.fromEntries(Object.entries(m).filter(([, v]) => typeof v === 'number' || v === null)) as Record<string, number | null>;
}

/** A recorded sweep back as VariantSweeps (to analyse or compare with a new one). */
export function sweepsOf(r: SweepRecord): VariantSweep[] {
  return r.variants.map((v) => ({
    variantId: v.variantId,
    label: v.label,
    ...(v.stopped ? { stopped: v.stopped } : {}),
    points: v.points.map((p): SweepPoint => ({
      load: loadIn(p.load),
      scenario: p.scenario,
      numPrompts: p.numPrompts,
      status: p.status,
      ...(p.metrics ? { metrics: p.metrics } : {}),
      ...(p.reason ? { reason: p.reason } : {}),
      violations: p.violations,
    })),
  }));
}
