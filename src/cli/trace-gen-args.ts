// `servelab trace-gen`'s flags and usage: the strict dialect's table (flags.ts).
import { parseCommandArgs } from './command-args.js';

export const TRACE_GEN_USAGE = [
  'usage: servelab trace-gen --out FILE [--requests N] [--rate R] [--turns K] [--prefixes P] [--prefix-blocks B]',
  '                          [--turn-blocks T] [--block-size N] [--output-len N] [--think-time S] [--seed N]',
  '  Writes a synthetic trace in the Mooncake format (timestamp ms, input_length, output_length, hash_ids,',
  '  session_id), deterministic by seed, for `servelab bench --dataset-name mooncake_trace --dataset-path FILE`.',
  '  Sessions arrive as a Poisson process; each opens with one of P shared system prompts of B blocks and',
  '  resends its growing context every turn (T new blocks a turn), S seconds apart.',
  '  --requests 100  --rate 2 (requests/s)  --turns 4  --prefixes 2  --prefix-blocks 2  --turn-blocks 1',
  '  --block-size 512 (tokens per hash id: give bench the same --trace-block-size)  --output-len 64  --think-time 5  --seed 0',
].join('\n');

export const TRACE_GEN_FLAGS = {
  out: { kind: 'string' },
  requests: { kind: 'string' },
  rate: { kind: 'string' },
  turns: { kind: 'string' },
  prefixes: { kind: 'string' },
  'prefix-blocks': { kind: 'string' },
  'turn-blocks': { kind: 'string' },
  'block-size': { kind: 'string' },
  'output-len': { kind: 'string' },
  'think-time': { kind: 'string' },
  seed: { kind: 'string' },
} as const;

/** trace-gen's flags, or null when --help was given (the usage is already printed). */
export function parseTraceGenArgs(argv: string[]) {
  return parseCommandArgs(argv, TRACE_GEN_FLAGS, TRACE_GEN_USAGE);
}
