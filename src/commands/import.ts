// `servelab import FILE... [--json]`: read `vllm bench serve` printed output or its
// --save-result JSON; print the blocks again (default) or the metrics as JSON.
import { formatHelp, parseFlags } from '../cli/flags.js';
import { IMPORT_FLAGS, IMPORT_USAGE } from '../cli/import-flags.js';
import { formatResultBlock } from '../bench/output/format.js';
import { importResultFile, type ImportedResult } from '../bench/output/parse.js';
import type { BenchMetrics } from '../core/metrics.js';
import { UserError } from '../core/errors.js';

export default async function main(argv: string[]): Promise<number> {
  const { flags, positional } = parseFlags(argv, IMPORT_FLAGS, 'import');
  if (flags.help) {
    process.stdout.write(formatHelp(IMPORT_USAGE, IMPORT_FLAGS));
    return 0;
  }
  if (positional.length === 0)
    throw new UserError("import: give one or more files (vLLM output text or result JSON). Run 'servelab import --help'.");
  const results: ImportedResult[] = [];
  for (const file of positional) results.push(...importResultFile(file));
  if (flags.json) {
    process.stdout.write(
      JSON.stringify(
        results.map((r) => r.result),
        null,
        2,
      ) + '\n',
    );
  } else {
    for (const r of results) {
      const metrics = { failed: 0, request_goodput: null, ...r.result } as unknown as BenchMetrics;
      process.stdout.write(formatResultBlock(metrics, r.block));
    }
  }
  return 0;
}
