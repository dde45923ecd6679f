// The capacity stage (`--capacity RULES`): after validation, the winner's server is
// launched once more (real weights, as validation's) and the capacity search of src/capacity runs
// on it with the session's workload: the same search, probe sizes and judgement as `servelab
// capacity`. Every probe and the answer go on the event stream; the record goes into the
// journal (a resumed session that has it measures nothing again) and then the profile.
import type { VariantResult } from '../../core/events.js';
import type { CapacityProbeInfo } from '../../core/capacity-events.js';
import { AbortedError } from '../../core/aborted.js';
import { parseSlo } from '../../core/slo-rule.js';
import { promptRule } from '../../capacity/judge.js';
import { capacityRecord, CapacityRecordSchema, type CapacityRecord } from '../../capacity/record.js';
import { runCapacity, type CapacityHooks, type CapacityProbe, type CapacitySpec, type CapacityTarget } from '../../capacity/runner.js';
import { probeSeed } from '../../capacity/fresh-prompts.js';
import { formatResolution, parseResolution } from '../../capacity/search.js';
import { answerLine, goodputLine, probeLine, progressLine, requestsLine, searchRules } from '../../capacity/text.js';
import type { SessionContext } from '../context/session-context.js';
import { loadScenario } from '../launch/workloads.js';
import { multiTurnProbe } from '../run/scenario-bench.js';

/** The journal's file for the answer: a resumed session with the same winner and SLO takes it back. */
const JOURNAL_FILE = 'capacity.json';

function specOf(ctx: SessionContext): CapacitySpec | null {
  const c = ctx.config.capacity;
  if (!c) return null;
  return { by: c.by, start: 1, max: c.max, resolution: parseResolution(c.resolution), slo: parseSlo(c.slo, '--capacity'), pilot: true };
}

function probeInfo(
  i: number,
  spec: CapacitySpec,
  p: Pick<CapacityProbe, 'holds' | 'breaks' | 'violations' | 'numPrompts' | 'early' | 'pilot' | 'attempt'> & {
    value: number;
    metrics: object;
  },
): CapacityProbeInfo {
  const m = p.metrics as Record<string, unknown>;
  const keys = [...spec.slo.map((r) => `${r.stat}_${r.metric}_ms`), 'request_goodput', 'request_throughput'];
  const figures = Object.fromEntries(keys.map((k) => [k, typeof m[k] === 'number' ? (m[k] as number) : null]));
  return {
    index: i,
    load: p.value,
    numPrompts: p.numPrompts,
    holds: p.holds,
    breaks: p.breaks,
    violations: p.violations,
    figures,
    line: probeLine(i, spec.by, p, spec.slo),
    ...(p.early ? { early: p.early } : {}),
    ...(p.pilot ? { pilot: true } : {}),
    ...(p.attempt ? { attempt: p.attempt } : {}),
  };
}

/** A running probe's progress goes on the stream at most this often. */
const PROGRESS_EVERY_MS = 5000;

function finished(ctx: SessionContext, variantId: string, r: CapacityRecord, max: number, error?: string): void {
  const lines = error ? [`capacity: no answer: ${error}`] : [answerLine(r, max), goodputLine(r), requestsLine(r)];
  ctx.emit({
    type: 'capacity-finished',
    variantId,
    by: r.by,
    answer: r.answer,
    failing: r.failing,
    breaks: r.breaks,
    goodput: r.goodput,
    requests: r.requests,
    lines,
    marginPct: r.marginPct ?? null,
    ...(r.noisePct !== undefined ? { noisePct: r.noisePct } : {}),
    ...(error ? { error } : {}),
  });
}

/** The answer an earlier run of this folder journalled for the same winner, SLO and search. */
function journaled(ctx: SessionContext, winnerId: string, spec: CapacitySpec): CapacityRecord | null {
  const rec = ctx.journal.readJson(JOURNAL_FILE) as { variantId?: string; record?: unknown } | undefined;
  const parsed = rec?.variantId === winnerId ? CapacityRecordSchema.safeParse(rec.record) : null;
  const r = parsed?.success ? parsed.data : null;
  return r && r.slo === ctx.config.capacity!.slo && r.by === spec.by && r.resolution === formatResolution(spec.resolution, spec.by)
    ? r
    : null;
}

/** The search's probes and progress on the event stream (progress at most every PROGRESS_EVERY_MS). */
function stageHooks(ctx: SessionContext, variantId: string, spec: CapacitySpec, signal: AbortSignal): CapacityHooks {
  let i = 0;
  let lastProgress = 0;
  return {
    signal,
    onStart: (load, numPrompts) => ctx.emit({ type: 'capacity-probe-started', variantId, index: i + 1, load, numPrompts }),
    onProbe: (p) => ctx.emit({ type: 'capacity-probe', variantId, ...probeInfo(++i, spec, p) }),
    onProgress: (p) => {
      const now = Date.now();
      if (now - lastProgress < PROGRESS_EVERY_MS) return;
      lastProgress = now;
      ctx.emit({
        type: 'capacity-probe-progress',
        variantId,
        index: i + 1,
        load: p.value,
        done: p.done,
        planned: p.planned,
        line: progressLine(spec.by, p),
      });
    },
  };
}

/** Search the winner's capacity; null without --capacity, or when no answer could be had (said in the events). */
/** The search's target on the winner's server: the tuning workload, sized per probe (a multi-turn one by the bench's driver). */
function winnerTarget(ctx: SessionContext, winner: VariantResult, spec: CapacitySpec): (baseUrl: string) => CapacityTarget {
  const { scenario, model } = ctx.config;
  const probe = multiTurnProbe(scenario, model, spec.by);
  return (baseUrl) => ({
    run: { baseUrl, model: winner.variant.model, tokenizerId: model, seed: scenario.seed },
    workload: (n, draw) => loadScenario({ ...scenario, numPrompts: n, seed: probeSeed(scenario.seed, draw) }, model),
    maxConcurrency: scenario.maxConcurrency,
    ...(probe ? { probe } : {}),
  });
}

export async function capacityOfWinner(ctx: SessionContext, winner: VariantResult): Promise<CapacityRecord | null> {
  const spec = specOf(ctx);
  if (!spec) return null;
  const { config } = ctx;
  const scenario = config.scenario;
  const label = winner.variant.label ?? winner.variantId;
  const resolution = formatResolution(spec.resolution, spec.by);
  const rule = [
    `highest ${spec.by} from ${spec.start} up to ${spec.max}: doubling, then bisecting to ${resolution}`,
    `probes: ${promptRule(spec.slo)}`,
    ...searchRules(spec),
  ];
  ctx.emit({
    type: 'capacity-started',
    variantId: winner.variantId,
    label,
    by: spec.by,
    slo: config.capacity!.slo,
    resolution,
    workload: scenario.label,
    rule,
  });
  const earlier = journaled(ctx, winner.variantId, spec);
  if (earlier) {
    ctx.emit({
      type: 'warning',
      message: `capacity: the answer journalled in ${ctx.journal.dir} for ${winner.variantId} is reused, not searched again`,
    });
    earlier.probes.forEach((p, i) =>
      ctx.emit({ type: 'capacity-probe', variantId: winner.variantId, ...probeInfo(i + 1, spec, { ...p, value: p.load }) }),
    );
    finished(ctx, winner.variantId, earlier, spec.max);
    return earlier;
  }
  const target = winnerTarget(ctx, winner, spec);
  const empty = {
    by: spec.by,
    answer: null,
    failing: null,
    breaks: null,
    goodput: null,
    probes: [],
    requests: 0,
    marginPct: null,
    reprobes: 0,
  };
  const none = (why: string) =>
    finished(
      ctx,
      winner.variantId,
      capacityRecord(empty, { slo: spec.slo, resolution: spec.resolution, workload: scenario.name }),
      spec.max,
      why,
    );
  if (!ctx.serve) {
    none('this session has a scripted runner and no server to search on');
    return null;
  }
  const served = await ctx.serve(
    winner.variant,
    [scenario],
    { stage: 'capacity', skipSignal: ctx.control.nextSkipSignal(winner.variant.id) },
    (server) => runCapacity(target(server.baseUrl), spec, stageHooks(ctx, winner.variantId, spec, server.signal)),
  );
  if (served.gpuTime) ctx.cost.addLaunch(ctx.emit, 'capacity', { variantId: winner.variantId, gpuTime: served.gpuTime });
  if (ctx.signal?.aborted) throw new AbortedError();
  if (!served.ok) {
    none(served.failure.reason);
    return null;
  }
  const record = capacityRecord(served.value, { slo: spec.slo, resolution: spec.resolution, workload: scenario.name });
  ctx.journal.writeJson(JOURNAL_FILE, { variantId: winner.variantId, record });
  finished(ctx, winner.variantId, record, spec.max);
  return record;
}
