// `servelab gpus`'s flags and usage: the strict dialect's table (flags.ts).
import { parseCommandArgs } from './command-args.js';

export const GPUS_USAGE = 'usage: servelab gpus [--json] [--sim] [--gpu NAME] [--gpus N] [--yes]';

export const GPUS_FLAGS = {
  json: { kind: 'boolean' },
  sim: { kind: 'boolean' },
  gpu: { kind: 'string' },
  gpus: { kind: 'string' },
  yes: { kind: 'boolean', short: 'y' },
} as const;

/** gpus's flags, or null when --help was given (the usage is already printed). */
export function parseGpusArgs(argv: string[]) {
  return parseCommandArgs(argv, GPUS_FLAGS, GPUS_USAGE);
}
