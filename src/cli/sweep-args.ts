// `servelab sweep`'s flags and usage: the strict dialect's table (flags.ts), with the flags every
// profile-launching command shares (profile-flags.ts).
import { parseCommandArgs } from './command-args.js';
import { PROFILE_RUN_FLAGS } from './profile-flags.js';

export const SWEEP_USAGE = `usage: servelab sweep PROFILE [--sweep concurrency:1,4,16,64,256] [--sweep-all] [--slo RULES]
                      [--prompts N] [--sim] [--speed S] [--yes] [--auto] [--out DIR]
                      [--run-dir DIR | --resume DIR] [--dataset-path FILE] [--port N]
                      [--ready-timeout S] [--allow-any-command]

Launches the profile's server once and benchmarks it at each load (prompts drawn from the
profile's workload). A point that breaks the SLO (--slo, default the profile's) ends the sweep
unless --sweep-all. Prints the frontier table, the best load meeting the SLO and a chart; saves
the sweep into the profile (a study profile: a copy in the run folder, or --out DIR) with an SVG
chart beside its report. --resume DIR continues an interrupted sweep from its run folder.
Exit: 0 a choice was made, 1 nothing measured or nothing met the SLO, 2 bad input, 130 interrupted.`;

export const SWEEP_FLAGS = {
  sweep: { kind: 'string' },
  'sweep-all': { kind: 'boolean' },
  slo: { kind: 'string' },
  prompts: { kind: 'string' },
  ...PROFILE_RUN_FLAGS,
  out: { kind: 'string' },
  'run-dir': { kind: 'string' },
  resume: { kind: 'string' },
  'dataset-path': { kind: 'string' },
  'ready-timeout': { kind: 'string' },
} as const;

/** sweep's flags and PROFILE, or null when --help was given (the usage is already printed). */
export function parseSweepArgs(argv: string[]) {
  return parseCommandArgs(argv, SWEEP_FLAGS, SWEEP_USAGE, true);
}
