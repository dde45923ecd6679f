// Rows for the Results screen, built from the run state with the core's own decision helpers
// (objective value, gain, $/Mtok), so the TUI shows the numbers --auto prints.
import type { VariantResult } from '../../core/events.js';
import { dollarsPerMillionTokens, gainPct, objectiveValue, type Objective } from '../../tune/decide.js';
import type { RunState } from './run.js';
import { relativeLabel } from '../format.js';
import { pickBaseline } from '../../tune/validate.js';

export interface ResultRow {
  result: VariantResult;
  label: string;
  value: number | null;
  gainPct: number | null;
  dollarsPerMtok: number | null;
  isWinner: boolean;
  isCarried: boolean;
  /** The row the gains are taken against, when no winner was carried in (the first stage). */
  isReference: boolean;
}

export interface StageTable {
  stage: string;
  winnerId: string | null;
  gainPct: number | null;
  carriedId: string | null;
  rows: ResultRow[];
}

export interface ValidationRowView {
  scenario: string;
  baseline: { totalTokPerS: number; meanTpotMs: number } | null;
  optimized: { totalTokPerS: number; meanTpotMs: number } | null;
  gainPct: number | null;
}

export interface ResultsOptions {
  objective: Objective;
  labels: Record<string, string>;
  pricePerGpuHour?: number;
  gpus: number;
}

function okValue(r: VariantResult | undefined, o: Objective): number | null {
  return r && r.status === 'ok' && r.metrics ? objectiveValue(r.metrics, o) : null;
}

/** One table per stage, in run order, each row's gain taken against the winner carried into it. */
export function stageTables(run: RunState, opts: ResultsOptions): StageTable[] {
  const tables: StageTable[] = [];
  let carriedId: string | null = null;
  const byKey = new Map(run.results.map((r) => [r.variantId, r]));
  const stageNames = [...run.stages.map((s) => s.name), ...run.results.map((r) => r.stage)].filter((n, i, a) => a.indexOf(n) === i);
  for (const name of stageNames) {
    const info = run.stages.find((s) => s.name === name);
    const results = run.results.filter((r) => r.stage === name && !r.stage.startsWith('validation'));
    if (results.length === 0) continue;
    const carriedValue = okValue(carriedId ? byKey.get(carriedId) : undefined, opts.objective);
    const firstOk = results.find((r) => okValue(r, opts.objective) !== null);
    const reference = carriedValue ?? okValue(firstOk, opts.objective);
    const rows = results.map((r) => {
      const value = okValue(r, opts.objective);
      return {
        result: r,
        label: relativeLabel(opts.labels[r.variantId] ?? r.variant.label ?? r.variantId, carriedId ? opts.labels[carriedId] : undefined),
        value,
        gainPct: value !== null && reference !== null ? gainPct(value, reference) : null,
        dollarsPerMtok: opts.pricePerGpuHour && r.metrics ? dollarsPerMillionTokens(r.metrics, opts.gpus, opts.pricePerGpuHour) : null,
        isWinner: info?.winnerId === r.variantId,
        isCarried: carriedId === r.variantId,
        isReference: carriedValue === null && r === firstOk,
      };
    });
    tables.push({ stage: name, winnerId: info?.winnerId ?? null, gainPct: info?.gainPct ?? null, carriedId, rows });
    if (info?.winnerId) carriedId = info.winnerId;
  }
  return tables;
}

/** The variant the session ended with: the last stage winner. */
export function finalWinner(run: RunState): VariantResult | undefined {
  const id = [...run.stages].reverse().find((s) => s.winnerId)?.winnerId;
  if (!id) return undefined;
  return [...run.results].reverse().find((r) => r.variantId === id && r.status === 'ok') ?? run.results.find((r) => r.variantId === id);
}

function isPoint(x: unknown): x is { totalTokPerS: number; meanTpotMs: number } {
  return typeof x === 'object' && x !== null && typeof (x as { totalTokPerS?: unknown }).totalTokPerS === 'number';
}

/** The validation table from its event, keeping only well-formed rows. */
export function validationRows(run: RunState): ValidationRowView[] {
  const t = run.validation?.table;
  if (!Array.isArray(t)) return [];
  return t
    .filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && typeof (r as { scenario?: unknown }).scenario === 'string')
    .map((r) => ({
      scenario: r.scenario as string,
      baseline: isPoint(r.baseline) ? r.baseline : null,
      optimized: isPoint(r.optimized) ? r.optimized : null,
      gainPct: typeof r.gainPct === 'number' ? r.gainPct : null,
    }));
}

/**
 * The variant the validation table measured the winner against: the other variant launched for
 * it, else (its runs all came from the journal) the core's own choice among the engine stage's.
 */
export function validationBaselineId(run: RunState): string | undefined {
  if (!run.validation) return undefined;
  const winner = finalWinner(run)?.variantId;
  const launched = run.validation.launched?.find((id) => id !== winner);
  if (launched) return launched;
  const first = run.stages[0]?.name;
  return pickBaseline(run.results.filter((r) => r.stage === first))?.variantId;
}
