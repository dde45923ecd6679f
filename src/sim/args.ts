// The sim-serve flag contract. The engine adapters build sim-serve argv with knobsToSimArgs; the
// sim-serve command reads it back with parseSimArgs. Strict like argparse: an unknown flag or a
// bad value is a usage error (exit 2), because a typo must not silently become a default.
import { ENGINES, type EngineName, type Knobs, type SpeculativeKnob } from '../core/variant.js';
import { UserError } from '../core/errors.js';

export interface SimArgs {
  engine: EngineName;
  /** GPU catalog name or nvidia-smi name, e.g. 'H100'. */
  gpu: string;
  gpus: number;
  model: string;
  knobs: Knobs;
  host: string;
  port: number;
  seed: number;
  /** Simulated clock runs `speed` times faster than the wall clock. */
  speed: number;
  /** Simulated start-up seconds; undefined = derived from the model size. */
  loadTime?: number;
  servedModelName?: string;
  /** Engine release the model imitates (src/model/versions.ts); undefined = the release servelab targets. */
  engineVersion?: string;
}

const SPEC_METHODS: SpeculativeKnob['method'][] = ['eagle', 'eagle3', 'mtp', 'ngram', 'draft'];

/** Thrown for bad argv; `message` is the argparse-style text (usage line + error line). */
export class SimArgsError extends UserError {
  constructor(detail: string) {
    super(`${SIM_USAGE}\nservelab sim-serve: error: ${detail}`, 2);
    this.name = 'SimArgsError';
  }
}

export const SIM_USAGE =
  'usage: servelab sim-serve [-h] --engine {vllm,sglang,trtllm} --model MODEL [--gpu GPU] [--gpus N]\n' +
  '                          [--host HOST] [--port PORT] [--seed SEED] [--speed S] [--load-time SECONDS]\n' +
  '                          [--served-model-name NAME] [--engine-version V] [--quantization Q] [--kv-cache-dtype DTYPE]\n' +
  '                          [--tp N] [--pp N] [--dp N] [--ep N] [--dp-attention]\n' +
  '                          [--max-batched-tokens N] [--max-running-seqs N] [--mem-fraction F]\n' +
  '                          [--attention-backend NAME] [--torch-compile] [--no-cuda-graph]\n' +
  '                          [--speculative {eagle,eagle3,mtp,ngram,draft}] [--speculative-steps N]\n' +
  '                          [--speculative-topk N] [--speculative-draft-tokens N]\n' +
  '                          [--speculative-draft-model PATH] [--max-model-len N] [--engine-arg ARG]';

/** Build sim-serve argv (without the executable) for a variant's knobs. */
export function knobsToSimArgs(k: Knobs): string[] {
  const out: string[] = [];
  const num = (flag: string, v: number | undefined) => {
    if (v !== undefined) out.push(flag, String(v));
  };
  if (k.quantization) out.push('--quantization', k.quantization);
  if (k.kvCacheDtype) out.push('--kv-cache-dtype', k.kvCacheDtype);
  num('--tp', k.tp);
  num('--pp', k.pp);
  num('--dp', k.dp);
  num('--ep', k.ep);
  if (k.dpAttention) out.push('--dp-attention');
  num('--max-batched-tokens', k.maxBatchedTokens);
  num('--max-running-seqs', k.maxRunningSeqs);
  num('--mem-fraction', k.memFraction);
  if (k.attentionBackend) out.push('--attention-backend', k.attentionBackend);
  if (k.torchCompile) out.push('--torch-compile');
  if (k.cudaGraph === false) out.push('--no-cuda-graph');
  if (k.speculative) {
    const s = k.speculative;
    out.push('--speculative', s.method);
    num('--speculative-steps', s.numSteps);
    num('--speculative-topk', s.topk);
    num('--speculative-draft-tokens', s.draftTokens);
    if (s.draftModel) out.push('--speculative-draft-model', s.draftModel);
  }
  num('--max-model-len', k.maxModelLen);
  // Engine-specific extras cannot change the simulation; they travel so the argv is complete.
  for (const a of k.extraArgs ?? []) out.push(`--engine-arg=${a}`);
  return out;
}

type Kind = 'string' | 'int' | 'float' | 'bool';
interface FlagDef {
  kind: Kind;
  set: (a: SimArgs, v: string | boolean) => void;
}

function spec(a: SimArgs): SpeculativeKnob {
  if (!a.knobs.speculative) a.knobs.speculative = { method: 'eagle' };
  return a.knobs.speculative;
}

const FLAGS: Record<string, FlagDef> = {
  '--engine': { kind: 'string', set: (a, v) => (a.engine = v as EngineName) },
  '--gpu': { kind: 'string', set: (a, v) => (a.gpu = v as string) },
  '--gpus': { kind: 'int', set: (a, v) => (a.gpus = Number(v)) },
  '--model': { kind: 'string', set: (a, v) => (a.model = v as string) },
  '--host': { kind: 'string', set: (a, v) => (a.host = v as string) },
  '--port': { kind: 'int', set: (a, v) => (a.port = Number(v)) },
  '--seed': { kind: 'int', set: (a, v) => (a.seed = Number(v)) },
  '--speed': { kind: 'float', set: (a, v) => (a.speed = Number(v)) },
  '--load-time': { kind: 'float', set: (a, v) => (a.loadTime = Number(v)) },
  '--served-model-name': { kind: 'string', set: (a, v) => (a.servedModelName = v as string) },
  '--engine-version': { kind: 'string', set: (a, v) => (a.engineVersion = (v as string).replace(/^v/, '')) },
  '--quantization': { kind: 'string', set: (a, v) => (a.knobs.quantization = v as string) },
  '--kv-cache-dtype': { kind: 'string', set: (a, v) => (a.knobs.kvCacheDtype = v as string) },
  '--tp': { kind: 'int', set: (a, v) => (a.knobs.tp = Number(v)) },
  '--pp': { kind: 'int', set: (a, v) => (a.knobs.pp = Number(v)) },
  '--dp': { kind: 'int', set: (a, v) => (a.knobs.dp = Number(v)) },
  '--ep': { kind: 'int', set: (a, v) => (a.knobs.ep = Number(v)) },
  '--dp-attention': { kind: 'bool', set: (a) => (a.knobs.dpAttention = true) },
  '--max-batched-tokens': { kind: 'int', set: (a, v) => (a.knobs.maxBatchedTokens = Number(v)) },
  '--max-running-seqs': { kind: 'int', set: (a, v) => (a.knobs.maxRunningSeqs = Number(v)) },
  '--mem-fraction': { kind: 'float', set: (a, v) => (a.knobs.memFraction = Number(v)) },
  '--attention-backend': { kind: 'string', set: (a, v) => (a.knobs.attentionBackend = v as string) },
  '--torch-compile': { kind: 'bool', set: (a) => (a.knobs.torchCompile = true) },
  '--no-cuda-graph': { kind: 'bool', set: (a) => (a.knobs.cudaGraph = false) },
  '--speculative': { kind: 'string', set: (a, v) => (spec(a).method = v as SpeculativeKnob['method']) },
  '--speculative-steps': { kind: 'int', set: (a, v) => (spec(a).numSteps = Number(v)) },
  '--speculative-topk': { kind: 'int', set: (a, v) => (spec(a).topk = Number(v)) },
  '--speculative-draft-tokens': { kind: 'int', set: (a, v) => (spec(a).draftTokens = Number(v)) },
  '--speculative-draft-model': { kind: 'string', set: (a, v) => (spec(a).draftModel = v as string) },
  '--max-model-len': { kind: 'int', set: (a, v) => (a.knobs.maxModelLen = Number(v)) },
  '--engine-arg': {
    kind: 'string',
    set: (a, v) => (a.knobs.extraArgs = [...(a.knobs.extraArgs ?? []), v as string]),
  },
};

function checkValue(flag: string, kind: Kind, raw: string): void {
  if (kind === 'int' && !/^-?\d+$/.test(raw)) throw new SimArgsError(`argument ${flag}: invalid int value: '${raw}'`);
  if (kind === 'float' && (raw.trim() === '' || !Number.isFinite(Number(raw))))
    throw new SimArgsError(`argument ${flag}: invalid float value: '${raw}'`);
}

/** True when argv asks for help (the command prints SIM_USAGE and exits 0). */
export function wantsHelp(argv: string[]): boolean {
  return argv.includes('-h') || argv.includes('--help');
}

/** Parse sim-serve argv; throws SimArgsError (argparse-style text, exit code 2) on bad input. */
export function parseSimArgs(argv: string[]): SimArgs {
  const a: SimArgs = {
    engine: undefined as unknown as EngineName,
    gpu: 'H100',
    gpus: 1,
    model: '',
    knobs: {},
    host: '127.0.0.1',
    port: 8000,
    seed: 0,
    speed: 1,
  };
  const unknown: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    const eq = tok.startsWith('--') ? tok.indexOf('=') : -1;
    const flag = eq > 0 ? tok.slice(0, eq) : tok;
    const def = FLAGS[flag];
    if (!def) {
      unknown.push(tok);
      continue;
    }
    if (def.kind === 'bool') {
      if (eq > 0) throw new SimArgsError(`argument ${flag}: ignored explicit argument '${tok.slice(eq + 1)}'`);
      def.set(a, true);
      continue;
    }
    let raw: string | undefined;
    if (eq > 0) raw = tok.slice(eq + 1);
    else {
      raw = argv[i + 1];
      if (raw === undefined || (raw.startsWith('--') && flag !== '--engine-arg')) throw new SimArgsError(`argument ${flag}: expected one argument`);
      i++;
    }
    checkValue(flag, def.kind, raw);
    def.set(a, raw);
  }
  if (unknown.length) throw new SimArgsError(`unrecognized arguments: ${unknown.join(' ')}`);
  const missing = [!a.engine && '--engine', !a.model && '--model'].filter(Boolean);
  if (missing.length) throw new SimArgsError(`the following arguments are required: ${missing.join(', ')}`);
  if (!ENGINES.includes(a.engine))
    throw new SimArgsError(`argument --engine: invalid choice: '${a.engine}' (choose from 'vllm', 'sglang', 'trtllm')`);
  if (a.knobs.speculative && !SPEC_METHODS.includes(a.knobs.speculative.method))
    throw new SimArgsError(
      `argument --speculative: invalid choice: '${a.knobs.speculative.method}' (choose from ${SPEC_METHODS.map((m) => `'${m}'`).join(', ')})`,
    );
  const positive: [string, number | undefined][] = [
    ['--gpus', a.gpus],
    ['--tp', a.knobs.tp],
    ['--pp', a.knobs.pp],
    ['--dp', a.knobs.dp],
    ['--ep', a.knobs.ep],
    ['--max-batched-tokens', a.knobs.maxBatchedTokens],
    ['--max-running-seqs', a.knobs.maxRunningSeqs],
    ['--max-model-len', a.knobs.maxModelLen],
  ];
  for (const [flag, v] of positive) if (v !== undefined && v < 1) throw new SimArgsError(`argument ${flag}: must be >= 1, got ${v}`);
  if (!(a.speed > 0)) throw new SimArgsError(`argument --speed: must be > 0, got ${a.speed}`);
  if (a.port < 0 || a.port > 65535) throw new SimArgsError(`argument --port: must be 0..65535, got ${a.port}`);
  const mf = a.knobs.memFraction;
  if (mf !== undefined && !(mf > 0 && mf <= 1)) throw new SimArgsError(`argument --mem-fraction: must be in (0, 1], got ${mf}`);
  if (a.loadTime !== undefined && a.loadTime < 0) throw new SimArgsError(`argument --load-time: must be >= 0, got ${a.loadTime}`);
  return a;
}
