// A profile's workload and the tuning core's Scenario are the same thing in two shapes: the
// profile keeps `vllm bench serve` terms, the runner takes a Scenario.
import { existsSync } from 'node:fs';
import { UserError } from '../../core/errors.js';
import { sharegptScenario } from './scenarios.js';
import { reuseScenarioForWorkload, sharedPrefixFields } from './reuse-scenarios.js';
import { multiTurnFields, multiTurnScenarioForWorkload } from './multi-turn-scenario.js';
import type { Scenario } from '../../core/scenario.js';
import type { Workload } from '../../profiles/schema/profile.js';

/** What a session records: the scenario every stage was measured on. */
export function workloadFromScenario(s: Scenario, benchCommand?: string): Workload {
  return {
    scenario: s.name,
    label: s.label,
    dataset: s.dataset,
    ...(s.datasetPath ? { datasetPath: s.datasetPath } : {}),
    ...(s.inputLen !== undefined ? { inputLen: s.inputLen } : {}),
    ...(s.outputLen !== undefined ? { outputLen: s.outputLen } : {}),
    ...(s.rangeRatio !== undefined ? { rangeRatio: s.rangeRatio } : {}),
    numPrompts: s.numPrompts,
    seed: s.seed,
    maxConcurrency: s.maxConcurrency,
    requestRate: null,
    ...(benchCommand ? { benchCommand } : {}),
    ...sharedPrefixFields(s),
    ...multiTurnFields(s),
  };
}

/** ShareGPT-like stand-in (the studies' filtered ShareGPT averages 217 in / 201 out tokens). */
const SHAREGPT_LIKE = { inputLen: 217, outputLen: 201, rangeRatio: 0.9 };
/** The stand-in's scenario name, alone or with --max-concurrency's suffix. */
const STAND_IN_NAME = /^sharegpt-like(-c\d+)?$/;

/**
 * The scenario that re-runs a recorded workload. A ShareGPT workload needs the dataset file
 * (`datasetPath`, else the recorded path if it exists here); on the simulated host its synthetic
 * stand-in may replace it, and `note` says so.
 */
export function scenarioForWorkload(
  w: Workload,
  opts: { datasetPath?: string; simulated: boolean },
): { scenario: Scenario; note?: string } {
  const common = { numPrompts: w.numPrompts, seed: w.seed, maxConcurrency: w.maxConcurrency };
  if (w.dataset === 'random') {
    // The stand-in's spread of lengths is part of it, even when a writer left the ratio out
    // (sessions record the workload without it, also when capped: 'sharegpt-like-c16').
    const standIn = STAND_IN_NAME.test(w.scenario) && w.rangeRatio === undefined ? { rangeRatio: SHAREGPT_LIKE.rangeRatio } : {};
    return {
      scenario: {
        name: w.scenario,
        label: w.label ?? w.scenario,
        dataset: 'random',
        ...(w.inputLen !== undefined ? { inputLen: w.inputLen } : {}),
        ...(w.outputLen !== undefined ? { outputLen: w.outputLen } : {}),
        ...(w.rangeRatio !== undefined ? { rangeRatio: w.rangeRatio } : {}),
        ...standIn,
        ...common,
      },
    };
  }
  const reuse = reuseScenarioForWorkload(w, opts.datasetPath) ?? multiTurnScenarioForWorkload(w);
  if (reuse) return { scenario: reuse };
  if (w.dataset === 'custom') {
    // The ShareGPT-like stand-in is regenerated from its prompt count and seed (the same lengths);
    // another custom file must still be at hand.
    if (STAND_IN_NAME.test(w.scenario))
      return {
        scenario: {
          ...sharegptScenario({ scale: 1, numPrompts: w.numPrompts, seed: w.seed }),
          name: w.scenario,
          maxConcurrency: w.maxConcurrency,
        },
      };
    const file = opts.datasetPath ?? w.datasetPath;
    if (!file || !existsSync(file))
      throw new UserError(
        `the recorded workload is a custom JSONL${file ? ` (${file}, not found here)` : ''}: pass --dataset-path FILE.jsonl`,
      );
    return { scenario: { name: w.scenario, label: w.label ?? w.scenario, dataset: 'custom', datasetPath: file, ...common } };
  }
  const path = opts.datasetPath ?? (w.datasetPath && existsSync(w.datasetPath) ? w.datasetPath : undefined);
  if (opts.datasetPath && !existsSync(opts.datasetPath)) throw new UserError(`--dataset-path ${opts.datasetPath}: no such file`);
  if (path) {
    return { scenario: { name: w.scenario, label: w.label ?? 'ShareGPT', dataset: 'sharegpt', datasetPath: path, ...common } };
  }
  if (!opts.simulated) {
    throw new UserError(
      `the recorded workload is ShareGPT${w.datasetPath ? ` (${w.datasetPath}, not found here)` : ''}: pass --dataset-path FILE (ShareGPT_V3_unfiltered_cleaned_split.json)`,
    );
  }
  return {
    scenario: { ...sharegptScenario({ scale: 1, numPrompts: w.numPrompts, seed: w.seed }), maxConcurrency: w.maxConcurrency },
    note: "the recorded workload is ShareGPT; with no --dataset-path the simulated replay uses the ShareGPT-like stand-in (lengths from servelab's ShareGPT length table)",
  };
}
