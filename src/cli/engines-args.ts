// `servelab engines`'s flags and usage: the strict dialect's table (flags.ts).
import { LLAMACPP_COMMIT } from '../host/llamacpp-build.js';
import { parseCommandArgs } from './command-args.js';

export const ENGINES_USAGE = [
  'usage: servelab engines build llamacpp [--jobs N]',
  `  Builds llama-server and llama-quantize of llama.cpp ${LLAMACPP_COMMIT} (needs cmake, g++, git, npm) into`,
  '  $XDG_CACHE_HOME/servelab/llama.cpp/ (default ~/.cache/servelab), or reuses that build; prints the server path last.',
].join('\n');

export const ENGINES_FLAGS = {
  jobs: { kind: 'string' },
} as const;

/** engines's flags and positionals, or null when --help was given (the usage is already printed). */
export function parseEnginesArgs(argv: string[]) {
  return parseCommandArgs(argv, ENGINES_FLAGS, ENGINES_USAGE, true);
}
