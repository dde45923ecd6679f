// `servelab predict` flags: the workload flags of `--auto` and `--engine-version` are read here;
// every knob flag goes through sim-serve's own parser (src/cli/sim-serve-args.ts), so both commands accept
// the same spellings. Errors are one line (the caller exits 2).
import { GPU_ENGINES, type EngineName, type Knobs } from '../core/variant.js';
import { UserError } from '../core/errors.js';
import { parseNumberArg, optionalNumberArg } from '../core/number-arg.js';
import { parseSimArgs } from './sim-serve-args.js';
import { SimArgsError } from '../sim/server/sim-args.js';
import { findGpu, gpuNames } from '../model/gpus.js';
import { builtinModelIds, getModel } from '../model/models.js';
import { RULES } from '../tune/config/rules.js';
import { parseScenario, sharegptScenario } from '../tune/config/scenarios.js';
import type { Scenario } from '../core/scenario.js';

export interface PredictArgs {
  engines: EngineName[];
  engineVersion?: string;
  model: string;
  gpu: string;
  gpus: number;
  knobs: Knobs;
  scenario: Scenario;
  maxConcurrency?: number;
  requestRate?: number;
  seed: number;
  json: boolean;
  help: boolean;
  /** --calibration FILE: a host calibration (servelab calibrate) the prediction is corrected with. */
  calibration?: string;
}

export const PREDICT_USAGE = `usage: servelab predict --model ID [--gpu NAME] [--gpus N] [--engine {vllm,sglang,trtllm}]
                        [--engine-version V] [--scenario sharegpt-like|random:IN/OUT] [--num-prompts N]
                        [--max-concurrency N] [--request-rate R] [--seed N] [--calibration FILE] [--json]
                        [sim-serve knob flags: --quantization Q --kv-cache-dtype D --tp N --pp N --dp N
                         --ep N --dp-attention --max-batched-tokens N --max-running-seqs N --mem-fraction F
                         --attention-backend NAME --torch-compile --no-cuda-graph --speculative METHOD
                         --max-model-len N]
       servelab predict --engine llamacpp --model FILE.gguf [...] (servelab predict --engine llamacpp --help)`;

/** Flags only a running sim-serve has: refused here, so a copied command line does not silently differ. */
const SERVER_ONLY = new Set([
  '--host',
  '--port',
  '--speed',
  '--load-time',
  '--load-format',
  '--served-model-name',
  '--engine-arg',
  '--truth',
]);
const OWN = new Set([
  '--scenario',
  '--num-prompts',
  '--max-concurrency',
  '--request-rate',
  '--seed',
  '--engine-version',
  '--engine',
  '--calibration',
]);

function positiveInt(flag: string, raw: string): number {
  return parseNumberArg(flag, raw, { integer: true, min: 1 });
}

/** The one-line error of a sim-serve parse failure (its message is usage + 'error:' line). */
function simError(e: SimArgsError): UserError {
  const last = e.message.split('\n').pop() ?? e.message;
  return new UserError(last.replace(/^servelab sim-serve: error: /, '') + ' (servelab predict --help)');
}

export function parsePredictArgs(argv: string[]): PredictArgs {
  const own: Record<string, string> = {};
  const rest: string[] = [];
  let json = false;
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    const eq = tok.startsWith('--') ? tok.indexOf('=') : -1;
    const flag = eq > 0 ? tok.slice(0, eq) : tok;
    if (flag === '--json') json = true;
    else if (flag === '--help' || flag === '-h') help = true;
    else if (SERVER_ONLY.has(flag))
      throw new UserError(`${flag} is a sim-serve server flag; predict launches nothing (servelab predict --help)`);
    else if (OWN.has(flag)) {
      const v = eq > 0 ? tok.slice(eq + 1) : argv[++i];
      if (v === undefined || v.startsWith('--')) throw new UserError(`${flag} needs a value`);
      own[flag] = v;
    } else rest.push(tok);
  }
  const base = { json, help, seed: 42, engines: [...GPU_ENGINES] as EngineName[], model: '', gpu: 'H100', gpus: 1, knobs: {} };
  if (help) return { ...base, scenario: parseScenario('sharegpt-like', { scale: 1 }) };
  const engine = own['--engine'];
  if (engine !== undefined && !(GPU_ENGINES as readonly string[]).includes(engine))
    throw new UserError(`--engine must be vllm, sglang, trtllm or llamacpp (with --model FILE.gguf), got '${engine}'`);
  let sim;
  try {
    sim = parseSimArgs([...rest, '--engine', engine ?? 'vllm']);
  } catch (e) {
    if (e instanceof SimArgsError) throw simError(e);
    throw e;
  }
  // The same cap and wording as --auto, sim and the workbench (tune/config/rules.ts RULES.simGpus).
  optionalNumberArg('--gpus', String(sim.gpus), RULES.simGpus);
  if (!findGpu(sim.gpu)) throw new UserError(`unknown GPU '${sim.gpu}': use one of ${gpuNames().join(', ')}`);
  if (!getModel(sim.model))
    throw new UserError(
      `unknown model '${sim.model}': use a built-in id (${builtinModelIds().slice(0, 4).join(', ')}, ...) or a folder with config.json`,
    );
  const numPrompts = own['--num-prompts'] !== undefined ? positiveInt('--num-prompts', own['--num-prompts']) : undefined;
  let scenario = parseScenario(own['--scenario'] ?? 'sharegpt-like', { scale: 1, ...(numPrompts ? { numPrompts } : {}) });
  const maxConcurrency = own['--max-concurrency'] !== undefined ? positiveInt('--max-concurrency', own['--max-concurrency']) : undefined;
  let requestRate: number | undefined;
  const rr = own['--request-rate'];
  if (rr !== undefined && rr !== 'inf') {
    requestRate = Number(rr);
    if (!(requestRate > 0) || !Number.isFinite(requestRate))
      throw new UserError(`--request-rate must be a positive number or inf, got '${rr}'`);
  }
  const seedRaw = own['--seed'];
  if (seedRaw !== undefined) {
    // The drawn lengths (and the JSONL vLLM can replay) follow --seed.
    const seed = parseNumberArg('--seed', seedRaw, { integer: true, min: 0 });
    scenario =
      scenario.dataset === 'custom' ? sharegptScenario({ scale: 1, numPrompts: scenario.numPrompts, seed }) : { ...scenario, seed };
  }
  const ver = own['--engine-version'];
  if (ver !== undefined && !/^v?\d+(\.\d+)*/.test(ver)) throw new UserError(`--engine-version must look like 0.11.0, got '${ver}'`);
  return {
    engines: engine ? [engine as EngineName] : [...GPU_ENGINES],
    ...(ver !== undefined ? { engineVersion: ver.replace(/^v/, '') } : {}),
    model: sim.model,
    gpu: sim.gpu,
    gpus: sim.gpus,
    knobs: sim.knobs,
    scenario,
    ...(maxConcurrency ? { maxConcurrency } : {}),
    ...(requestRate !== undefined ? { requestRate } : {}),
    // One seed for the drawn lengths and the simulator; 42 is the tuner's workload seed.
    seed: seedRaw !== undefined ? Number(seedRaw) : scenario.seed,
    json,
    help,
    ...(own['--calibration'] !== undefined ? { calibration: own['--calibration'] } : {}),
  };
}
