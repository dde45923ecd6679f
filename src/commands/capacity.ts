// `servelab capacity PROFILE|--base-url URL --slo RULES`: the highest concurrency (or `--by rate`
// request rate) at which every SLO holds. With --base-url it searches a server that is already
// running, with `servelab bench`'s workload flags; with a profile it launches the profile's server
// the way replay and sweep do (capacity-profile.ts) and records the answer in the profile.
// Exit: 0 an answer, 1 no load held (or nothing measured), 2 bad input, 130 interrupted.
import { formatHelp, parseFlags } from '../cli/flags.js';
import { fetchModelIds } from '../bench/http/models.js';
import { checkRunOptions } from '../bench/load/run-options.js';
import { resolveTokenCounter } from '../bench/datasets/tokenizer.js';
import { UserError } from '../core/errors.js';
import { setLogSink } from '../core/logger.js';
import { parseSlo } from '../core/slo-rule.js';
import { capacityRecord } from '../capacity/record.js';
import { runCapacity, type CapacityTarget } from '../capacity/runner.js';
import { probeSeed } from '../capacity/fresh-prompts.js';
import { logLine } from './log-sink.js';
import { checkBaseUrl, loadBenchWorkload, runFlags, type Flags } from '../cli/bench-flags.js';
import { FLAGS, FOOTER, searchSpec, USAGE, WORKLOAD_FLAGS } from '../cli/capacity-args.js';
import { printOutcome, searchHooks, searchHeader, withInterrupt } from './capacity-print.js';

export default async function main(argv: string[]): Promise<number> {
  const { flags, positional } = parseFlags(argv, FLAGS, 'capacity');
  if (flags.help) {
    process.stdout.write(formatHelp(USAGE, FLAGS, FOOTER));
    return 0;
  }
  if (positional.length > 1)
    throw new UserError(`capacity takes one PROFILE file, got ${positional.length}; run 'servelab capacity --help'`);
  if (positional.length === 1) {
    if (flags['base-url'] !== undefined) throw new UserError('give a PROFILE or --base-url URL, not both');
    const given = WORKLOAD_FLAGS.find((f) => flags[f] !== undefined);
    if (given) throw new UserError(`--${given} is for --base-url: a profile's search uses the profile's own workload`);
    return (await import('./capacity-profile.js')).capacityOfProfile(positional[0]!, flags);
  }
  if (flags['base-url'] === undefined) throw new UserError("capacity needs a PROFILE or --base-url URL; run 'servelab capacity --help'");
  const ownOnly = ['sim', 'speed', 'yes', 'auto', 'out', 'runs-dir', 'ready-timeout', 'allow-any-command'].find(
    (f) => flags[f] !== undefined,
  );
  if (ownOnly) throw new UserError(`--${ownOnly} is for a PROFILE search (the server at --base-url is already running)`);
  return capacityOfUrl(flags);
}

async function capacityOfUrl(flags: Flags): Promise<number> {
  const spec = searchSpec(flags, flags.slo === undefined ? [] : parseSlo(flags.slo as string));
  if (spec.by === 'concurrency' && flags['max-concurrency'] !== undefined) {
    throw new UserError('--max-concurrency caps requests in flight with --by rate; by concurrency the search sets it');
  }
  const { dataset, ...run } = runFlags(flags);
  const baseUrl = checkBaseUrl(flags['base-url'] as string);
  checkRunOptions({ ...run, baseUrl, model: (flags.model as string | undefined) ?? '' });
  // A warning (approximate token counts) is said once, not once per probe.
  const said = new Set<string>();
  setLogSink((level, message) => {
    const line = logLine(level, message);
    if (line === null || said.has(line)) return;
    said.add(line);
    process.stderr.write(line + '\n');
  });
  const model = (flags.model as string | undefined) ?? (await fetchModelIds(baseUrl, run.headers ?? {}))[0];
  if (!model) throw new UserError(`capacity: ${baseUrl}/v1/models lists no model; pass --model`);
  const tokenizer = flags.tokenizer as string | undefined;
  const counter = await resolveTokenCounter(tokenizer, model);
  const target: CapacityTarget = {
    run: { ...run, baseUrl, model, tokenizerId: tokenizer ?? model, countOutputTokens: (t) => counter.count(t, false) },
    workload: (n, draw) =>
      loadBenchWorkload({ ...flags, 'num-prompts': n, seed: probeSeed(flags.seed as number | undefined, draw) }, dataset, model),
    maxConcurrency: (flags['max-concurrency'] as number | undefined) ?? null,
    wallClock: flags['wall-clock'] === true,
  };
  const json = flags.json === true;
  const workload =
    dataset === 'random'
      ? `random ${(flags['random-input-len'] as number | undefined) ?? 1024}/${(flags['random-output-len'] as number | undefined) ?? 128}`
      : dataset;
  if (!json) process.stderr.write(searchHeader(`${baseUrl} (${model}), ${workload} prompts`, spec));
  const result = await withInterrupt((signal) => runCapacity(target, spec, searchHooks(spec, json, signal)));
  const record = capacityRecord(result, { slo: spec.slo, resolution: spec.resolution, workload });
  return printOutcome(record, { json, label: model, gpus: 1, maxLoad: spec.max });
}
