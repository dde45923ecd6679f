// Plain-text views of the session for the headless front end: one progress line per step, the
// dry-run plan with every exact command, and the final summary tables. Pure: returns strings.
import { isStoppedEarly, STOPPED_EARLY, statusText } from '../../core/result-status.js';
import type { StageVerdict, TuneEvent, VariantResult } from '../../core/events.js';
import { runText } from '../../core/events.js';
import { meanTpotMs, tpotDefinition, tpotHeader, type TpotMode } from '../../core/tpot.js';
import { formatCommand } from '../../core/shell-quote.js';
import type { SessionConfig } from '../config/config.js';
import { dollarsPerMillionTokens, objectiveLabel } from '../decide/decide.js';
import type { PlanTimes } from '../plan/estimate-time.js';
import { durationText } from '../../core/duration-text.js';
import type { Plan, PlannedVariant } from '../plan/types.js';
import { referenceText, type SessionView, type StageView } from '../../core/view.js';
import { formatSlo } from '../../core/slo.js';
import { cpuSecondsSoFar, formatGpuHours, sessionCostText } from '../../core/view-cost.js';
import { sweepProgressLine, sweepSummaryText } from './text-sweep.js';
import { FINALIST_RULE } from '../sweep/finalists.js';
import { servingArgv } from '../launch/dummy-weights.js';
import { stageWeightsLine, summaryWeightsLines, weightsMark } from './text-weights.js';
import { isSameServer, SAME_SERVER, SAME_SERVER_STATUS } from '../decide/same-server.js';
import { qualityGpuS, qualityLines } from '../../quality/text.js';

/** A number with `digits` decimals, '-' when there is none. */
const num = (n: number | undefined | null, digits = 1) => (typeof n === 'number' && Number.isFinite(n) ? n.toFixed(digits) : '-');
/** A signed percentage, '-' when there is none. */
const signedPct = (n: number | null | undefined) =>
  typeof n === 'number' && Number.isFinite(n) ? `${n >= 0 ? '+' : ''}${n.toFixed(1)}%` : '-';

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
    return `${num(m.total_token_throughput)} tok/s total, ${num(m.output_throughput)} out, TTFT ${num(m.mean_ttft_ms, 0)} ms, TPOT ${num(m.mean_tpot_ms, 1)} ms${failed}${r.simulated ? ' (simulated)' : ''}${r.clientBound ? ' [client-bound]' : ''}`;
  }
  if (isSameServer(r)) return r.failure!.reason;
  const hint = r.failure?.hint ? `. ${r.failure.hint.replace(/\.$/, '')}` : '';
  // The progress line says what happened to the variant and why: "pruned (unsupported): FP8 ...".
  if (r.failure && !isStoppedEarly(r)) return `${r.status} (${r.failure.kind}): ${r.failure.reason}${hint}`;
  return `${statusText(r)}${hint}`;
}

/** Issue 24: prior, calibrated with its band, and measured throughput, when the session calibrated. */
function predictionText(r: VariantResult): string {
  const c = r.calibrated;
  // Rows the plan predicted (a reused same-server measurement has no prediction of its own).
  if (!c || !r.predicted) return '';
  const measured = r.status === 'ok' ? r.metrics?.total_token_throughput : undefined;
  const prior = `prior ${num(r.predicted.totalTokPerS)}, `;
  const cal = c.observations
    ? `calibrated ${num(c.totalTokPerS)} +-${Math.round(c.bandPct)}% (on ${c.observations} variant(s))`
    : 'no host calibration yet';
  return `\n    predicted tok/s: ${prior}${cal}${measured !== undefined ? `, measured ${num(measured)}` : ''}`;
}

/** A stage's verdict in one line: the new winner and its gain against the reference, or why the carried one stays. */
function stageLine(e: StageVerdict): string {
  if (!e.winnerId) return `stage ${e.stage}: no winner`;
  if (e.skipped) return `stage ${e.stage}: skipped; carrying ${e.winnerId}`;
  if (e.winnerId === e.carriedId) return `stage ${e.stage}: keeping ${e.winnerId} (${e.why})`;
  const gain = e.gainPct !== null && e.referenceId && e.referenceId !== e.winnerId ? ` (${signedPct(e.gainPct)} vs ${e.referenceId})` : '';
  return `stage ${e.stage}: carrying ${e.winnerId}${gain}`;
}

/** One stderr line per step worth telling; null for events that stay silent (logs, live snapshots). */
export function progressLine(e: TuneEvent): string | null {
  if (e.type === 'sweep-started' || e.type === 'sweep-point' || e.type === 'sweep-finished') return sweepProgressLine(e);
  switch (e.type) {
    case 'session-started':
      return `run folder ${e.runDir}${e.simulated ? ' (simulated host)' : ''}`;
    case 'stage-started':
      return `stage ${e.index + 1} ${e.stage}: ${e.skipped ? `skipped (${e.skipped})` : `${e.variants.length} variant(s)`}`;
    case 'variant-launching':
      return `  ${e.variantId}: launching on port ${e.port}${e.run ? ` (${runText(e.run)})` : ''}`;
    case 'job-state':
      return `  ${e.variantId}: Slurm job ${e.jobId} ${e.text}`;
    case 'server-ready':
      return `  ${e.variantId}: ready after ${num(e.startupS)} s`;
    case 'bench-started':
      return `  ${e.variantId}: benchmarking ${e.scenario} (${e.numPrompts} prompts)`;
    case 'variant-finished':
      return `  ${e.result.variantId}: ${outcomeText(e.result)}${predictionText(e.result)}`;
    case 'calibration-updated':
      return `  ${e.summary}`;
    case 'stage-finished':
      return stageLine(e);
    case 'session-cost':
      return `tuning cost: ${e.cost.summary}`;
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

function plannedLine(planned: PlannedVariant, simulated: boolean, seconds?: number): string[] {
  const p = planned.predicted;
  const c = planned.calibrated;
  const cal = c ? ` (calibrated ${num(c.totalTokPerS)} +-${Math.round(c.bandPct)}% on ${c.observations} variant(s) of this host)` : '';
  const pred = p ? `  predicted ${num(p.totalTokPerS)} tok/s${cal}, TTFT ${num(p.meanTtftMs, 0)} ms, TPOT ${num(p.meanTpotMs)} ms` : '';
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
    `workload: ${plan.scenario.label}, ${plan.scenario.numPrompts} prompts, all at once; objective: ${objectiveLabel(config.objective)}, margin ${config.marginPct}%${config.slo.length ? `, SLO ${formatSlo(config.slo)}` : ''}`,
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
  out.push(`${count} variant(s) to launch, ${pruned} pruned${sameText}${total}. Nothing was launched (--dry-run).`);
  return out.join('\n');
}

/** A stage's rows as the summary table. */
function stageRowsTable(s: StageView, gpus: number, price: number | undefined, tpot: TpotMode, cpuHost = false): string {
  const head = [
    'variant',
    ...(s.served ? ['serves'] : []),
    'status',
    'total tok/s',
    'out tok/s',
    'TTFT ms',
    tpotHeader('TPOT ms', tpot),
    'start-up s',
    cpuHost ? 'CPU-s' : 'GPU-h',
    'predicted (err)',
    'gain',
  ];
  if (price !== undefined) head.push('$/Mtok');
  const rows = s.rows.map(({ result: r, gainPct, isWinner, isReference, isCarried }) => {
    const m = r.metrics;
    const measured = m?.total_token_throughput;
    const pred = r.predicted?.totalTokPerS;
    const err = pred !== undefined && measured ? ((pred - measured) / measured) * 100 : null;
    const row = [
      r.variantId + (isWinner ? ' *' : '') + weightsMark(r),
      ...(s.served ? [s.served[r.variantId] ?? '-'] : []),
      r.status === 'ok'
        ? 'ok'
        : isStoppedEarly(r)
          ? STOPPED_EARLY
          : isSameServer(r)
            ? SAME_SERVER_STATUS
            : `${r.status}: ${r.failure?.kind ?? ''}`,
      num(measured),
      num(m?.output_throughput),
      num(m?.mean_ttft_ms, 0),
      num(m ? meanTpotMs(m, tpot) : undefined),
      num(r.startupS),
      cpuHost ? num(r.cpuS) : r.gpuTime ? formatGpuHours(r.gpuTime.gpuS / 3600) : '-',
      pred !== undefined ? `${num(pred)} (${signedPct(err)})` : '-',
      isCarried ? 'carried' : isReference ? 'ref' : signedPct(gainPct),
    ];
    if (price !== undefined) row.push(m ? `$${num(dollarsPerMillionTokens(m, gpus, price), 3)}` : '-');
    return row;
  });
  return textTable(head, rows);
}

/** The line under a stage: its gain against the reference the core named, and what it kept. */
function stageGainLine(s: StageView): string {
  const v = s.verdict;
  const against = v ? referenceText(s) : null;
  return `  stage gain: ${signedPct(v?.gainPct)}${against && v?.gainPct !== null ? ` vs ${against}` : ''}; kept ${v?.winnerId ?? 'nothing'}${v?.why ? ` (${v.why})` : ''}`;
}

/**
 * The final stdout summary, from the projection of the event stream (the TUI's Results screen
 * shows the same): per-stage results, the winner's command, and the before/after table.
 */
export function summaryText(view: SessionView, opts: { gpuHourPrice?: number; tpot?: TpotMode } = {}): string {
  const tpot = opts.tpot ?? 'excl';
  const out: string[] = [];
  if (view.status === 'interrupted') out.push('INTERRUPTED: the run stopped before it finished; these are the measurements it made.', '');
  const gpus = view.plan?.host.gpuCount ?? 1;
  // A real host without GPUs (llama.cpp on the CPU): cost in CPU-seconds, not GPU-hours.
  const cpuHost = cpuSecondsSoFar(view) !== null;
  for (const s of [...view.stages].sort((a, b) => a.index - b.index)) {
    out.push(`Stage ${s.name}${s.skipped ? `: skipped (${s.skipped})` : ''}`);
    if (s.skipped || !s.rows.length) {
      out.push('');
      continue;
    }
    out.push(stageRowsTable(s, gpus, opts.gpuHourPrice, tpot, cpuHost));
    for (const { result: r } of s.rows) if (r.status !== 'ok' && r.failure) out.push(`  ${r.variantId}: ${r.failure.reason}`);
    out.push(...qualityLines(s.rows.map((r) => r.result)));
    if (s.verdict) out.push(stageGainLine(s));
    out.push('');
  }
  if (view.stages.some((s) => s.rows.length)) out.push(`${tpotDefinition(tpot)}.`, '');
  const w = view.winner;
  if (w) {
    out.push(
      `Winner: ${w.variantId}${w.simulated ? ' (simulated figures)' : ''}${w.weights?.kind === 'dummy' ? ' (tuned on dummy weights; the command loads the real ones)' : ''}`,
    );
    out.push(`  $ ${formatCommand(servingArgv(w.engineArgv ?? w.argv, w.variant.engine, w.weights), w.env ?? {})}`);
    out.push('');
  }
  out.push(...summaryWeightsLines(view));
  if (view.sweep) out.push(...sweepSummaryText(view.sweep));
  const val = view.validation;
  if (val?.rows.length) {
    out.push(
      `Before/after: baseline ${val.baselineId}${val.baselineWhy ? ` (${val.baselineWhy})` : ''} vs ${view.sweep?.decides ? "the frontier's choice" : 'winner'} ${val.winnerId}`,
    );
    out.push(
      textTable(
        // The before/after rows keep servelab's TPOT (the first token left out) in either mode.
        [
          'scenario',
          'baseline tok/s',
          `baseline TPOT${tpot === 'inclusive' ? ' (excl. 1st)' : ''}`,
          'optimized tok/s',
          `optimized TPOT${tpot === 'inclusive' ? ' (excl. 1st)' : ''}`,
          'gain',
        ],
        val.rows.map((r) => [
          r.scenario,
          num(r.baseline?.totalTokPerS),
          num(r.baseline?.meanTpotMs),
          num(r.optimized?.totalTokPerS),
          num(r.optimized?.meanTpotMs),
          signedPct(r.gainPct),
        ]),
      ),
    );
    out.push('');
  }
  const cost = sessionCostText(view);
  if (cost)
    out.push(
      `Tuning cost: ${cost}`,
      cpuHost
        ? "  (CPU-s per row: the server process's own CPU time, launch to stop; the host has no GPU)"
        : '  (GPU-h per row: GPUs held x launch to stop, startup and benchmark together; the host column counts idle GPUs too)',
      '',
    );
  const qualityS = qualityGpuS(view.stages.flatMap((s) => s.rows.map((r) => r.result)));
  if (qualityS) out.push(`Quality check: ${qualityS.toFixed(1)} GPU-s of greedy requests (inside the launches' GPU time)`, '');
  if (view.outcome?.profilePath) out.push(`Profile: ${view.outcome.profilePath}`, `Report:  ${view.outcome.reportPath}`);
  if (view.runDir) out.push(`Run folder: ${view.runDir}`);
  out.push('Caveat: the search is greedy, stage by stage, and finds a local optimum; treat the result as a starting point.');
  return out.join('\n');
}

/** What an interrupted run leaves and how to continue it (headless and the workbench say the same). */
export function interruptedText(runDir: string): string {
  return `interrupted; finished variants are in ${runDir}. Continue with: servelab --auto --resume ${runDir}`;
}
