// `servelab predict --engine llamacpp`'s argv: llama-server's own spellings for the knobs the CPU
// estimate reads (-np, -t, -tb, -b, -ub, -ctk, -ctv) and predict's workload flags. A loop of its
// own, because llama-server's single-dash flags are not servelab's, nor vLLM's.
import { UserError } from '../core/errors.js';
import { parseNumberArg } from '../core/number-arg.js';
import type { Knobs } from '../core/variant.js';
import { kvElemBytes } from '../model/llamacpp-estimate.js';

export const PREDICT_LLAMACPP_USAGE = `usage: servelab predict --engine llamacpp --model FILE.gguf [-np SLOTS] [-t THREADS] [-b N] [-ub N]
                        [-ctk TYPE] [-ctv TYPE] [--scenario random:IN/OUT] [--num-prompts N]
                        [--max-concurrency N] [--calibration FILE] [--json]`;

const INT_FLAGS: Record<string, keyof Knobs> = {
  '-np': 'maxRunningSeqs',
  '-t': 'threads',
  '-tb': 'threadsBatch',
  '-b': 'maxBatchedTokens',
  '-ub': 'ubatch',
};
const TYPE_FLAGS: Record<string, 'kvCacheDtype' | 'vCacheDtype'> = { '-ctk': 'kvCacheDtype', '-ctv': 'vCacheDtype' };

export interface PredictLlamacppArgs {
  knobs: Record<string, unknown>;
  model: string | undefined;
  calibration: string | undefined;
  json: boolean;
  inputLen: number;
  outputLen: number;
  numPrompts: number;
  maxConcurrency: number | undefined;
}

/** The flags as read, or 'help' when --help came before anything wrong. */
export function parsePredictLlamacppArgs(argv: readonly string[]): PredictLlamacppArgs | 'help' {
  const knobs: Record<string, unknown> = {};
  let model: string | undefined;
  let calibration: string | undefined;
  let json = false;
  let inputLen = 1024;
  let outputLen = 128;
  let numPrompts = 1000;
  let maxConcurrency: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const f = argv[i]!;
    if (f === '--json') {
      json = true;
      continue;
    }
    if (f === '--help' || f === '-h') return 'help';
    const v = argv[++i];
    if (v === undefined) throw new UserError(`${f} needs a value (servelab predict --help)`);
    const int = () => parseNumberArg(f, v, { integer: true, min: 1 });
    if (f === '--engine') continue;
    else if (f === '--model') model = v;
    else if (f === '--calibration') calibration = v;
    else if (f === '--num-prompts') numPrompts = int();
    else if (f === '--max-concurrency') maxConcurrency = int();
    else if (INT_FLAGS[f]) knobs[INT_FLAGS[f]] = int();
    else if (TYPE_FLAGS[f]) {
      if (kvElemBytes(v) === 2 && !/^(f16|bf16|auto)$/i.test(v))
        throw new UserError(`${f} must be a GGML type such as f16, q8_0 or q4_0, got '${v}'`);
      knobs[TYPE_FLAGS[f]] = v;
    } else if (f === '--scenario') {
      const m = /^random:(\d+)\/(\d+)$/.exec(v);
      if (!m || !(Number(m[1]) > 0) || !(Number(m[2]) > 0))
        throw new UserError(`--scenario for llamacpp must be random:IN/OUT, got '${v}'`);
      inputLen = Number(m[1]);
      outputLen = Number(m[2]);
    } else throw new UserError(`unknown flag for predict --engine llamacpp: ${f} (servelab predict --help)`);
  }
  return { knobs, model, calibration, json, inputLen, outputLen, numPrompts, maxConcurrency };
}
