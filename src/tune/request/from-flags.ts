// A session request by flag name -> SessionConfig: the values `servelab --auto` parsed from argv
// (src/cli/auto-args.ts), or the workbench's form in the same names, checked by one set of rules.
// Saved settings (servelab config) fill in what the flags leave out. Bad input is a one-line
// UserError (exit 2) that says what to type instead.
import { join, resolve } from 'node:path';
import { dataDir, defaultRunsDir } from '../../host/xdg.js';
import { isShippedDir } from '../../profiles/store/shipped.js';
import { UserError } from '../../core/errors.js';
import { parseEngines, type SettingValues } from '../../core/settings.js';
import { ENGINES, type EngineName } from '../../core/variant.js';
import { llamaFlags, llamaValidation } from './llamacpp-args.js';
import { findGpu, gpuNames } from '../../model/gpus.js';
import { builtinModelIds, getModel } from '../../model/models.js';
import {
  DEFAULT_READY_TIMEOUT_S,
  DEFAULT_SIM_READY_TIMEOUT_S,
  DEFAULT_SIM_SPEED,
  defaultStages,
  STAGES,
  type SessionConfig,
  type StageName,
} from '../config/config.js';
import { checkDataset, checkObjectiveSlo, parseStageObjective, RULES } from '../config/rules.js';
import { parseScenario, sharegptScenario } from '../config/scenarios.js';
import { parseValidation } from '../config/validation-list.js';
import type { Scenario } from '../../core/scenario.js';
import { parseSlo } from '../../core/slo-rule.js';
import { engineVersions } from './engine-version-arg.js';

import { costFlags } from './cost-flags.js';
import { calibrationFlag, truthFlag } from './calibration-flags.js';
import { guardFlags } from './guard-flags.js';
import { qualityFlags } from './quality-flags.js';
import { capacityFlags } from './capacity-flags.js';
import { budgetFlags } from './budget-flags.js';
import { parseRuntime } from './runtime-flags.js';
import { parseSweepFlags } from './sweep-flags.js';
import { BIND_ALL } from '../../core/dial.js';
import { engineEnvFlags } from './env-flags.js';
import { TUNE_PORT } from '../../host/ports.js';
import { optionalNumberArg, type NumberRange } from '../../core/number-arg.js';

const num = (flag: string, text: string | undefined, rule?: NumberRange) => optionalNumberArg(`--${flag}`, text, rule);

export function parseStages(text: string): StageName[] {
  const list = text
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  if (!list.length) throw new UserError(`--stages is empty; use some of ${STAGES.join(', ')}`);
  for (const s of list) {
    if (!(STAGES as readonly string[]).includes(s)) throw new UserError(`unknown stage '${s}': use ${STAGES.join(', ')}`);
  }
  return [...new Set(list)] as StageName[];
}

/** Naive shell-like split: whitespace separates, single or double quotes group. */
export function splitArgs(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let any = false;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      any = true;
    } else if (/\s/.test(ch)) {
      if (cur || any) out.push(cur);
      cur = '';
      any = false;
    } else cur += ch;
  }
  if (quote) throw new UserError(`--extra-args: unbalanced ${quote} in '${text}'`);
  if (cur || any) out.push(cur);
  return out;
}

export function parseExtraArgs(list: readonly string[]): SessionConfig['extraArgs'] {
  const out: SessionConfig['extraArgs'] = {};
  for (const item of list) {
    const m = /^(vllm|sglang|trtllm|llamacpp):(.*)$/s.exec(item.trim());
    const key: EngineName | '*' = m ? (m[1] as EngineName) : '*';
    const args = splitArgs(m ? m[2]! : item);
    if (!args.length) throw new UserError(`--extra-args '${item}' holds no arguments`);
    out[key] = [...(out[key] ?? []), ...args];
  }
  return out;
}

/** The flag values the command line gives for the --auto flags (the workbench builds the same bag from its form). */
export type AutoFlagValues = Record<string, string | boolean | string[] | undefined>;

type Str = (k: string) => string | undefined;

function simConfig(values: AutoFlagValues, str: Str, model: string): SessionConfig['sim'] {
  const simFlags = ['gpu', 'gpus', 'speed', 'truth', ...(values['engine-version'] ? ['engine-version'] : [])].filter(
    (k) => k === 'engine-version' || str(k) !== undefined,
  );
  if (values.sim !== true) {
    if (simFlags.length) throw new UserError(`--${simFlags[0]} describes the simulated host; add --sim`);
    return undefined;
  }
  const gpuName = str('gpu') ?? 'H100';
  if (!findGpu(gpuName)) throw new UserError(`unknown GPU '${gpuName}' for --gpu: use one of ${gpuNames().join(', ')}`);
  if (!getModel(model)) {
    throw new UserError(
      `the simulated host knows no model '${model}': use a local folder with config.json or one of ${builtinModelIds().join(', ')}`,
    );
  }
  return {
    gpu: gpuName,
    gpus: num('gpus', str('gpus'), RULES.simGpus) ?? 1,
    speed: num('speed', str('speed'), { min: 0, exclusiveMin: true, max: 1000 }) ?? DEFAULT_SIM_SPEED,
    autoSpeed: str('speed') === undefined,
    seed: num('seed', str('seed'), { integer: true }) ?? 0,
    ...engineVersions(values['engine-version'] as string[] | undefined),
    ...truthFlag(str('truth')),
  };
}

/** The tuning workload and the validation scenarios. `scenarioSeed` (the workbench's form) reseeds the tuning workload. */
function workloadConfig(
  str: Str,
  settings: SettingValues,
  scenarioSeed?: number,
): Pick<SessionConfig, 'scenario' | 'validation' | 'datasetPath'> {
  const datasetPathRaw = str('dataset-path') ?? settings['dataset-path'];
  const datasetPath = datasetPathRaw !== undefined ? checkDataset(datasetPathRaw) : undefined;
  const scale = num('scale', str('scale'), { min: 0, exclusiveMin: true, max: 100 }) ?? 1;
  const numPrompts = num('num-prompts', str('num-prompts'), RULES.numPrompts);
  const sopts = { scale, ...(datasetPath ? { datasetPath } : {}) };
  const maxConcurrency = num('max-concurrency', str('max-concurrency'), { integer: true, min: 1 });
  const given = { ...sopts, ...(numPrompts ? { numPrompts } : {}) };
  const parsed: Scenario = str('scenario') ? parseScenario(str('scenario')!, given) : sharegptScenario(given);
  const picked = scenarioSeed === undefined ? parsed : { ...parsed, seed: scenarioSeed };
  if (maxConcurrency && picked.dataset === 'multi_turn')
    throw new UserError(`--max-concurrency: a multi-turn workload names its users in the scenario (multi-turn:USERS/TURNS)`);
  // A capped workload is another scenario (its journal key and table row must not mix with the uncapped one).
  const scenario: Scenario = maxConcurrency
    ? { ...picked, name: `${picked.name}-c${maxConcurrency}`, label: `${picked.label}, max concurrency ${maxConcurrency}`, maxConcurrency }
    : picked;
  const listed = parseValidation(str('validation'), sopts);
  // The tuning workload stands in for its own scenario in the table (same size), so that row
  // reuses the engine stage's measurements instead of measuring a resized copy.
  const validation = listed.map((s) => (s.name === scenario.name ? scenario : s));
  return { scenario, validation, ...(datasetPath ? { datasetPath } : {}) };
}

/**
 * The SessionConfig for a bag of --auto flag values: parseAutoArgs gives it the command line's,
 * the workbench the command line's with its form's values in place. One set of rules for both.
 */
export function configFromFlags(values: AutoFlagValues, settings: SettingValues = {}, opts: { scenarioSeed?: number } = {}): SessionConfig {
  const str: Str = (k) => values[k] as string | undefined;
  const modelText = str('model');
  if (!modelText) throw new UserError("--model is required, e.g. --model Qwen/Qwen3-14B; run 'servelab --auto --help' for the flags");
  const { model, engines, llamacpp } = llamaFlags(
    values,
    modelText,
    str('engines') !== undefined ? parseEngines(str('engines')!) : undefined,
    settings.engines,
  );
  const sim = simConfig(values, str, model);
  const sloText = str('slo') ?? settings.slo;
  const slo = sloText ? parseSlo(sloText) : [];
  const sweep = parseSweepFlags(str('sweep'), values['sweep-all'] === true, str('objective'), slo.length > 0);
  // Under --objective frontier the stages rank by output tok/s (the frontier's y axis, per GPU).
  const objective = sweep?.frontier ? 'output' : parseStageObjective(str('objective') ?? settings.objective ?? 'total');
  checkObjectiveSlo(objective, slo.length);
  const price = str('gpu-hour-price') ?? settings['gpu-hour-price'];
  const runtime = parseRuntime(str, (values['slurm-arg'] as string[] | undefined) ?? [], sim);
  const workload = workloadConfig(str, settings, opts.scenarioSeed);
  const config: SessionConfig = {
    model,
    ...(str('fp8-model') ? { fp8Model: str('fp8-model')! } : {}),
    engines,
    stages: str('stages') !== undefined ? parseStages(str('stages')!) : defaultStages(engines, workload.scenario),
    drop: (values.drop as string[] | undefined) ?? [],
    extraArgs: parseExtraArgs((values['extra-args'] as string[] | undefined) ?? []),
    ...(sim ? { sim } : {}),
    ...workload,
    objective,
    slo,
    marginPct: num('margin', str('margin'), { max: 100 }) ?? settings.margin ?? 2,
    repeats: num('repeats', str('repeats'), { integer: true, min: 1, max: 20 }) ?? 1,
    ...(price !== undefined ? { gpuHourPrice: num('gpu-hour-price', String(price)) } : {}),
    ...(str('baseline') ? { baseline: str('baseline')! } : {}),
    // The user's data folder, never the current one: run from a clone that is servelab's own profiles/.
    outDir: resolve(str('out') ?? settings.out ?? dataDir()),
    runsDir: resolve(str('runs-dir') ?? defaultRunsDir()),
    ...(str('run-dir') ? { runDir: resolve(str('run-dir')!) } : {}),
    readyTimeoutS:
      num('ready-timeout', str('ready-timeout'), { min: 0, exclusiveMin: true }) ??
      (sim ? DEFAULT_SIM_READY_TIMEOUT_S : (settings['ready-timeout'] ?? DEFAULT_READY_TIMEOUT_S)),
    // Real engines warm caches and JIT kernels on the first requests; the simulator needs only one to prove the path.
    warmupPrompts: num('warmup', str('warmup'), { integer: true, min: 0, max: 1000 }) ?? (sim ? 1 : 4),
    // A Slurm job's head is reached from the login node, so it listens on every interface.
    bindHost: str('host') ?? (runtime.kind === 'slurm' ? BIND_ALL : '127.0.0.1'),
    portStart: num('port', str('port'), { integer: true, min: 1024, max: 65535 }) ?? settings.port ?? TUNE_PORT,
    runtime,
    sampleIntervalS: 1,
    ...costFlags(values),
    ...(sweep ? { sweep } : {}),
    ...(llamacpp ? { llamacpp } : {}),
    ...calibrationFlag(str('calibration'), values['fresh-baseline'] === true),
    ...qualityFlags(values),
    ...capacityFlags(values),
    ...budgetFlags(values),
    ...guardFlags(values),
    ...engineEnvFlags(values),
    // Without --warmup N, a session warms each server with a full batch at the run's concurrency.
    ...(str('warmup') === undefined ? { warmupScaled: true } : {}),
  };
  if (str('validation') === undefined) llamaValidation(config);
  if (isShippedDir(join(config.outDir, 'profiles'))) {
    throw new UserError(
      `--out ${config.outDir}: its profiles/ folder holds servelab's shipped study profiles; give another folder (default ${dataDir()})`,
    );
  }
  // Engine-stage variant ids start with their engine (vllm, sglang-..., trtllm-...): anything else would silently fall back to vLLM.
  const b = config.baseline;
  if (b && !ENGINES.some((e) => b === e || b.startsWith(`${e}-`))) {
    throw new UserError(
      `--baseline '${b}' names no engine: give an engine (${ENGINES.join(', ')}) or an engine-stage variant id, e.g. --baseline sglang`,
    );
  }
  if (str('run-dir') && str('runs-dir'))
    throw new UserError('give --run-dir DIR (the exact run folder) or --runs-dir DIR (its parent), not both');
  return config;
}
