// The report's Markdown tables: each stage's results, the before/after validation and the replays.
import { requestErrorsText } from '../../core/failed-share.js';
import { formatGpuHours } from '../../core/view-cost.js';
import { servedWhenMixed } from '../../core/stage-text.js';
import { formatCommand } from '../../core/shell-quote.js';
import { isStoppedEarly, statusText } from '../../core/result-status.js';
import { meanTpotMs, tpotHeader, type TpotMode } from '../../core/tpot.js';
import { validationCells, validationHead } from '../../core/validation-table.js';
import type { RecordedResult, ReplayRecord, StageRecord, ValidationRow } from '../schema/profile.js';
import { calibratedCell } from './calibration.js';
import { fmt, fmtPct, metric } from './format.js';
import { hardwareLine } from './lines.js';

/** Escape a cell for a Markdown table. */
export function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join(
    '\n',
  );
}

function resultCommand(r: RecordedResult): string {
  return formatCommand(r.engineArgv ?? r.argv, r.env ?? {});
}

export function stageTable(stage: StageRecord, tpot: TpotMode): string {
  const anyPredicted = stage.results.some((r) => r.predicted);
  // Which file each row served, when they differ (an engine stage with --gguf, llama.cpp's quantization).
  const served = servedWhenMixed(stage.results);
  const head = [
    'variant',
    ...(served ? ['serves'] : []),
    'command',
    'result',
    'total tok/s',
    'out tok/s',
    'mean TTFT ms',
    tpotHeader('mean TPOT ms', tpot),
    'mean ITL ms',
  ];
  if (anyPredicted) head.push('predicted tok/s (error)');
  const anyCalibrated = stage.results.some((r) => r.calibrated);
  if (anyCalibrated) head.push('calibrated tok/s +-band (error)');
  // A launch on a host without GPUs held none: its cost is the CPU-s column.
  const anyCost = stage.results.some((r) => r.gpuTime && r.gpuTime.gpus > 0);
  if (anyCost) head.push('GPU-h (startup / benchmark)');
  // A CPU engine's cost (llama.cpp): start-up and the server's CPU-seconds per launch.
  const anyCpu = stage.results.some((r) => r.cpuS !== undefined);
  if (anyCpu) head.push('start-up s', 'CPU-s');
  const rows = stage.results.map((r) => {
    // --dummy-weights: the row says so; the Summary's note says why the real-weight rows are real.
    const name =
      (r.variant.label ?? r.variantId) +
      (r.variantId === stage.winnerId ? ' (kept)' : '') +
      (r.weights?.kind === 'dummy' ? ' (dummy weights)' : '');
    // Too many failed requests (--max-failed): the row's words, then what the failures said.
    const status = stage.notEligible?.[r.variantId]
      ? [stage.notEligible[r.variantId]!, requestErrorsText(r.requestErrors)].filter(Boolean).join(': ')
      : r.status === 'ok'
        ? 'ok'
        : isStoppedEarly(r)
          ? statusText(r)
          : `${r.status}${r.failure ? `: ${r.failure.kind}, ${r.failure.reason}` : ''}`;
    const row = [
      name,
      ...(served ? [served[r.variantId] ?? '–'] : []),
      `\`${resultCommand(r)}\``,
      status,
      fmt(metric(r, 'total_token_throughput')),
      fmt(metric(r, 'output_throughput')),
      fmt(metric(r, 'mean_ttft_ms')),
      fmt(r.metrics ? meanTpotMs(r.metrics, tpot) : null),
      fmt(metric(r, 'mean_itl_ms')),
    ];
    if (anyPredicted) {
      const measured = metric(r, 'total_token_throughput');
      const pred = r.predicted?.totalTokPerS;
      const err = pred !== undefined && measured ? ((pred - measured) / measured) * 100 : null;
      row.push(pred !== undefined ? `${fmt(pred)} (${fmtPct(err)})` : '–');
    }
    if (anyCalibrated) row.push(calibratedCell(r));
    if (anyCost)
      row.push(
        r.gpuTime
          ? `${formatGpuHours(r.gpuTime.gpuS / 3600)} (${formatGpuHours(r.gpuTime.startupGpuS / 3600)} / ${formatGpuHours(r.gpuTime.benchmarkGpuS / 3600)})`
          : '–',
      );
    if (anyCpu) row.push(fmt(r.startupS, 1), fmt(r.cpuS, 1));
    return row;
  });
  return table(head, rows);
}

/** One line per stage: what it was worth. */
export function stageSummary(stage: StageRecord): string {
  if (stage.skipped) return `${stage.name}: skipped (${stage.skipped})`;
  const okCount = stage.results.filter((r) => r.status === 'ok').length;
  if (okCount === 0) return `${stage.name}: nothing ran successfully`;
  const winner = stage.results.find((r) => r.variantId === stage.winnerId);
  const who = winner ? (winner.variant.label ?? winner.variantId) : 'the carried winner';
  if (stage.gainPct === null || stage.gainPct <= 0) return `${stage.name}: no gain (kept ${who})`;
  return `${stage.name}: ${fmtPct(stage.gainPct)} (${who})`;
}

export function validationTable(rows: ValidationRow[], tpot: TpotMode): string {
  return table(
    validationHead(tpot),
    rows.map((r) => validationCells(r, (n) => fmt(n), fmtPct)),
  );
}

export function replayTable(replays: ReplayRecord[]): string {
  return table(
    ['date', 'host', 'engine version', 'total tok/s', 'verdict', 'why'],
    replays.map((r) => [
      r.at,
      hardwareLine({ host: r.host }),
      r.engineVersion ?? '–',
      fmt((r.metrics as Record<string, unknown> | undefined)?.total_token_throughput as number | undefined),
      r.verdict,
      r.reasons.join('; ') || (r.failure?.reason ?? ''),
    ]),
  );
}

/**
 * How the profile's engine was asked for dummy weights: TensorRT-LLM in its YAML (trtllm/adapter.ts
 * TRTLLM_DUMMY_YAML), vLLM and SGLang by flag (src/engines/startup-cache.ts DUMMY_WEIGHTS has the sources).
 */
