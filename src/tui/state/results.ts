// Rows for the Results screen, taken from the core's projection of the stream (src/core/view.ts):
// winners, references and gains are the core's own, so the TUI shows what --auto prints. Only
// presentation is added here (labels relative to the carried winner, $/Mtok at the set price).
import { regressionLine } from '../../core/validation-table.js';
import type { SessionGpuTime, ValidationRow, VariantResult } from '../../core/events.js';
import { sessionCostText } from '../../core/view-cost.js';
import { shownStages } from '../../core/stage-text.js';
import { type SessionView } from '../../core/session-view.js';
import type { SweepView } from '../../core/view-sweep.js';
import type { CapacityView } from '../../core/view-capacity.js';
import { dollarsPerMillionTokens } from '../../tune/decide/decide.js';
import type { RunState } from './run.js';
import { relativeLabel } from '../base/format.js';

export interface ResultRow {
  result: VariantResult;
  label: string;
  gainPct: number | null;
  dollarsPerMtok: number | null;
  isWinner: boolean;
  isCarried: boolean;
  /** The row the stage's gains are measured against (the baseline in the first stage). */
  isReference: boolean;
  /** Too many of its requests failed (--max-failed): the core's words, "514/1000 ok: not eligible". */
  notEligible?: string;
}

export interface StageTable {
  stage: string;
  winnerId: string | null;
  gainPct: number | null;
  carriedId: string | null;
  /** What the gains are measured against (the baseline, or the carried winner). */
  referenceId: string | null;
  baselineId: string | null;
  /** The core's reason for the winner. */
  why: string | null;
  /** The verdict's words when the best two stayed tied within noise (src/core/view.ts tieClause). */
  tie: string | null;
  rows: ResultRow[];
  /** What each row's server loaded, by variant id, when the rows differ (the projection's StageView.served). */
  served?: Record<string, string>;
}

/** What the Results page shows, from the run's events (workbench) or a journal's (`servelab view`). */
export interface ResultsData {
  tables: StageTable[];
  labels: Record<string, string>;
  validation: ValidationRow[];
  winner?: VariantResult;
  winnerLabel?: string;
  /** Label of the variant the validation table measures the winner against. */
  validationBaseline?: string;
  /** How the core chose that baseline (validate.ts baselineWhy). */
  validationBaselineWhy?: string;
  /** The validation compared the winner with itself (the usual baseline did not run). */
  validationBaselineIsWinner?: boolean;
  priced: boolean;
  /** The user aborted the run (so a missing winner is not a failure). */
  aborted?: boolean;
  /** The plan had no validation (--validation none): an empty table is no sign the run stopped early. */
  validationOff?: boolean;
  /** The finalists' load sweep, when the session ran one (its own page). */
  sweep?: SweepView;
  /** The capacity search on the winner (--capacity RULES): its own page, after validation. */
  capacity?: CapacityView;
  /** What the session cost, as the core summed it (absent when the run ended before it did). */
  cost?: SessionGpuTime;
  /** The winner's named regressions on the validation workloads (validation-table.ts regressionLine). */
  validationRegression?: string;
  /** --no-regress acted: which finalist it kept instead, or why none. */
  noRegressWhy?: string;
  /** Without the core's sum: what the variants held so far (view-cost.ts sessionCostText). */
  costSoFar?: string;
}

export interface ResultsOptions {
  labels: Record<string, string>;
  pricePerGpuHour?: number;
  gpus: number;
}

/** The projection a run state or a replayed journal holds. */
function viewOf(source: RunState | SessionView): SessionView {
  return 'view' in source ? source.view : source;
}

/** One table per stage that measured something, in run order. */
export function stageTables(source: RunState | SessionView, opts: ResultsOptions): StageTable[] {
  return shownStages(viewOf(source)).map((s) => {
    const v = s.verdict;
    const carriedId = v?.carriedId ?? s.carriedId;
    return {
      stage: s.name,
      winnerId: v?.winnerId ?? null,
      gainPct: v?.gainPct ?? null,
      carriedId,
      referenceId: v?.referenceId ?? null,
      baselineId: v?.baselineId ?? null,
      why: v?.why ?? null,
      tie: s.tie ?? null,
      ...(s.served ? { served: s.served } : {}),
      rows: s.rows.map((r) => ({
        result: r.result,
        label: relativeLabel(
          opts.labels[r.result.variantId] ?? r.result.variant.label ?? r.result.variantId,
          carriedId ? opts.labels[carriedId] : undefined,
        ),
        gainPct: r.gainPct,
        dollarsPerMtok:
          opts.pricePerGpuHour && r.result.metrics ? dollarsPerMillionTokens(r.result.metrics, opts.gpus, opts.pricePerGpuHour) : null,
        isWinner: r.isWinner,
        isCarried: r.isCarried,
        isReference: r.isReference && !r.isCarried,
        ...(r.notEligible ? { notEligible: r.notEligible } : {}),
      })),
    };
  });
}

/** The variant the session ended with, as the core chose it. */
export function finalWinner(source: RunState | SessionView): VariantResult | undefined {
  return viewOf(source).winner ?? undefined;
}

/** The before/after table, as the core reported it. */
export function validationRows(source: RunState | SessionView): ValidationRow[] {
  return viewOf(source).validation?.rows ?? [];
}

/** The variant the validation table measured the winner against, as the core reported it. */
export function validationBaselineId(source: RunState | SessionView): string | undefined {
  return viewOf(source).validation?.baselineId;
}

/** The validation page's regression line and --no-regress's word, as the core said them. */
function regressionData(view: SessionView): Pick<ResultsData, 'validationRegression' | 'noRegressWhy'> {
  const line = regressionLine(view.validation?.rows ?? []);
  return { ...(line ? { validationRegression: line } : {}), ...(view.noRegress ? { noRegressWhy: view.noRegress.why } : {}) };
}

/** Everything the Results page shows, from a live run or a journal's projection. */
export function resultsData(source: RunState | SessionView, opts: ResultsOptions & { labels: Record<string, string> }): ResultsData {
  const winner = finalWinner(source);
  const baselineId = validationBaselineId(source);
  const name = (id: string) => opts.labels[id] ?? id;
  const view = viewOf(source);
  const sweep = view.sweep;
  const soFar = view.cost ? null : sessionCostText(view);
  return {
    tables: stageTables(source, opts),
    labels: opts.labels,
    validation: validationRows(source),
    ...(view.plan?.validation?.length === 0 ? { validationOff: true } : {}),
    ...(winner ? { winner, winnerLabel: name(winner.variantId) } : {}),
    ...(baselineId ? { validationBaseline: name(baselineId), validationBaselineIsWinner: baselineId === winner?.variantId } : {}),
    ...(view.validation?.baselineWhy ? { validationBaselineWhy: view.validation.baselineWhy } : {}),
    priced: Boolean(opts.pricePerGpuHour),
    ...(sweep ? { sweep } : {}),
    ...(view.capacity ? { capacity: view.capacity } : {}),
    ...(view.cost ? { cost: view.cost } : soFar ? { costSoFar: soFar } : {}),
    ...regressionData(view),
  };
}
