// Workloads: the studies' five scenarios (ShareGPT and four random shapes), scaled for quick
// runs. Without a ShareGPT file, the ShareGPT-like stand-in draws its lengths from the ShareGPT
// length table (src/model/data/sharegpt-lengths.ts, the same shape the calibration and `predict`
// use) and is written as a JSONL that `vllm bench serve --dataset-name custom` reads too.
import { parseReuseScenario } from './reuse-scenarios.js';
import { multiTurnBenchArgs, parseMultiTurnScenario } from './multi-turn-scenario.js';
import type { Scenario } from '../../core/scenario.js';
import { UserError } from '../../core/errors.js';
import { writeSharegptLikeJsonl } from '../../sim/predict/sharegpt-jsonl.js';

export const SEED = 42;

export const SHAREGPT_LIKE_LABEL = 'ShareGPT-like (ShareGPT length table)';

interface ScenarioShape {
  name: string;
  label: string;
  inputLen: number;
  outputLen: number;
  numPrompts: number;
}

/** The studies' random scenarios, in their table order. */
const RANDOM_SHAPES: ScenarioShape[] = [
  { name: 'random-128-4', label: 'short 128/4', inputLen: 128, outputLen: 4, numPrompts: 1000 },
  { name: 'random-2000-100', label: 'medium 2000/100', inputLen: 2000, outputLen: 100, numPrompts: 500 },
  { name: 'random-4000-200', label: 'long 4000/200', inputLen: 4000, outputLen: 200, numPrompts: 500 },
  { name: 'random-32000-100', label: 'very long 32000/100', inputLen: 32000, outputLen: 100, numPrompts: 100 },
];

/** The ShareGPT scenario's prompt count at --scale 1 (the studies'). */
export const SHAREGPT_PROMPTS = 1000;

export function scaled(n: number, scale: number): number {
  return Math.max(1, Math.round(n * scale));
}

/** The ShareGPT scenario, or its synthetic stand-in (its JSONL written on the way) when no dataset file is given. */
export function sharegptScenario(opts: { datasetPath?: string; scale: number; numPrompts?: number; seed?: number }): Scenario {
  const numPrompts = opts.numPrompts ?? scaled(SHAREGPT_PROMPTS, opts.scale);
  if (opts.datasetPath) {
    return {
      name: 'sharegpt',
      label: 'ShareGPT',
      dataset: 'sharegpt',
      datasetPath: opts.datasetPath,
      numPrompts,
      seed: SEED,
      maxConcurrency: null,
    };
  }
  const seed = opts.seed ?? SEED;
  const datasetPath = writeSharegptLikeJsonl(numPrompts, seed);
  return { name: 'sharegpt-like', label: SHAREGPT_LIKE_LABEL, dataset: 'custom', datasetPath, numPrompts, seed, maxConcurrency: null };
}

/** The studies' five scenarios, scaled. */
export function studyScenarios(opts: { datasetPath?: string; scale: number }): Scenario[] {
  return [
    sharegptScenario(opts),
    ...RANDOM_SHAPES.map((s) => ({
      ...s,
      dataset: 'random' as const,
      numPrompts: scaled(s.numPrompts, opts.scale),
      seed: SEED,
      maxConcurrency: null,
    })),
  ];
}

/**
 * Resolve a scenario name given on the command line: 'sharegpt', 'sharegpt-like', a study
 * label's short name ('short', 'medium', 'long', 'very-long'), or 'random:IN/OUT' / 'random-IN-OUT'.
 */
export function parseScenario(text: string, opts: { datasetPath?: string; scale: number; numPrompts?: number }): Scenario {
  const t = text.trim().toLowerCase();
  if (t === 'sharegpt') {
    if (!opts.datasetPath)
      throw new UserError(
        `scenario 'sharegpt' needs --dataset-path FILE (a ShareGPT JSON); or use 'sharegpt-like' for the synthetic stand-in`,
      );
    return sharegptScenario(opts);
  }
  if (t === 'sharegpt-like') return sharegptScenario({ ...opts, datasetPath: undefined });
  const given = { ...(opts.numPrompts !== undefined ? { numPrompts: opts.numPrompts } : {}), seed: SEED };
  const reuse = parseReuseScenario(text, given) ?? parseMultiTurnScenario(text, given);
  if (reuse) return reuse;
  const byShort: Record<string, string> = {
    short: 'random-128-4',
    medium: 'random-2000-100',
    long: 'random-4000-200',
    'very-long': 'random-32000-100',
  };
  const m = /^random[-:](\d+)[-/](\d+)$/.exec(t);
  const name = byShort[t] ?? (m ? `random-${m[1]}-${m[2]}` : undefined);
  if (!name) {
    throw new UserError(
      `unknown scenario '${text}': use sharegpt, sharegpt-like, short, medium, long, very-long, random:IN/OUT (e.g. random:2000/100), prefix:PREFIX/SUFFIX/PREFIXES/OUT, trace:FILE.jsonl or multi-turn:USERS/TURNS[/SYSTEM/IN/OUT]`,
    );
  }
  const known = RANDOM_SHAPES.find((s) => s.name === name);
  const [, inS, outS] = /^random-(\d+)-(\d+)$/.exec(name)!;
  const inputLen = Number(inS);
  const outputLen = Number(outS);
  if (!(inputLen > 0 && outputLen > 0)) throw new UserError(`scenario '${text}': input and output lengths must be positive`);
  return {
    name,
    label: known?.label ?? `random ${inputLen}/${outputLen}`,
    dataset: 'random',
    inputLen,
    outputLen,
    numPrompts: opts.numPrompts ?? scaled(known?.numPrompts ?? 500, opts.scale),
    seed: SEED,
    maxConcurrency: null,
  };
}

/** vLLM's prefix_repetition flags of a scenario (inputLen is the suffix). */
function prefixRepetitionArgs(s: Scenario): string[] {
  const parts = ['--dataset-name prefix_repetition'];
  if (s.prefixLen !== undefined) parts.push(`--prefix-repetition-prefix-len ${s.prefixLen}`);
  if (s.inputLen !== undefined) parts.push(`--prefix-repetition-suffix-len ${s.inputLen}`);
  if (s.numPrefixes !== undefined) parts.push(`--prefix-repetition-num-prefixes ${s.numPrefixes}`);
  if (s.outputLen !== undefined) parts.push(`--prefix-repetition-output-len ${s.outputLen}`);
  return parts;
}

/** The `vllm bench serve` command that reproduces a scenario against a server (for reports). */
export function benchCommand(s: Scenario, model: string, port = 8000): string {
  const parts = ['vllm bench serve', '--backend openai-chat', '--endpoint /v1/chat/completions', `--model ${model}`, `--port ${port}`];
  if (s.dataset === 'sharegpt') parts.push('--dataset-name sharegpt', `--dataset-path ${s.datasetPath}`);
  // Each line's output_tokens (-1) and the prompt as written (no client-side chat template), as servelab sends it.
  else if (s.dataset === 'custom')
    parts.push('--dataset-name custom', `--dataset-path ${s.datasetPath}`, '--custom-output-len -1', '--skip-chat-template');
  else if (s.dataset === 'prefix_repetition') parts.push(...prefixRepetitionArgs(s));
  else if (s.dataset === 'mooncake_trace') {
    // vLLM's client has no trace replay: servelab's, with the same other flags.
    parts[0] = 'servelab bench';
    parts.push(`--dataset-name mooncake_trace --dataset-path ${s.datasetPath}`);
    if (s.traceBlockSize !== undefined) parts.push(`--trace-block-size ${s.traceBlockSize}`);
    if (s.traceSpeedup !== undefined) parts.push(`--trace-speedup ${s.traceSpeedup}`);
  } else if (s.dataset === 'multi_turn') {
    // vLLM's `bench serve` has no multi-turn dataset: servelab's closed loop, same other flags.
    parts[0] = 'servelab bench';
    parts.push(...multiTurnBenchArgs(s));
  } else {
    parts.push('--dataset-name random', `--random-input-len ${s.inputLen}`, `--random-output-len ${s.outputLen}`);
    if (s.rangeRatio) parts.push(`--random-range-ratio ${s.rangeRatio}`);
    if (s.prefixLen) parts.push(`--random-prefix-len ${s.prefixLen}`);
  }
  parts.push(`--num-prompts ${s.numPrompts}`, `--seed ${s.seed}`);
  if (s.maxConcurrency) parts.push(`--max-concurrency ${s.maxConcurrency}`);
  if (s.requestRate) parts.push(`--request-rate ${s.requestRate}`);
  return parts.join(' ');
}
