// Scenarios with prefix reuse, named on the command line: vLLM's prefix_repetition as
// 'prefix:PREFIX/SUFFIX/PREFIXES/OUT' (e.g. prefix:256/256/10/128, vLLM's defaults), and a
// Mooncake-format trace as 'trace:FILE.jsonl' (replayed at its recorded times).
import { existsSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import type { Scenario } from '../../core/scenario.js';
import type { Workload } from '../../profiles/schema/profile.js';

/** The scenario, or undefined when `text` names neither form. */
export function parseReuseScenario(text: string, opts: { numPrompts?: number; seed: number }): Scenario | undefined {
  const t = text.trim();
  const p = /^prefix:(\d+)\/(\d+)\/(\d+)\/(\d+)$/i.exec(t);
  if (p) {
    const [prefixLen, inputLen, numPrefixes, outputLen] = p.slice(1).map(Number) as [number, number, number, number];
    if (!(numPrefixes > 0 && outputLen > 0 && prefixLen + inputLen > 0))
      throw new UserError(`scenario '${text}': prefixes and output must be positive, prefix plus suffix at least 1 token`);
    return {
      name: `prefix-${prefixLen}-${inputLen}-${numPrefixes}-${outputLen}`,
      label: `shared prefix ${prefixLen}+${inputLen} x${numPrefixes}`,
      dataset: 'prefix_repetition',
      prefixLen,
      inputLen,
      numPrefixes,
      outputLen,
      numPrompts: opts.numPrompts ?? numPrefixes * 20,
      seed: opts.seed,
      maxConcurrency: null,
    };
  }
  const tr = /^trace:(.+)$/i.exec(t);
  if (tr)
    return {
      name: 'trace',
      label: `trace ${tr[1]!}`,
      dataset: 'mooncake_trace',
      datasetPath: tr[1]!,
      numPrompts: opts.numPrompts ?? 1_000_000,
      seed: opts.seed,
      maxConcurrency: null,
    };
  return undefined;
}

/** The shared-prefix and trace workloads' own fields, the same in a Scenario and a profile. */
export function sharedPrefixFields(s: Pick<Scenario, 'prefixLen' | 'numPrefixes' | 'traceBlockSize' | 'traceSpeedup'>) {
  return {
    ...(s.prefixLen !== undefined ? { prefixLen: s.prefixLen } : {}),
    ...(s.numPrefixes !== undefined ? { numPrefixes: s.numPrefixes } : {}),
    ...(s.traceBlockSize !== undefined ? { traceBlockSize: s.traceBlockSize } : {}),
    ...(s.traceSpeedup !== undefined ? { traceSpeedup: s.traceSpeedup } : {}),
  };
}

/** The scenario that re-runs a recorded prefix_repetition or trace workload; undefined for the others. */
export function reuseScenarioForWorkload(w: Workload, datasetPath: string | undefined): Scenario | undefined {
  const common = {
    name: w.scenario,
    label: w.label ?? w.scenario,
    numPrompts: w.numPrompts,
    seed: w.seed,
    maxConcurrency: w.maxConcurrency,
  };
  if (w.dataset === 'prefix_repetition') {
    const lens = {
      ...(w.inputLen !== undefined ? { inputLen: w.inputLen } : {}),
      ...(w.outputLen !== undefined ? { outputLen: w.outputLen } : {}),
    };
    return { ...common, dataset: w.dataset, ...lens, ...sharedPrefixFields(w) };
  }
  if (w.dataset !== 'mooncake_trace') return undefined;
  const file = datasetPath ?? w.datasetPath;
  if (!file || !existsSync(file))
    throw new UserError(
      `the recorded workload is a Mooncake trace${file ? ` (${file}, not found here)` : ''}: pass --dataset-path FILE.jsonl`,
    );
  return { ...common, dataset: w.dataset, datasetPath: file, ...sharedPrefixFields(w) };
}
