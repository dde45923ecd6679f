// The dry-run plan as text for the headless front end: every stage, every exact command, the
// estimated time and cost. Pure: returns strings.
import { formatCommand } from '../core/shell-quote.js';
import type { SessionConfig } from '../tune/config/config.js';
import { objectiveLabel } from '../tune/decide/decide.js';
import type { PlanTimes } from '../tune/plan/estimate-time.js';
import { durationText } from '../core/duration-text.js';
import { planBudgetLines } from './text-budget.js';
import type { Plan, PlannedVariant } from '../tune/plan/types.js';
import { formatSlo } from '../core/slo.js';
import { FINALIST_RULE } from '../tune/sweep/finalists.js';
import { stageWeightsLine } from '../tune/plan/weights-line.js';
import { SAME_SERVER } from '../tune/decide/same-server.js';
import { num } from '../core/format.js';

function plannedLine(planned: PlannedVariant, simulated: boolean, seconds?: number): string[] {
  const p = planned.predicted;
  const c = planned.calibrated;
  const cal = c ? ` (calibrated ${num(c.totalTokPerS)} +-${Math.round(c.bandPct)}% on ${c.observations} variant(s) of this host)` : '';
  // The model's measured error at this engine and concurrency, as the Plan screen shows it.
  const err = p?.errorPct !== undefined ? ` +-${Math.round(p.errorPct)}%` : '';
  const pred = p
    ? `  predicted ${num(p.totalTokPerS)} tok/s${err}${cal}, TTFT ${num(p.meanTtftMs, 0)} ms, TPOT ${num(p.meanTpotMs)} ms`
    : '';
  const time = seconds !== undefined ? `  est. ${durationText(seconds)}` : '';
  const head =
    planned.status === 'planned'
      ? `  [run]    ${planned.variant.id}  (${planned.change})${pred}${time}`
      : `  [${planned.status}] ${planned.variant.id}  (${planned.change}): ${planned.reason?.reason ?? ''}${planned.reason?.hint ? ` (${planned.reason.hint})` : ''}`;
  const out = [head];
  if (planned.engineArgv) out.push(`           $ ${formatCommand(planned.engineArgv, planned.env ?? {})}`);
  if (simulated && planned.argv && planned.status === 'planned') out.push(`           sim: ${formatCommand(planned.argv)}`);
  for (const w of planned.warnings) out.push(`           note: ${w}`);
  return out;
}

/** The dry-run plan: stages, every variant's exact command, pruned variants with reasons, the caveats. */
export function planText(plan: Plan, config: SessionConfig, times?: PlanTimes): string {
  const h = plan.host;
  const out: string[] = [];
  out.push(
    `Plan for ${plan.model} on ${h.gpuCount ? `${h.gpuCount} x ${h.gpuName}` : `the CPU (${h.cpu?.threads ?? '?'} threads, no GPU)`}${h.simulated ? ' (simulated)' : ''}`,
  );
  out.push(
    `engines: ${plan.engines.join(', ')}; checkpoint: ${plan.checkpoint}${plan.fp8Checkpoint ? `; FP8 checkpoint: ${plan.fp8Checkpoint}` : ''}`,
  );
  out.push(
    `workload: ${plan.scenario.label}, ${plan.scenario.turns ? `${plan.scenario.maxConcurrency ?? 1} users at once` : `${plan.scenario.numPrompts} prompts, ${plan.scenario.maxConcurrency ? `at most ${plan.scenario.maxConcurrency} at once` : 'all at once'}`}; objective: ${objectiveLabel(config.objective)}, margin ${config.marginPct}%${config.slo.length ? `, SLO ${formatSlo(config.slo)}` : ''}`,
  );
  for (const n of plan.notes) out.push(`note: ${n}`);
  out.push('');
  out.push(
    'Later stages start from the winner of the one before; their variants are shown along the predicted path and rebuilt from the real winner at run time.',
  );
  for (const [i, s] of plan.stages.entries()) {
    out.push('');
    out.push(`Stage ${i + 1}: ${s.name} - ${s.title}${s.skipped ? `: skipped (${s.skipped})` : ''}`);
    if (s.gpus && plan.replica) out.push(`  GPUs: ${s.gpus}`);
    for (const n of s.notes) out.push(`  note: ${n}`);
    const weights = stageWeightsLine(s.variants);
    if (weights) out.push(weights);
    for (const planned of s.variants) out.push(...plannedLine(planned, h.simulated, times?.variantS[planned.variant.id]));
  }
  if (plan.validation.length) {
    out.push('');
    out.push(
      `Validation: winner vs baseline on ${plan.validation.map((s) => `${s.label} (${s.numPrompts})`).join(', ')}${times?.validationS ? `  est. ${durationText(times.validationS)}` : ''}`,
    );
    if (plan.dummyWeights?.used) out.push('  weights: real (the final validation always runs the real weights, without ignore_eos)');
  }
  if (config.sweep) {
    out.push('');
    out.push(
      `Then: sweep ${config.sweep.spec}${config.sweep.all ? ' (every level)' : ''} on the finalists (${FINALIST_RULE})${config.sweep.frontier ? '; the frontier chooses the variant and load for the SLO, and validation runs at that load' : ''}`,
    );
  }
  const cap = config.capacity;
  if (cap)
    out.push(
      '',
      `Last: the winner's capacity under ${cap.slo}: one more launch (real weights), highest ${cap.by} up to ${cap.max}, resolution ${cap.resolution} (docs/capacity.md)`,
    );
  if (plan.predictedWinnerId) out.push(`Predicted winner: ${plan.predictedWinnerId}`);
  out.push('');
  out.push('Caveats:');
  plan.caveats.forEach((c, i) => out.push(`  ${i + 1}. ${c}`));
  const count = plan.stages.reduce((n, s) => n + s.variants.filter((v) => v.status === 'planned').length, 0);
  const pruned = plan.stages.reduce((n, s) => n + s.variants.filter((v) => v.status === 'pruned').length, 0);
  out.push('');
  const total = times ? `, about ${durationText(times.totalS)} in all` : '';
  const same = plan.stages.reduce(
    (n, s) => n + s.variants.filter((v) => v.status === 'dropped' && v.reason?.reason.startsWith(SAME_SERVER)).length,
    0,
  );
  const sameText = same ? `, ${same} not launched (same server as one measured)` : '';
  out.push(...planBudgetLines(plan));
  out.push(`${count} variant(s) to launch, ${pruned} pruned${sameText}${total}. Nothing was launched (--dry-run).`);
  return out.join('\n');
}
