// The Markdown report saved beside a profile, in the studies' shape: conclusion with the
// recommended command, before/after table, caveats, set-up, benchmark commands, results per
// stage, and what each stage was worth.
import { formatGpuHours } from '../core/view-cost.js';
import { servedWhenMixed } from '../core/view.js';
import { formatCommand } from '../core/shell-quote.js';
import { isStoppedEarly, statusText } from '../core/result-status.js';
import { meanTpotMs, tpotDefinition, tpotHeader, type TpotMode } from '../core/tpot.js';
import type { Profile, RecordedResult, ReplayRecord, StageRecord, ValidationRow, Workload } from './schema.js';
import { sweepMarkdown } from '../sweep/report.js';
import { capacityMarkdown } from '../capacity/text.js';
import { TRTLLM_DUMMY_YAML } from '../engines/trtllm.js';
import { engineVersionText } from './engine-version.js';
import { calibratedCell, calibrationLine } from './report-calibration.js';
import { qualitySection } from './report-quality.js';
import { fmt, fmtPct, metric } from './report-format.js';

/**
 * The studies' own caveats; every report carries them. The fourth is worded as its sources say it:
 * the studies recommend FP8 for high-throughput serving, and gave no source for an accuracy figure;
 * vLLM's FP8 page (docs/features/quantization/fp8.md, https://docs.vllm.ai/en/stable/features/quantization/fp8/,
 * the same sentence since https://docs.vllm.ai/en/v0.5.4/quantization/fp8.html) says only "minimal
 * impact on accuracy". servelab measures throughput, never accuracy, so it gives no figure.
 */
export const STUDY_CAVEATS: readonly string[] = [
  'The search is greedy (stage by stage), so it finds a local optimum, not necessarily the global one.',
  'Other knobs (max batch size, scheduling, KV-cache size, CUDA graph, torch.compile) depend on the use case; the result is a starting point.',
  'Results hold for the hardware and engine versions used; engines change.',
  'The studies recommend FP8 quantization for high-throughput serving. Its accuracy cost depends on the model and was not measured here (vLLM\'s FP8 docs say "minimal impact on accuracy": https://docs.vllm.ai/en/stable/features/quantization/fp8/); check it on your own evaluation before serving.',
];

const ENGINE_NAMES = { vllm: 'vLLM', sglang: 'SGLang', trtllm: 'TensorRT-LLM', llamacpp: 'llama.cpp' } as const;

/** Escape a cell for a Markdown table. */
function cell(s: string): string {
  return s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join(
    '\n',
  );
}

function code(cmd: string): string {
  return ['```sh', cmd, '```'].join('\n');
}

export function hardwareLine(p: Pick<Profile, 'host'>): string {
  const h = p.host;
  const mem = h.gpuMemoryMiB ? ` (${Math.round(h.gpuMemoryMiB / 1024)} GiB each)` : '';
  return `${h.gpuCount} x ${h.gpuName}${mem}${h.simulated ? ', simulated' : ''}`;
}

export function workloadLine(w: Workload): string {
  const lens = w.dataset === 'random' ? ` ${w.inputLen ?? '?'} in / ${w.outputLen ?? '?'} out tokens,` : '';
  const conc = w.maxConcurrency === null ? 'all at once' : `max concurrency ${w.maxConcurrency}`;
  return `${w.scenario} (${w.dataset},${lens} ${w.numPrompts} prompts, ${conc}, seed ${w.seed})`;
}

/** The `vllm bench serve` command that reproduces the workload against a running server. */
export function benchCommand(w: Workload, model: string): string {
  if (w.benchCommand) return w.benchCommand;
  const argv = ['vllm', 'bench', 'serve', '--backend', 'openai-chat', '--endpoint', '/v1/chat/completions', '--model', model];
  if (w.dataset === 'sharegpt') {
    argv.push('--dataset-name', 'sharegpt', '--dataset-path', w.datasetPath ?? 'ShareGPT_V3_unfiltered_cleaned_split.json');
  } else if (w.dataset === 'custom') {
    argv.push(
      '--dataset-name',
      'custom',
      '--dataset-path',
      w.datasetPath ?? 'prompts.jsonl',
      '--custom-output-len',
      '-1',
      '--skip-chat-template',
    );
  } else {
    argv.push(
      '--dataset-name',
      'random',
      '--random-input-len',
      String(w.inputLen ?? 1024),
      '--random-output-len',
      String(w.outputLen ?? 128),
    );
  }
  argv.push('--num-prompts', String(w.numPrompts), '--seed', String(w.seed));
  if (w.maxConcurrency !== null) argv.push('--max-concurrency', String(w.maxConcurrency));
  if (w.requestRate !== null) argv.push('--request-rate', String(w.requestRate));
  return formatCommand(argv);
}

/** The command that serves the winner (engine argv with its env). */
export function recommendedCommand(p: Profile): string {
  return formatCommand(p.engineArgv, p.env);
}

function resultCommand(r: RecordedResult): string {
  return formatCommand(r.engineArgv ?? r.argv, r.env ?? {});
}

function stageTable(stage: StageRecord, tpot: TpotMode): string {
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
    const status =
      r.status === 'ok'
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

function validationTable(rows: ValidationRow[]): string {
  return table(
    ['scenario', 'baseline tok/s', 'baseline TPOT ms', 'optimized tok/s', 'optimized TPOT ms', 'gain'],
    rows.map((r) => [
      r.scenario,
      fmt(r.baseline?.totalTokPerS),
      fmt(r.baseline?.meanTpotMs),
      fmt(r.optimized?.totalTokPerS),
      fmt(r.optimized?.meanTpotMs),
      fmtPct(r.gainPct),
    ]),
  );
}

function replayTable(replays: ReplayRecord[]): string {
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
 * How the profile's engine was asked for dummy weights: TensorRT-LLM in its YAML (trtllm.ts
 * TRTLLM_DUMMY_YAML), vLLM and SGLang by flag (src/engines/startup-cache.ts DUMMY_WEIGHTS has the sources).
 */
function dummySpelling(engine: Profile['engine']['name']): string {
  return engine === 'trtllm'
    ? `\`${TRTLLM_DUMMY_YAML.key}: ${TRTLLM_DUMMY_YAML.value}\` in its --extra_llm_api_options YAML`
    : '`--load-format dummy`';
}

/** A list as a sentence says it: "a", "a and b", "a, b and c". */
function listText(items: string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * The conclusion's word on validation workloads the winner does not win: where it loses to the
 * baseline (gain below 0) and, in a servelab session, where it failed while the baseline ran (a
 * published study leaves a side out when it did not report it; that is not a failure). A headline
 * gain on one workload must not hide a loss on another.
 */
function lossSentences(p: Profile): string[] {
  const losses = p.validation.filter((r) => r.gainPct !== null && r.gainPct < 0).map((r) => `${r.scenario} (${fmtPct(r.gainPct)})`);
  const failed = p.source === 'study' ? [] : p.validation.filter((r) => r.baseline && !r.optimized).map((r) => r.scenario);
  return [
    ...(losses.length ? [`It loses to the baseline on ${listText(losses)}.`] : []),
    ...(failed.length ? [`It failed on ${listText(failed)}, where the baseline ran.`] : []),
  ];
}

export function renderReport(p: Profile): string {
  const engine = ENGINE_NAMES[p.engine.name];
  const total = p.metrics.total_token_throughput;
  const sharegptRow = p.validation.find((r) => r.scenario === p.workload.scenario) ?? p.validation[0];
  const out: string[] = [];
  out.push(`# ${p.model} on ${p.host.gpuCount} x ${p.host.gpuName}: ${engine} ${engineVersionText(p)}`);
  out.push('');
  out.push('## Conclusion');
  out.push('');
  out.push('Recommended command:');
  out.push('');
  out.push(code(recommendedCommand(p)));
  out.push('');
  const gain = sharegptRow?.gainPct != null ? `, ${fmtPct(sharegptRow.gainPct)} over the baseline` : '';
  out.push(
    `Total token throughput ${fmt(total)} tok/s (output ${fmt(p.metrics.output_throughput)} tok/s) on ${workloadLine(p.workload)}${gain}.` +
      (p.startupS !== null ? ` Start-up took ${fmt(p.startupS, 0)} s.` : '') +
      lossSentences(p)
        .map((x) => ` ${x}`)
        .join(''),
  );
  const kept = p.stages.flatMap((s) => s.results).find((r) => r.variantId === p.variant.id && r.weights?.kind === 'dummy');
  if (kept)
    out.push(
      '',
      `The throughput above was measured on dummy weights (${dummySpelling(p.engine.name)}, outputs fixed by ignore_eos)${p.validation.length ? '; the before/after table ran the real weights' : ''}.`,
    );
  if (p.host.simulated) out.push('', '**These numbers come from the simulated host (a performance model), not a GPU.**');
  if (p.source === 'study') out.push('', 'The numbers are the published study results, transcribed; they were not measured by servelab.');
  out.push('');
  if (p.validation.length) {
    out.push('## Before and after');
    out.push('');
    out.push(validationTable(p.validation));
    out.push('');
  }
  out.push('## Caveats');
  out.push('');
  STUDY_CAVEATS.forEach((c, i) => out.push(`${i + 1}. ${c}`));
  if (p.slo.length)
    out.push(
      `${STUDY_CAVEATS.length + 1}. Variants had to meet the SLOs: ${p.slo.map((s) => `${s.metric} ${s.stat} < ${s.limitMs} ms`).join(', ')}.`,
    );
  out.push('');
  out.push('## Set-up');
  out.push('');
  out.push(`- Model: ${p.model} (served checkpoint: ${p.variant.model})`);
  out.push(
    `- Hardware: ${hardwareLine(p)}${p.host.driver ? `, driver ${p.host.driver}` : ''}${p.host.cuda ? `, CUDA ${p.host.cuda}` : ''}`,
  );
  out.push(
    `- Engine: ${engine} ${engineVersionText(p)} (${p.engine.runtime.kind === 'docker' ? `docker image ${p.engine.runtime.image}` : 'native'})`,
  );
  if (Object.keys(p.engineVersions).length) {
    out.push(
      `- Engine versions tried: ${Object.entries(p.engineVersions)
        .map(([k, v]) => `${ENGINE_NAMES[k as keyof typeof ENGINE_NAMES] ?? k} ${v}`)
        .join(', ')}`,
    );
  }
  out.push(`- Objective: ${p.objective} token throughput${p.objective === 'total' ? ' (input + output)' : ''}`);
  out.push(`- servelab ${p.servelabVersion}, profile written ${p.createdAt}`);
  out.push('');
  out.push('## Benchmark commands');
  out.push('');
  out.push(`Each variant was measured on ${workloadLine(p.workload)}:`);
  out.push('');
  out.push(code(benchCommand(p.workload, p.variant.model)));
  out.push('');
  out.push('## Results per stage');
  out.push('', `${tpotDefinition(p.tpot)}.`);
  for (const [i, stage] of p.stages.entries()) {
    out.push('');
    out.push(`### ${i + 1}. ${stage.name}`);
    out.push('');
    if (stage.skipped) out.push(`Skipped: ${stage.skipped}`);
    else out.push(stageTable(stage, p.tpot ?? 'excl'));
  }
  out.push('');
  out.push('## Summary');
  out.push('');
  for (const stage of p.stages) out.push(`- ${stageSummary(stage)}`);
  for (const note of p.notes) out.push(`- ${note}`);
  const cal = calibrationLine(p);
  out.push(...(cal ? ['', '## Calibration', '', cal] : []), ...qualitySection(p));
  if (p.cost)
    out.push(
      '',
      '## Tuning cost',
      '',
      `${p.cost.summary}.`,
      '',
      p.cost.cpu
        ? "Per variant: the server process's own CPU-seconds, launch to stop (the stage tables' CPU-s column). The host has no GPU."
        : "Per variant: GPUs held x time from launch to stop. Host: every GPU of the host x the session's wall time (an idle GPU is paid for too).",
    );
  if (p.sweep) out.push('', ...sweepMarkdown(p.sweep));
  if (p.capacity) out.push('', ...capacityMarkdown(p.capacity, p.host.gpuCount));
  if (p.replays.length) {
    out.push('');
    out.push('## Replays');
    out.push('');
    out.push(replayTable(p.replays));
  }
  out.push('');
  return out.join('\n');
}
