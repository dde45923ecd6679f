// `servelab engines`'s flags and usage: the strict dialect's table (flags.ts).
import { LLAMACPP_COMMIT } from '../host/llamacpp-build.js';
import { parseCommandArgs } from './command-args.js';

export const ENGINES_USAGE = [
  'usage: servelab engines build llamacpp [--jobs N] [--cpu | --gpu-arch ARCH]',
  `  Builds llama-server and llama-quantize of llama.cpp ${LLAMACPP_COMMIT} (needs cmake, g++, git, npm) into`,
  '  $XDG_CACHE_HOME/servelab/llama.cpp/ (default ~/.cache/servelab), or reuses that build; prints the server path last.',
  '  With CUDA when nvcc is on PATH, with HIP when hipcc is, else for the CPU; one build per backend.',
  '  --cpu            build for the CPU alone even where nvcc or hipcc is found',
  "  --gpu-arch ARCH  CUDA compute capabilities (90, or '89;90') or HIP targets (gfx942); default: this host's GPUs",
].join('\n');

export const ENGINES_FLAGS = {
  jobs: { kind: 'string' },
  cpu: { kind: 'boolean' },
  'gpu-arch': { kind: 'string' },
} as const;

/** engines's flags and positionals, or null when --help was given (the usage is already printed). */
export function parseEnginesArgs(argv: string[]) {
  return parseCommandArgs(argv, ENGINES_FLAGS, ENGINES_USAGE, true);
}
