// The sim-serve flag contract. The engine adapters build sim-serve argv with knobsToSimArgs; the
// sim-serve command reads it back with parseSimArgs. Strict like argparse: an unknown flag or a
// bad value is a usage error (exit 2), because a typo must not silently become a default.
import { SIM_LOAD_FORMATS, type SimLoadFormat } from '../sim/imitation/load-format.js';
import { GPU_ENGINES, type EngineName, type Knobs, type SpeculativeKnob } from '../core/variant.js';
import { NEUTRAL_KNOBS, SPECULATIVE_FIELDS, SPECULATIVE_METHODS } from '../engines/data/knobs.js';
import { SimArgsError, type SimArgs } from '../sim/server/sim-args.js';
import { UserError } from '../core/errors.js';
import { getAdapter } from '../engines/index.js';
import { trtllmYamlLoadFormat } from '../sim/imitation/trtllm-yaml.js';
import { cacheKnobsFromEngineArgs } from '../sim/server/engine-cache-args.js';

const SPEC_METHODS: readonly string[] = SPECULATIVE_METHODS;

// The argv builder lives beside the sim adapter (engines -> sim would be a folder cycle).

type Kind = 'string' | 'int' | 'float' | 'bool';
interface FlagDef<T = SimArgs> {
  kind: Kind;
  set: (a: T, v: string | boolean) => void;
}

function spec(k: Knobs): SpeculativeKnob {
  if (!k.speculative) k.speculative = { method: 'eagle' };
  return k.speculative;
}

/** The knob flags (from the neutral knob list), setting knobs on whatever `knobsOf` returns. */
function knobFlagDefs<T>(knobsOf: (t: T) => Knobs): Record<string, FlagDef<T>> {
  const defs: Record<string, FlagDef<T>> = {};
  for (const n of NEUTRAL_KNOBS) {
    const key = n.knob;
    if (n.type === 'bool-on') defs[n.simFlag] = { kind: 'bool', set: (t) => ((knobsOf(t) as Record<string, unknown>)[key] = true) };
    else if (n.type === 'bool-off') defs[n.simFlag] = { kind: 'bool', set: (t) => ((knobsOf(t) as Record<string, unknown>)[key] = false) };
    else if (n.type === 'bool-switch') {
      defs[n.simFlag] = { kind: 'bool', set: (t) => ((knobsOf(t) as Record<string, unknown>)[key] = true) };
      defs[n.simFlag.replace(/^--/, '--no-')] = { kind: 'bool', set: (t) => ((knobsOf(t) as Record<string, unknown>)[key] = false) };
    } else {
      const kind: Kind = n.type === 'string' ? 'string' : n.type;
      defs[n.simFlag] = { kind, set: (t, v) => ((knobsOf(t) as Record<string, unknown>)[key] = kind === 'string' ? v : Number(v)) };
    }
  }
  for (const f of SPECULATIVE_FIELDS) {
    const kind: Kind = f.type;
    defs[f.simFlag] = {
      kind,
      set: (t, v) => ((spec(knobsOf(t)) as unknown as Record<string, unknown>)[f.field] = kind === 'int' ? Number(v) : v),
    };
  }
  defs['--engine-arg'] = { kind: 'string', set: (t, v) => (knobsOf(t).extraArgs ??= []).push(v as string) };
  return defs;
}

const FLAGS: Record<string, FlagDef> = {
  ...knobFlagDefs((a) => a.knobs),
  '--engine': { kind: 'string', set: (a, v) => (a.engine = v as EngineName) },
  '--gpu': { kind: 'string', set: (a, v) => (a.gpu = v as string) },
  '--gpus': { kind: 'int', set: (a, v) => (a.gpus = Number(v)) },
  '--model': { kind: 'string', set: (a, v) => (a.model = v as string) },
  '--host': { kind: 'string', set: (a, v) => (a.host = v as string) },
  '--port': { kind: 'int', set: (a, v) => (a.port = Number(v)) },
  '--seed': { kind: 'int', set: (a, v) => (a.seed = Number(v)) },
  '--speed': { kind: 'float', set: (a, v) => (a.speed = Number(v)) },
  '--load-time': { kind: 'float', set: (a, v) => (a.loadTime = Number(v)) },
  '--load-format': { kind: 'string', set: (a, v) => (a.loadFormat = v as SimLoadFormat) },
  '--extra_llm_api_options': { kind: 'string', set: (a, v) => (a.trtllmYaml = v as string) },
  '--served-model-name': { kind: 'string', set: (a, v) => (a.servedModelName = v as string) },
  '--engine-version': { kind: 'string', set: (a, v) => (a.engineVersion = (v as string).replace(/^v/, '')) },
  '--truth': { kind: 'string', set: (a, v) => (a.truth = v as string) },
  '--calibration': { kind: 'string', set: (a, v) => (a.calibration = v as string) },
  '--engine-env': { kind: 'string', set: (a, v) => (a.engineEnv ??= []).push(v as string) },
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

/** Walk argv with a flag table; returns the tokens no flag claims. Bad values throw SimArgsError. */
function walkFlags<T>(argv: string[], defs: Record<string, FlagDef<T>>, target: T): string[] {
  const unknown: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const tok = argv[i]!;
    const eq = tok.startsWith('--') ? tok.indexOf('=') : -1;
    const flag = eq > 0 ? tok.slice(0, eq) : tok;
    const def = defs[flag];
    if (!def) {
      unknown.push(tok);
      continue;
    }
    if (def.kind === 'bool') {
      if (eq > 0) throw new SimArgsError(`argument ${flag}: ignored explicit argument '${tok.slice(eq + 1)}'`);
      def.set(target, true);
      continue;
    }
    let raw: string | undefined;
    if (eq > 0) raw = tok.slice(eq + 1);
    else {
      raw = argv[i + 1];
      if (raw === undefined || (raw.startsWith('--') && flag !== '--engine-arg'))
        throw new SimArgsError(`argument ${flag}: expected one argument`);
      i++;
    }
    checkValue(flag, def.kind, raw);
    def.set(target, raw);
  }
  return unknown;
}

/** Range checks of knob values (the bounds come from the neutral knob list). */
export function checkKnobs(k: Knobs): void {
  if (k.speculative && !SPEC_METHODS.includes(k.speculative.method))
    throw new SimArgsError(
      `argument --speculative: invalid choice: '${k.speculative.method}' (choose from ${SPEC_METHODS.map((m) => `'${m}'`).join(', ')})`,
    );
  for (const n of NEUTRAL_KNOBS) {
    const v = k[n.knob];
    if (typeof v !== 'number') continue;
    if (n.min !== undefined && v < n.min) throw new SimArgsError(`argument ${n.simFlag}: must be >= ${n.min}, got ${v}`);
    if (n.max !== undefined && !(v > 0 && v <= n.max)) throw new SimArgsError(`argument ${n.simFlag}: must be in (0, ${n.max}], got ${v}`);
  }
}

/**
 * Parse the knob flags of sim-serve's contract out of any argv (sim-serve, predict): returns the
 * knobs and the tokens that are not knob flags, for the caller's own flags. Throws SimArgsError.
 */
export function parseKnobArgs(argv: string[]): { knobs: Knobs; rest: string[] } {
  const holder = { knobs: {} as Knobs };
  const rest = walkFlags(
    argv,
    knobFlagDefs<typeof holder>((h) => h.knobs),
    holder,
  );
  checkKnobs(holder.knobs);
  return { knobs: holder.knobs, rest };
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
  const unknown = walkFlags(argv, FLAGS, a);
  if (unknown.length) throw new SimArgsError(`unrecognized arguments: ${unknown.join(' ')}`);
  const missing = [!a.engine && '--engine', !a.model && '--model'].filter(Boolean);
  if (missing.length) throw new SimArgsError(`the following arguments are required: ${missing.join(', ')}`);
  if (!(GPU_ENGINES as readonly string[]).includes(a.engine))
    throw new SimArgsError(`argument --engine: invalid choice: '${a.engine}' (choose from ${GPU_ENGINES.map((e) => `'${e}'`).join(', ')})`);
  // The engine's own cache flags among the extras act as the neutral knobs do (engine-cache-args.ts).
  Object.assign(a.knobs, cacheKnobsFromEngineArgs(a.engine, a.engineVersion, a.knobs.extraArgs ?? []));
  checkKnobs(a.knobs);
  if (a.gpus < 1) throw new SimArgsError(`argument --gpus: must be >= 1, got ${a.gpus}`);
  if (!(a.speed > 0)) throw new SimArgsError(`argument --speed: must be > 0, got ${a.speed}`);
  if (a.port < 0 || a.port > 65535) throw new SimArgsError(`argument --port: must be 0..65535, got ${a.port}`);
  if (a.loadTime !== undefined && a.loadTime < 0) throw new SimArgsError(`argument --load-time: must be >= 0, got ${a.loadTime}`);
  if (a.loadFormat !== undefined && !(SIM_LOAD_FORMATS as readonly string[]).includes(a.loadFormat))
    throw new SimArgsError(
      `argument --load-format: invalid choice: '${a.loadFormat}' (sim-serve models ${SIM_LOAD_FORMATS.map((f) => `'${f}'`).join(', ')})`,
    );
  if (a.trtllmYaml !== undefined) readTrtllmYaml(a);
  return a;
}

/** TensorRT-LLM's YAML: only with --engine trtllm (trtllm-serve's flag), and not with --load-format (two answers to one question). */
function readTrtllmYaml(a: SimArgs): void {
  if (!getAdapter(a.engine).yamlFlag)
    throw new SimArgsError(`argument --extra_llm_api_options: TensorRT-LLM's flag, not ${a.engine}'s (use --load-format)`);
  if (a.loadFormat !== undefined)
    throw new SimArgsError('argument --extra_llm_api_options: not allowed with --load-format (give the load format in one place)');
  try {
    const f = trtllmYamlLoadFormat(a.trtllmYaml!);
    if (f) a.loadFormat = f;
  } catch (e) {
    throw new SimArgsError(`argument --extra_llm_api_options: ${(e as Error).message}`);
  }
}
