// What `servelab capacity` says, for both of its targets: the header, a line per probe on stderr
// as it lands, then the chart, the table and the answer on stdout (or one JSON object with
// --json), and the exit code. Ctrl-C stops the probe and every server launched.
import { formatSlo } from '../core/slo.js';
import { tpotDefinition } from '../core/tpot.js';
import { installSignalHandlers } from '../host/signals.js';
import { promptRule } from '../capacity/judge.js';
import type { CapacityRecord } from '../capacity/record.js';
import type { CapacityHooks, CapacitySpec } from '../capacity/runner.js';
import { formatResolution } from '../capacity/search.js';
import { capacityText, probeLine, progressLine, searchRules } from '../capacity/text.js';

export function searchHeader(target: string, spec: CapacitySpec): string {
  const unit = spec.by === 'concurrency' ? '' : ' req/s';
  return (
    [
      `target    ${target}`,
      `slo       ${formatSlo(spec.slo)}`,
      `search    highest ${spec.by} from ${spec.start}${unit} up to ${spec.max}${unit}: doubling, then bisecting to ${formatResolution(spec.resolution, spec.by)}`,
      `probes    ${promptRule(spec.slo)}${spec.minPrompts ? `; --num-prompts ${spec.minPrompts} at the least` : ''}`,
      ...searchRules(spec).map((l) => `          ${l}`),
      ...(spec.slo.some((r) => r.metric === 'tpot') ? [`tpot      ${tpotDefinition()}`] : []),
    ].join('\n') + '\n'
  );
}

/** Progress on stderr (not with --json), and the interrupt signal. */
export function searchHooks(spec: CapacitySpec, json: boolean, signal: AbortSignal): CapacityHooks {
  let i = 0;
  let last = 0;
  const say = (line: string) => process.stderr.write(line + '\n');
  return {
    signal,
    ...(json
      ? {}
      : {
          onProbe: (p) => say(probeLine(++i, spec.by, p, spec.slo)),
          // A probe of 1,000 requests can run for minutes: say where it stands every 10 s.
          onProgress: (p) => {
            if (Date.now() - last < PROGRESS_EVERY_MS) return;
            last = Date.now();
            say(progressLine(spec.by, p));
          },
          onStart: () => {
            last = Date.now();
          },
        }),
  };
}

const PROGRESS_EVERY_MS = 10_000;

/** Run `work` with Ctrl-C, SIGTERM and SIGHUP aborting it (the host's handler then stops every server and exits). */
export async function withInterrupt<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const uninstall = installSignalHandlers({
    onSignal: (signal) => {
      process.stderr.write(`servelab: ${signal}: stopping the search\n`);
      controller.abort();
    },
  });
  try {
    return await work(controller.signal);
  } finally {
    uninstall();
  }
}

/** Print the outcome; the exit code (0 an answer, 1 none). */
export function printOutcome(
  record: CapacityRecord,
  o: { json: boolean; label: string; gpus: number; maxLoad: number; extra?: Record<string, unknown>; saved?: string[] },
): number {
  if (o.json) process.stdout.write(JSON.stringify({ ...record, ...o.extra }) + '\n');
  else {
    const width = process.stdout.isTTY ? Math.max(60, Math.min(process.stdout.columns || 80, 160)) : 80;
    process.stdout.write(
      [...capacityText(record, { label: o.label, gpus: o.gpus, chartWidth: width, maxLoad: o.maxLoad }), ...(o.saved ?? [])].join('\n') +
        '\n',
    );
  }
  return record.answer === null ? 1 : 0;
}
