// Plain-text views of the session for the headless front end: one progress line per step, the
// dry-run plan with every exact command, and the final summary tables. Pure: returns strings.
import type { TuneEvent, VariantResult } from '../core/events.js';
import { formatCommand } from '../profiles/command.js';
import type { SessionConfig } from './config.js';
import { dollarsPerMillionTokens, objectiveLabel } from './decide.js';
import type { Plan, PlannedVariant } from './plan.js';
import type { SessionOutcome } from './session.js';
import { formatSlo } from './slo.js';

const f = (n: number | undefined | null, d = 1) => (typeof n === 'number' && Number.isFinite(n) ? n.toFixed(d) : '-');
const pct = (n: number | null | undefined) => (typeof n === 'number' && Number.isFinite(n) ? `${n >= 0 ? '+' : ''}${n.toFixed(1)}%` : '-');

/** Columns padded to the widest cell; numbers right-aligned. */
export function textTable(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = head.map((_, i) => rows.length > 0 && rows.every((r) => /^[-+$]?[\d.,]+%?$|^-$/.test(r[i] ?? '-')));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

function outcomeText(r: VariantResult): string {
  if (r.status === 'ok' && r.metrics) {
    const m = r.metrics;
    const failed = m.failed > 0 ? `, ${m.failed} of ${m.failed + m.completed} requests failed` : '';
    return `${f(m.total_token_throughput)} tok/s total, ${f(m.output_throughput)} out, TTFT ${f(m.mean_ttft_ms, 0)} ms, TPOT ${f(m.mean_tpot_ms, 1)} ms${failed}${r.simulated ? ' (simulated)' : ''}${r.clientBound ? ' [client-bound]' : ''}`;
  }
  return `${r.status}${r.failure ? ` (${r.failure.kind}): ${r.failure.reason}${r.failure.hint ? `. ${r.failure.hint.replace(/\.$/, '')}` : ''}` : ''}`;
}

/** One stderr line per step worth telling; null for events that stay silent (logs, live snapshots). */
export function progressLine(e: TuneEvent): string | null {
  switch (e.type) {
    case 'session-started':
      return `run folder ${e.runDir}${e.simulated ? ' (simulated host)' : ''}`;
    case 'stage-started':
      return `stage ${e.index + 1} ${e.stage}: ${e.skipped ? `skipped (${e.skipped})` : `${e.variants.length} variant(s)`}`;
    case 'variant-launching':
      return `  ${e.variantId}: launching on port ${e.port}`;
    case 'server-ready':
      return `  ${e.variantId}: ready after ${f(e.startupS)} s`;
    case 'bench-started':
      return `  ${e.variantId}: benchmarking ${e.scenario} (${e.numPrompts} prompts)`;
    case 'variant-finished':
      return `  ${e.result.variantId}: ${outcomeText(e.result)}`;
    case 'stage-finished':
      return `stage ${e.stage}: ${e.winnerId ? `carrying ${e.winnerId}` : 'no winner'}${e.gainPct !== null ? ` (${pct(e.gainPct)})` : ''}`;
    case 'validation-started':
      return `validation: winner vs baseline on ${e.scenarios.join(', ')}`;
    case 'session-finished':
      return e.profilePath ? `profile ${e.profilePath}\nreport  ${e.reportPath}` : `finished without a profile (exit ${e.exitCode})`;
    case 'warning':
      return `warning: ${e.message}`;
    case 'error':
      return `error: ${e.message}`;
    default:
      return null;
  }
}

function plannedLine(pv: PlannedVariant, simulated: boolean): string[] {
  const p = pv.predicted;
  const pred = p ? `  predicted ${f(p.totalTokPerS)} tok/s, TTFT ${f(p.meanTtftMs, 0)} ms, TPOT ${f(p.meanTpotMs)} ms` : '';
  const head =
    pv.status === 'planned'
      ? `  [run]    ${pv.variant.id}  (${pv.change})${pred}`
      : `  [${pv.status}] ${pv.variant.id}  (${pv.change}): ${pv.reason?.reason ?? ''}${pv.reason?.hint ? ` (${pv.reason.hint})` : ''}`;
  const out = [head];
  if (pv.engineArgv) out.push(`           $ ${formatCommand(pv.engineArgv, pv.env ?? {})}`);
  if (simulated && pv.argv && pv.status === 'planned') out.push(`           sim: ${formatCommand(pv.argv)}`);
  for (const w of pv.warnings) out.push(`           note: ${w}`);
  return out;
}

/** The dry-run plan: stages, every variant's exact command, pruned variants with reasons, the caveats. */
export function planText(plan: Plan, config: SessionConfig): string {
  const h = plan.host;
  const out: string[] = [];
  out.push(`Plan for ${plan.model} on ${h.gpuCount} x ${h.gpuName}${h.simulated ? ' (simulated)' : ''}`);
  out.push(`engines: ${plan.engines.join(', ')}; checkpoint: ${plan.checkpoint}${plan.fp8Checkpoint ? `; FP8 checkpoint: ${plan.fp8Checkpoint}` : ''}`);
  out.push(`workload: ${plan.scenario.label}, ${plan.scenario.numPrompts} prompts, all at once; objective: ${objectiveLabel(config.objective)}, margin ${config.marginPct}%${config.slo.length ? `, SLO ${formatSlo(config.slo)}` : ''}`);
  for (const n of plan.notes) out.push(`note: ${n}`);
  out.push('');
  out.push('Later stages start from the winner of the one before; their variants are shown along the predicted path and rebuilt from the real winner at run time.');
  for (const [i, s] of plan.stages.entries()) {
    out.push('');
    out.push(`Stage ${i + 1}: ${s.name} - ${s.title}${s.skipped ? `: skipped (${s.skipped})` : ''}`);
    for (const n of s.notes) out.push(`  note: ${n}`);
    for (const pv of s.variants) out.push(...plannedLine(pv, h.simulated));
  }
  if (plan.validation.length) {
    out.push('');
    out.push(`Validation: winner vs baseline on ${plan.validation.map((s) => `${s.label} (${s.numPrompts})`).join(', ')}`);
  }
  if (plan.predictedWinnerId) out.push(`Predicted winner: ${plan.predictedWinnerId}`);
  out.push('');
  out.push('Caveats:');
  plan.caveats.forEach((c, i) => out.push(`  ${i + 1}. ${c}`));
  const count = plan.stages.reduce((n, s) => n + s.variants.filter((v) => v.status === 'planned').length, 0);
  const pruned = plan.stages.reduce((n, s) => n + s.variants.filter((v) => v.status === 'pruned').length, 0);
  out.push('');
  out.push(`${count} variant(s) to launch, ${pruned} pruned. Nothing was launched (--dry-run).`);
  return out.join('\n');
}

/** The final stdout summary: per-stage results, the winner's command, and the before/after table. */
export function summaryText(o: SessionOutcome, config: SessionConfig): string {
  const out: string[] = [];
  const gpus = o.plan.host.gpuCount;
  const price = config.gpuHourPrice;
  for (const s of o.stages) {
    out.push(`Stage ${s.name}${s.skipped ? `: skipped (${s.skipped})` : ''}`);
    if (s.skipped || !s.results.length) {
      out.push('');
      continue;
    }
    const head = ['variant', 'status', 'total tok/s', 'out tok/s', 'TTFT ms', 'TPOT ms', 'start-up s', 'predicted (err)'];
    if (price !== undefined) head.push('$/Mtok');
    const rows = s.results.map((r) => {
      const m = r.metrics;
      const measured = m?.total_token_throughput;
      const pred = r.predicted?.totalTokPerS;
      const err = pred !== undefined && measured ? ((pred - measured) / measured) * 100 : null;
      const row = [
        r.variantId + (r.variantId === s.winnerId ? ' *' : ''),
        r.status === 'ok' ? 'ok' : `${r.status}: ${r.failure?.kind ?? ''}`,
        f(measured),
        f(m?.output_throughput),
        f(m?.mean_ttft_ms, 0),
        f(m?.mean_tpot_ms),
        f(r.startupS),
        pred !== undefined ? `${f(pred)} (${pct(err)})` : '-',
      ];
      if (price !== undefined) row.push(m ? `$${f(dollarsPerMillionTokens(m, gpus, price), 3)}` : '-');
      return row;
    });
    out.push(textTable(head, rows));
    const failures = s.results.filter((r) => r.status !== 'ok' && r.failure);
    for (const r of failures) out.push(`  ${r.variantId}: ${r.failure!.reason}`);
    out.push(`  stage gain: ${pct(s.gainPct)}; kept ${s.winnerId ?? 'nothing'}`);
    out.push('');
  }
  if (o.winner) {
    out.push(`Winner: ${o.winner.variantId}${o.winner.simulated ? ' (simulated figures)' : ''}`);
    out.push(`  $ ${formatCommand(o.winner.engineArgv ?? o.winner.argv, o.winner.env ?? {})}`);
    out.push('');
  }
  if (o.validation.length) {
    out.push(`Before/after: baseline ${o.baseline?.variantId ?? '-'} vs winner ${o.winner?.variantId ?? '-'}`);
    out.push(
      textTable(
        ['scenario', 'baseline tok/s', 'baseline TPOT', 'optimized tok/s', 'optimized TPOT', 'gain'],
        o.validation.map((r) => [r.scenario, f(r.baseline?.totalTokPerS), f(r.baseline?.meanTpotMs), f(r.optimized?.totalTokPerS), f(r.optimized?.meanTpotMs), pct(r.gainPct)]),
      ),
    );
    out.push('');
  }
  if (o.profilePath) out.push(`Profile: ${o.profilePath}`, `Report:  ${o.reportPath}`);
  out.push(`Run folder: ${o.runDir}`);
  out.push('Caveat: the search is greedy, stage by stage, and finds a local optimum; treat the result as a starting point.');
  return out.join('\n');
}
