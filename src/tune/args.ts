// `servelab --auto` flags -> SessionConfig. Saved settings (servelab config) fill in what the
// flags leave out. Bad input is a one-line UserError (exit 2) that says what to type instead.
import { dataDir, defaultRunsDir } from '../host/xdg.js';
import { isShippedDir } from '../profiles/shipped.js';
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { UserError } from '../core/errors.js';
import { parseNumberArg, type NumberRange } from '../core/number-arg.js';
import { parseEngines, type SettingValues } from '../core/settings.js';
import { ENGINES, type EngineName } from '../core/variant.js';
import { findGpu, gpuNames } from '../model/gpus.js';
import { builtinModelIds, getModel } from '../model/models.js';
import {
  DEFAULT_READY_TIMEOUT_S,
  DEFAULT_SIM_READY_TIMEOUT_S,
  DEFAULT_SIM_SPEED,
  STAGES,
  type SessionConfig,
  type StageName,
} from './config.js';
import { parseObjective } from './decide.js';
import { parseScenario, sharegptScenario, studyScenarios, type Scenario } from './scenarios.js';
import { parseSlo } from '../core/slo.js';
import { parseParallel } from './parallel.js';
import { DEFAULT_REPEATS_MAX } from './repeats.js';

export const AUTO_FLAGS = {
  auto: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  model: { type: 'string' },
  'fp8-model': { type: 'string' },
  engines: { type: 'string' },
  stages: { type: 'string' },
  drop: { type: 'string', multiple: true },
  'extra-args': { type: 'string', multiple: true },
  'dataset-path': { type: 'string' },
  scenario: { type: 'string' },
  'num-prompts': { type: 'string' },
  'max-concurrency': { type: 'string' },
  scale: { type: 'string' },
  validation: { type: 'string' },
  slo: { type: 'string' },
  objective: { type: 'string' },
  margin: { type: 'string' },
  repeats: { type: 'string' },
  'repeats-max': { type: 'string' },
  'no-early-stop': { type: 'boolean' },
  parallel: { type: 'string' },
  replica: { type: 'string' },
  'gpu-hour-price': { type: 'string' },
  baseline: { type: 'string' },
  out: { type: 'string' },
  'run-dir': { type: 'string' },
  'runs-dir': { type: 'string' },
  resume: { type: 'string' },
  sim: { type: 'boolean' },
  gpu: { type: 'string' },
  gpus: { type: 'string' },
  speed: { type: 'string' },
  seed: { type: 'string' },
  'ready-timeout': { type: 'string' },
  warmup: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  runtime: { type: 'string' },
  image: { type: 'string' },
  'dry-run': { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

// The help text lives apart so `servelab --auto --help` prints it without loading the parser's deps.
export { AUTO_USAGE } from './usage.js';

export interface AutoOptions {
  help: boolean;
  dryRun: boolean;
  json: boolean;
  /** Run folder to resume (config comes from its journal). */
  resume?: string;
  /** Undefined only for --help and --resume. */
  config?: SessionConfig;
}

/** Issue 16's flags: early stop, adaptive repeats, parallel variants. */
function costFlags(values: Record<string, unknown>): Pick<SessionConfig, 'earlyStop' | 'repeatsMax' | 'parallel' | 'replica'> {
  const str = (k: string) => values[k] as string | undefined;
  const replica = str('replica') ?? 'auto';
  if (replica !== 'auto' && replica !== 'off') throw new UserError(`--replica must be auto or off, got '${replica}'`);
  return {
    replica,
    earlyStop: values['no-early-stop'] !== true,
    repeatsMax: num('repeats-max', str('repeats-max'), { integer: true, min: 1, max: 20 }) ?? DEFAULT_REPEATS_MAX,
    parallel: parseParallel(str('parallel') ?? 'auto'),
  };
}

function num(flag: string, text: string | undefined, range: NumberRange = {}): number | undefined {
  return text === undefined ? undefined : parseNumberArg(`--${flag}`, text, range);
}

export function parseStages(text: string): StageName[] {
  const list = text.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);
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
    const m = /^(vllm|sglang|trtllm):(.*)$/s.exec(item.trim());
    const key: EngineName | '*' = m ? (m[1] as EngineName) : '*';
    const args = splitArgs(m ? m[2]! : item);
    if (!args.length) throw new UserError(`--extra-args '${item}' holds no arguments`);
    out[key] = [...(out[key] ?? []), ...args];
  }
  return out;
}

function checkDataset(path: string): string {
  const p = resolve(path);
  if (!existsSync(p)) throw new UserError(`dataset ${path}: no such file; give a ShareGPT JSON with --dataset-path, or drop it to use the synthetic ShareGPT-like workload`);
  if (!statSync(p).isFile()) throw new UserError(`dataset ${path}: not a file`);
  return p;
}

export function parseAutoArgs(argv: readonly string[], settings: SettingValues = {}): AutoOptions {
  let values: Record<string, string | boolean | string[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: [...argv], options: AUTO_FLAGS, strict: true, allowPositionals: true }) as {
      values: Record<string, string | boolean | string[] | undefined>;
      positionals: string[];
    });
  } catch (e) {
    const msg = (e as Error).message.split('\n')[0]!.replace(/\. To specify a positional argument.*$/, '');
    throw new UserError(`${msg}; run 'servelab --auto --help' for the flags`);
  }
  const str = (k: string) => values[k] as string | undefined;
  const help = values.help === true;
  const dryRun = values['dry-run'] === true;
  const json = values.json === true;
  if (help) return { help, dryRun, json };
  if (positionals.length) throw new UserError(`unexpected argument '${positionals[0]}'; run 'servelab --auto --help' for the flags`);
  if (str('resume') !== undefined) {
    const dir = resolve(str('resume')!);
    if (!existsSync(dir)) throw new UserError(`--resume ${str('resume')}: no such folder`);
    return { help, dryRun, json, resume: dir };
  }

  const model = str('model');
  if (!model) throw new UserError("--model is required, e.g. --model Qwen/Qwen3-14B; run 'servelab --auto --help' for the flags");

  const simFlags = ['gpu', 'gpus', 'speed'].filter((k) => str(k) !== undefined);
  const simulated = values.sim === true;
  if (!simulated && simFlags.length) throw new UserError(`--${simFlags[0]} describes the simulated host; add --sim`);
  let sim: SessionConfig['sim'];
  if (simulated) {
    const gpuName = str('gpu') ?? 'H100';
    const spec = findGpu(gpuName);
    if (!spec) throw new UserError(`unknown GPU '${gpuName}' for --gpu: use one of ${gpuNames().join(', ')}`);
    sim = {
      gpu: gpuName,
      gpus: num('gpus', str('gpus'), { integer: true, min: 1, max: 64 }) ?? 1,
      speed: num('speed', str('speed'), { min: 0, exclusiveMin: true, max: 1000 }) ?? DEFAULT_SIM_SPEED,
      autoSpeed: str('speed') === undefined,
      seed: num('seed', str('seed'), { integer: true }) ?? 0,
    };
    if (!getModel(model)) {
      throw new UserError(`the simulated host knows no model '${model}': use a local folder with config.json or one of ${builtinModelIds().join(', ')}`);
    }
  }

  const engines = str('engines') !== undefined ? parseEngines(str('engines')!) : (settings.engines ?? [...ENGINES]);
  const stages = str('stages') !== undefined ? parseStages(str('stages')!) : [...STAGES];
  const datasetPathRaw = str('dataset-path') ?? settings['dataset-path'];
  const datasetPath = datasetPathRaw !== undefined ? checkDataset(datasetPathRaw) : undefined;
  const scale = num('scale', str('scale'), { min: 0, exclusiveMin: true, max: 100 }) ?? 1;
  const numPrompts = num('num-prompts', str('num-prompts'), { integer: true, min: 1 });
  const sopts = { scale, ...(datasetPath ? { datasetPath } : {}) };
  const maxConcurrency = num('max-concurrency', str('max-concurrency'), { integer: true, min: 1 });
  const picked: Scenario = str('scenario')
    ? parseScenario(str('scenario')!, { ...sopts, ...(numPrompts ? { numPrompts } : {}) })
    : sharegptScenario({ ...sopts, ...(numPrompts ? { numPrompts } : {}) });
  // A capped workload is another scenario (its journal key and table row must not mix with the uncapped one).
  const scenario: Scenario = maxConcurrency
    ? { ...picked, name: `${picked.name}-c${maxConcurrency}`, label: `${picked.label}, max concurrency ${maxConcurrency}`, maxConcurrency }
    : picked;
  let validation: Scenario[];
  const v = str('validation');
  if (v === undefined) validation = studyScenarios(sopts);
  else if (v.trim().toLowerCase() === 'none') validation = [];
  else validation = v.split(',').map((s) => s.trim()).filter(Boolean).map((s) => parseScenario(s, sopts));

  // The tuning workload stands in for its own scenario in the table (same size), so that row
  // reuses the engine stage's measurements instead of measuring a resized copy.
  validation = validation.map((s) => (s.name === scenario.name ? scenario : s));

  const sloText = str('slo') ?? settings.slo;
  const slo = sloText ? parseSlo(sloText) : [];
  const objective = parseObjective(str('objective') ?? settings.objective ?? 'total');
  if (objective === 'goodput' && !slo.length) throw new UserError('--objective goodput needs --slo (goodput counts requests that meet the SLOs)');
  const runtimeText = str('runtime') ?? 'native';
  let runtime: SessionConfig['runtime'];
  if (runtimeText === 'native') runtime = { kind: 'native' };
  else if (runtimeText === 'docker') {
    if (!str('image')) throw new UserError('--runtime docker needs --image, e.g. --image vllm/vllm-openai:v0.11.0');
    runtime = { kind: 'docker', image: str('image')! };
  } else throw new UserError(`--runtime must be native or docker, got '${runtimeText}'`);

  const config: SessionConfig = {
    model,
    ...(str('fp8-model') ? { fp8Model: str('fp8-model')! } : {}),
    engines,
    stages,
    drop: (values.drop as string[] | undefined) ?? [],
    extraArgs: parseExtraArgs((values['extra-args'] as string[] | undefined) ?? []),
    ...(sim ? { sim } : {}),
    ...(datasetPath ? { datasetPath } : {}),
    scenario,
    validation,
    objective,
    slo,
    marginPct: num('margin', str('margin'), { max: 100 }) ?? settings.margin ?? 2,
    repeats: num('repeats', str('repeats'), { integer: true, min: 1, max: 20 }) ?? 1,
    ...((str('gpu-hour-price') ?? settings['gpu-hour-price']) !== undefined
      ? { gpuHourPrice: num('gpu-hour-price', String(str('gpu-hour-price') ?? settings['gpu-hour-price'])) }
      : {}),
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
    bindHost: str('host') ?? '127.0.0.1',
    portStart: num('port', str('port'), { integer: true, min: 1024, max: 65535 }) ?? settings.port ?? 8100,
    runtime,
    sampleIntervalS: 1,
    ...costFlags(values),
  };
  if (isShippedDir(join(config.outDir, 'profiles'))) {
    throw new UserError(`--out ${config.outDir}: its profiles/ folder holds servelab's shipped study profiles; give another folder (default ${dataDir()})`);
  }
  if (config.baseline && !(ENGINES as readonly string[]).includes(config.baseline) && !/^[a-z0-9]/i.test(config.baseline)) {
    throw new UserError(`--baseline '${config.baseline}': give an engine name or an engine-stage variant id`);
  }
  return { help, dryRun, json, config };
}
