// `servelab capacity`'s flags: its own, and the `servelab bench` flags it takes (the workload's
// with --base-url; a few shared with a profile search), and the search they ask for.
import type { FlagSpec } from './flags.js';
import { UserError } from '../core/errors.js';
import { parseNumberArg } from '../core/number-arg.js';
import type { SloRule } from '../core/slo-rule.js';
import { checkCapacitySlo } from '../capacity/judge.js';
import type { CapacitySpec } from '../capacity/runner.js';
import { parseResolution, type CapacityBy } from '../capacity/search.js';
import { BENCH_FLAGS, type Flags } from './bench-flags.js';
import { PROFILE_PORT } from '../host/ports.js';
import { PROFILE_RUN_FLAGS } from './profile-flags.js';

/** bench's flags that shape the workload and the client: capacity takes them as bench does. */
export const WORKLOAD_FLAGS = [
  'endpoint',
  'backend',
  'model',
  'served-model-name',
  'tokenizer',
  'dataset-name',
  'burstiness',
  'max-concurrency',
  'random-input-len',
  'random-output-len',
  'random-range-ratio',
  'random-prefix-len',
  'sharegpt-output-len',
  'custom-output-len',
  'skip-chat-template',
  'no-oversample',
  'ignore-eos',
  'temperature',
  'extra-body',
  'header',
  'seed',
  'request-timeout',
  'wall-clock',
] as const;
/** bench's flags a profile search takes too. */
const SHARED_FLAGS = ['base-url', 'host', 'port', 'dataset-path', 'num-prompts'] as const;

/** A flag replay, serve and sweep share (profile-flags.ts), as capacity's help shows it: for a PROFILE. */
function profileFlag(name: 'sim' | 'yes' | 'auto' | 'allow-any-command'): FlagSpec {
  const s = PROFILE_RUN_FLAGS[name];
  return { kind: s.kind, help: `PROFILE: ${s.help}` };
}

const OWN_FLAGS: Record<string, FlagSpec> = {
  slo: {
    kind: 'string',
    help: 'the SLO every probe must meet, e.g. ttft:p99<2000,tpot:mean<100 (ms; with a profile, default its own)',
    metavar: 'RULES',
  },
  by: {
    kind: 'string',
    help: 'search the highest concurrency, or the highest request rate (req/s)',
    metavar: 'concurrency|rate',
    default: 'concurrency',
  },
  resolution: {
    kind: 'string',
    help: 'stop bisecting when the answer and the failing load are this close: a load step (4) or a share of the answer (10%)',
    metavar: 'N|N%',
    default: '10%',
  },
  start: { kind: 'number', help: 'first load probed', default: '1 (concurrency) or 1 req/s' },
  max: { kind: 'number', help: 'highest load probed', default: '4096 (concurrency) or 1024 req/s' },
  json: { kind: 'boolean', help: 'print one JSON object: {"by","answer","failing","breaks","goodput","probes":[...],...}' },
  sim: profileFlag('sim'),
  speed: { kind: 'number', help: 'PROFILE --sim: simulated clock factor (default: the fastest the client can follow)' },
  yes: profileFlag('yes'),
  auto: profileFlag('auto'),
  out: {
    kind: 'string',
    help: 'PROFILE: save the profile with its capacity here (default: beside it; a study profile: the run folder)',
    metavar: 'DIR',
  },
  'runs-dir': { kind: 'string', help: 'PROFILE: folder for this run (server log, copy of a study profile)', metavar: 'DIR' },
  'ready-timeout': { kind: 'number', help: 'PROFILE: seconds to wait for the server', default: '1200 (60 with --sim)' },
  'allow-any-command': profileFlag('allow-any-command'),
  help: { kind: 'boolean', help: 'show this help' },
};

export const FLAGS: Record<string, FlagSpec> = {
  ...OWN_FLAGS,
  ...Object.fromEntries([...SHARED_FLAGS, ...WORKLOAD_FLAGS].map((f) => [f, BENCH_FLAGS[f]!])),
  // Two of bench's flags mean a little more here.
  port: {
    kind: 'number',
    help: 'server port with --host; with a PROFILE the first port tried for its server',
    default: `8000; ${PROFILE_PORT} with a PROFILE`,
  },
  'num-prompts': { kind: 'number', help: 'requests per probe at the least (the SLO rule may ask for more, never fewer)' },
};

export const USAGE = `Usage: servelab capacity PROFILE|--base-url URL --slo RULES [options]

The highest load at which every SLO holds: bracket by doubling, then bisect to --resolution.
Each probe runs enough requests to judge the percentile its SLO names (p99: 1000, so that ten
lie above it). Prints every probe, the answer with the failing probe just above it and the rule
that breaks first, and goodput at the answer. With a profile it launches the profile's server
(replay's launch, --sim for the simulated host) and records the answer in the profile.`;

export const FOOTER = `Examples:
  servelab capacity --base-url http://127.0.0.1:8000 --slo 'ttft:p99<2000,tpot:mean<100' --random-input-len 1024
  servelab capacity profiles/Qwen3-14B-H100x1.json --sim --yes --slo 'tpot:mean<40' --by rate
Exit: 0 an answer, 1 no load held, 2 bad input, 130 interrupted.`;

/** The search as the flags ask: by, start, max, resolution, SLO and the probe floor. */
export function searchSpec(flags: Flags, slo: SloRule[]): CapacitySpec {
  const by = (flags.by as string | undefined) ?? 'concurrency';
  if (by !== 'concurrency' && by !== 'rate') throw new UserError(`--by must be concurrency or rate, got '${by}'`);
  checkCapacitySlo(slo);
  const integer = by === 'concurrency';
  const num = (name: string, fallback: number) =>
    flags[name] === undefined
      ? fallback
      : parseNumberArg(`--${name}`, String(flags[name]), { integer, min: integer ? 1 : 0, exclusiveMin: !integer });
  const start = num('start', 1);
  const max = num('max', by === 'concurrency' ? 4096 : 1024);
  if (max < start) throw new UserError(`--max ${max} is below --start ${start}`);
  const floor =
    flags['num-prompts'] === undefined ? 0 : parseNumberArg('--num-prompts', String(flags['num-prompts']), { integer: true, min: 1 });
  return {
    by: by as CapacityBy,
    start,
    max,
    resolution: parseResolution((flags.resolution as string | undefined) ?? '10%'),
    slo,
    ...(floor ? { minPrompts: floor } : {}),
    // A --start the user gave is where the search starts; without one, pilots place it.
    ...(flags.start === undefined ? { pilot: true } : {}),
  };
}
