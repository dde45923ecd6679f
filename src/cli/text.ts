// Plain-text views of the session for the headless front end: one progress line per step, the
// dry-run plan with every exact command, and the final summary tables. Pure: returns strings.
import { trafficText } from '../core/traffic-text.js';
import { busyHostMark } from '../core/host-load.js';
import { isStoppedEarly, STOPPED_EARLY, statusText } from '../core/result-status.js';
import type { TuneEvent, VariantResult } from '../core/events.js';
import type { StageVerdict } from '../core/stage-verdict.js';
import { runText } from '../core/run-of-runs.js';
import { meanTpotMs, tpotDefinition, tpotHeader, type TpotMode } from '../core/tpot.js';
import { regressionLine, validationCells, validationHead } from '../core/validation-table.js';
import { formatCommand } from '../core/shell-quote.js';
import { dollarsPerMillionTokens } from '../tune/decide/decide.js';
import { isBudgetEvent } from '../core/view-budget.js';
import { budgetProgressLine, summaryBudgetLines } from './text-budget.js';
import { referenceText } from '../core/stage-text.js';
import { type SessionView, type StageView } from '../core/session-view.js';
import { cpuSecondsSoFar, formatGpuHours, sessionCostText } from '../core/view-cost.js';
import { sweepProgressLine, sweepSummaryText } from './text-sweep.js';
import { servingArgv } from '../tune/launch/dummy-weights.js';
import { summaryWeightsLines, weightsMark } from './text-weights.js';
import { isSameServer, SAME_SERVER_STATUS } from '../tune/decide/same-server.js';
import { qualityGpuS, qualityLines } from '../quality/text.js';
import { isCapacityEvent } from '../core/capacity-events.js';
import { capacityProgressLine, capacitySummaryText } from './text-capacity.js';
import { num, signedPct } from '../core/format.js';
import { requestErrorsText } from '../core/failed-share.js';
import { isNoiseEvent } from '../core/noise-events.js';
import { noiseProgressLine, summaryNoiseLines, tiedSetLine } from './text-noise.js';

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

const traffic = (r: VariantResult) => {
  const t = trafficText(r);
  return t ? `; ${t}` : '';
};

function outcomeText(r: VariantResult): string {
  if (r.status === 'ok' && r.metrics) {
    const m = r.metrics;
    const failed = m.failed > 0 ? `, ${m.failed} of ${m.failed + m.completed} requests failed` : '';
    return `${num(m.total_token_throughput)} tok/s total, ${num(m.output_throughput)} out, TTFT ${num(m.mean_ttft_ms, 0)} ms, TPOT ${num(m.mean_tpot_ms, 1)} ms${failed}${r.simulated ? ' (simulated)' : ''}${r.clientBound ? ' [client-bound]' : ''}${busyHostMark(r.hostLoad)}${traffic(r)}`;
  }
  if (isSameServer(r)) return r.failure!.reason;
  const hint = r.failure?.hint ? `. ${r.failure.hint.replace(/\.$/, '')}` : '';
  // The progress line says what happened to the variant and why: "pruned (unsupported): FP8 ...".
  // A budget skip's reason starts with its own words ("not launched: ...", "screened out: ...").
  if (r.failure && BUDGET_WORD.test(r.failure.reason ?? '') && r.status === 'pruned') return r.failure.reason!;
  if (r.failure && !isStoppedEarly(r)) return `${r.status} (${r.failure.kind}): ${r.failure.reason}${hint}`;
  return `${statusText(r)}${hint}`;
}

/** With host calibration: prior, calibrated with its band, and measured throughput, when the session calibrated. */
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
  if (isCapacityEvent(e)) return capacityProgressLine(e);
  if (isBudgetEvent(e)) return budgetProgressLine(e);
  if (isNoiseEvent(e)) return noiseProgressLine(e);
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
      return (
        (e.profilePath ? `profile ${e.profilePath}\nreport  ${e.reportPath}` : `finished without a profile (exit ${e.exitCode})`) +
        (e.regression ? `\nwarning: the winner's ${e.regression}` : '')
      );
    case 'no-regress':
      return e.why;
    case 'warning':
      return `warning: ${e.message}`;
    case 'error':
      return `error: ${e.message}`;
    default:
      return null;
  }
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
  const rows = s.rows.map(({ result: r, gainPct, isWinner, isReference, isCarried, notEligible }) => {
    const m = r.metrics;
    const measured = m?.total_token_throughput;
    const pred = r.predicted?.totalTokPerS;
    const err = pred !== undefined && measured ? ((pred - measured) / measured) * 100 : null;
    const row = [
      r.variantId + (isWinner ? ' *' : '') + weightsMark(r),
      ...(s.served ? [s.served[r.variantId] ?? '-'] : []),
      notEligible ?? (r.status === 'ok' ? 'ok' : isStoppedEarly(r) ? STOPPED_EARLY : isSameServer(r) ? SAME_SERVER_STATUS : statusWord(r)),
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
    for (const { result: r, notEligible } of s.rows) if (notEligible) out.push(`  ${r.variantId}: ${notEligibleLine(notEligible, r)}`);
    out.push(...qualityLines(s.rows.map((r) => r.result)));
    if (s.verdict) out.push(stageGainLine(s));
    const tied = tiedSetLine(s.verdict);
    if (tied) out.push(tied);
    out.push('');
  }
  if (view.stages.some((s) => s.rows.length)) out.push(`${tpotDefinition(tpot)}.`, '');
  out.push(...summaryNoiseLines(view));
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
        validationHead(tpot),
        val.rows.map((r) => validationCells(r, (n) => num(n), signedPct)),
      ),
    );
    const regression = regressionLine(val.rows);
    if (regression) out.push(`REGRESSION: ${regression}`);
    if (view.noRegress) out.push(view.noRegress.why);
    out.push('');
  }
  out.push(...capacitySummaryText(view.capacity));
  out.push(...summaryBudgetLines(view));
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

/** Why a row cannot win: its words, then its failed requests' errors by kind ("486 x HTTP 503: ..."). */
function notEligibleLine(words: string, r: VariantResult): string {
  const errors = requestErrorsText(r.requestErrors);
  return `${words} (too many failed requests; its throughput is over the successes only)${errors ? `: ${errors}` : ''}`;
}

/** A row's status word: a budget skip's own ('not launched', 'screened out'), else status and failure kind. */
function statusWord(r: VariantResult): string {
  const budget = BUDGET_WORD.exec(r.failure?.reason ?? '');
  if (r.status === 'pruned' && budget) return budget[1]!;
  const kind = r.failure?.kind;
  return kind && kind !== r.status ? `${r.status}: ${kind}` : r.status;
}

const BUDGET_WORD = /^(not launched|screened out)/;
