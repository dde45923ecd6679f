// The Markdown report saved beside a profile, in the studies' shape: conclusion with the
// recommended command, before/after table, caveats, set-up, benchmark commands, results per
// stage, and what each stage was worth.
import { regressionLine } from '../../core/validation-table.js';
import { formatCommand } from '../../core/shell-quote.js';
import { tpotDefinition } from '../../core/tpot.js';
import type { Profile } from '../schema/profile.js';
import { sweepMarkdown } from '../../sweep/report.js';
import { capacityMarkdown } from '../../capacity/text.js';
import { ENGINE_LABEL } from '../../core/variant.js';
import { getAdapter } from '../../engines/index.js';
import { engineVersionText } from './engine-version.js';
import { calibrationLine } from './calibration.js';
import { noiseMarkdown } from './noise.js';
import { budgetMarkdown } from '../schema/budget.js';
import { qualitySection } from './quality.js';
import { fmt, fmtPct } from './format.js';
import { benchCommand, hardwareLine, workloadLine } from './lines.js';
import { replayTable, stageSummary, stageTable, validationTable } from './tables.js';

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

function code(cmd: string): string {
  return ['```sh', cmd, '```'].join('\n');
}

export function recommendedCommand(p: Profile): string {
  return formatCommand(p.engineArgv, p.env);
}

function dummySpelling(engine: Profile['engine']['name']): string {
  return getAdapter(engine).dummyWeightsText ?? '`--load-format dummy`';
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

/** The conclusion (the command, what it measured, on which weights) and the before/after table. */
function conclusionSection(p: Profile, out: string[]): void {
  const total = p.metrics.total_token_throughput;
  const sharegptRow = p.validation.find((r) => r.scenario === p.workload.scenario) ?? p.validation[0];
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
    out.push(validationTable(p.validation, p.tpot ?? 'excl'));
    out.push('');
    // The guard across workloads: a loss beyond the noise rule's margin is named, not left in a column.
    const regression = regressionLine(p.validation);
    if (regression) out.push(`**REGRESSION:** ${regression}.`, '');
  }
}

/** The studies' caveats, the set-up and the benchmark command. */
function setupSection(p: Profile, out: string[]): void {
  const engine = ENGINE_LABEL[p.engine.name];
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
        .map(([k, v]) => `${(ENGINE_LABEL as Record<string, string>)[k] ?? k} ${v}`)
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
}

/** Every stage's table, then one line per stage. */
function resultsSection(p: Profile, out: string[]): void {
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
}

/** Calibration, quality, cost, sweep, capacity and replays, where the profile has them. */
function closingSections(p: Profile, out: string[]): void {
  const cal = calibrationLine(p);
  out.push(...(cal ? ['', '## Calibration', '', cal] : []), ...qualitySection(p), ...budgetMarkdown(p.budget), ...noiseMarkdown(p));
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
}

export function renderReport(p: Profile): string {
  const engine = ENGINE_LABEL[p.engine.name];
  const out: string[] = [];
  out.push(`# ${p.model} on ${p.host.gpuCount} x ${p.host.gpuName}: ${engine} ${engineVersionText(p)}`);
  out.push('');
  conclusionSection(p, out);
  setupSection(p, out);
  resultsSection(p, out);
  closingSections(p, out);
  out.push('');
  return out.join('\n');
}
