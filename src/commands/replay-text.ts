// The headless text of `servelab replay`: the setup shown before consent, the recorded-vs-now
// table, the verdict and where the result was recorded. Pure: returns strings.
import { trafficText } from '../core/traffic-text.js';
import { hardwareLine, workloadLine } from '../profiles/report/lines.js';
import { fmtPct } from '../profiles/report/format.js';
import { formatCommand } from '../core/shell-quote.js';
import type { RecordedReplay } from '../profiles/store/history.js';
import type { ReplayOutcome, ReplaySetup } from '../tune/replay/replay.js';
import type { MetricDelta, ReplayJudgement } from '../profiles/report/verdict.js';
import { textTable } from '../cli/text.js';

/** Where the record went: the file, nothing (--no-record), or why it could not be written. */
export type History = RecordedReplay | null | { error: string };

function fmtValue(v: number | null): string {
  return v === null ? '–' : v.toFixed(2);
}

export function deltaTable(deltas: MetricDelta[]): string {
  const rows = deltas.map((d) => [
    `${d.label}${d.unit === 'ms' ? ' (ms)' : ''}`,
    fmtValue(d.recorded),
    fmtValue(d.now),
    fmtPct(d.deltaPct),
  ]);
  return textTable(['metric', 'recorded', 'now', 'delta'], rows);
}

export function describeSetup(s: ReplaySetup): string {
  const p = s.profile;
  const lines = [
    `profile   ${s.file} (${p.source === 'study' ? 'published study' : 'servelab session'}, ${p.createdAt.slice(0, 10)})`,
    `model     ${p.model} (serving ${p.variant.model})`,
    `tuned on  ${hardwareLine(p)}${p.host.driver ? `, driver ${p.host.driver}` : ''}, ${p.engine.name} ${p.engine.version}`,
    `recorded  ${p.metrics.total_token_throughput.toFixed(2)} total tok/s, ${p.metrics.output_throughput.toFixed(2)} output tok/s on ${workloadLine(p.workload)}`,
    `command   ${formatCommand(p.engineArgv, p.env)}`,
    `here      ${hardwareLine({ host: s.current })}${s.current.driver ? `, driver ${s.current.driver}` : ''}${s.engineVersion ? `, ${p.engine.name} ${s.engineVersion}` : ''}`,
  ];
  if (s.differences.length) lines.push('differs   ' + s.differences.join('\n          '));
  else lines.push('differs   nothing');
  for (const n of s.notes) lines.push(`note      ${n}`);
  lines.push(
    `workload  ${s.scenario.label}: ${s.scenario.numPrompts} prompts${s.scenario.maxConcurrency ? `, max concurrency ${s.scenario.maxConcurrency}` : ', all at once'}`,
  );
  lines.push(`will run  ${s.display}`);
  return lines.join('\n');
}

export function verdictLine(j: ReplayJudgement): string {
  return `verdict: ${j.verdict} (${j.reasons.join('; ')})`;
}

export function historyLine(h: History, file: string): string {
  if (!h) return 'history: not recorded (--no-record)';
  if ('error' in h) return `history: not recorded: ${h.error}`;
  if (!h.separate) return `history: appended to ${h.file}`;
  const what = h.created ? 'a new copy of this study profile in your profile folder' : 'your copy of this study profile';
  return `history: appended to ${h.file} (${what}; ${file} is reference data and stays as it is)`;
}

/** What a finished headless replay prints on stdout (without --json). */
export function outcomeText(setup: ReplaySetup, outcome: ReplayOutcome, history: History, file: string, logsDir: string): string {
  const { result, judgement } = outcome;
  const out: string[] = [];
  if (!judgement) {
    const f = result.failure;
    out.push(`verdict: failed to ${f?.kind === 'bench-failed' ? 'measure' : 'start'}: ${f?.reason ?? 'unknown'}`);
    if (f?.hint) out.push(`hint: ${f.hint}`);
    if (f?.evidence?.length) out.push(f.evidence.map((l) => `  | ${l}`).join('\n'));
    out.push(`server log: ${logsDir}`);
  } else {
    out.push(deltaTable(judgement.deltas), verdictLine(judgement));
    // What the traffic's shape adds (hit rate, TTFT by turn), measured now: the same words as --auto's lines.
    const traffic = trafficText(result);
    if (traffic) out.push(`now: ${traffic}`);
    for (const n of setup.notes) out.push(`note: ${n}`);
  }
  out.push(historyLine(history, file));
  return out.join('\n') + '\n';
}

/** The --json document of a finished replay. */
export function outcomeJson(setup: ReplaySetup, outcome: ReplayOutcome, history: History, file: string, logsDir: string): string {
  const { result, judgement, record, exitCode } = outcome;
  return (
    JSON.stringify({
      profile: file,
      verdict: record.verdict,
      exitCode,
      reasons: record.reasons,
      deltas: judgement?.deltas ?? [],
      differences: setup.differences,
      notes: setup.notes,
      argv: setup.spec.argv,
      engineArgv: setup.spec.engineArgv,
      failure: result.failure ?? null,
      clientBound: result.clientBound === true,
      logsDir,
      history: history && 'file' in history ? history.file : null,
      ...(history && 'error' in history ? { historyError: history.error } : {}),
    }) + '\n'
  );
}
