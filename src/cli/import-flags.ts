// `servelab import`'s flags and usage, in the vLLM dialect of the flag table (flags.ts) as bench's.
import type { FlagSpec } from './flags.js';

export const IMPORT_FLAGS: Record<string, FlagSpec> = {
  json: { kind: 'boolean', help: 'print the metrics as JSON with vLLM result key names (one array, one object per block)' },
  help: { kind: 'boolean', help: 'show this help' },
};

export const IMPORT_USAGE = `Usage: servelab import FILE... [--json]

Read \`vllm bench serve\` output: printed text holding one or more result blocks, or the
--save-result JSON (one object per line). Without --json, print each result as vLLM's block.`;
