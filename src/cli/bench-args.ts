// `servelab bench`'s usage and --help, over its flag table (bench-flags.ts, shared with capacity)
// in the vLLM dialect (flags.ts).
import { formatHelp, parseFlags } from './flags.js';
import { BENCH_FLAGS } from './bench-flags.js';

export const BENCH_USAGE = `Usage: servelab bench [options]

Benchmark a running OpenAI-compatible server the way \`vllm bench serve\` does: same flags,
same metrics, the same printed result block and --save-result JSON. No Python needed.`;

export const BENCH_FOOTER = `Examples:
  servelab bench --base-url http://127.0.0.1:8000 --model Qwen/Qwen3-8B --dataset-name random \\
      --random-input-len 1024 --random-output-len 128 --num-prompts 200 --max-concurrency 32
  servelab bench --port 8000 --dataset-name sharegpt --dataset-path ShareGPT_V3.json --save-result

API key: OPENAI_API_KEY. Without a tokenizer.json, token counts are approximate (one word = one
token) and totals come from the server's usage reports.`;

/** bench's flags and positionals, or null when --help was given (the help is already printed). */
export function parseBenchArgs(argv: readonly string[]) {
  const parsed = parseFlags(argv, BENCH_FLAGS, 'bench');
  if (parsed.flags.help) {
    process.stdout.write(formatHelp(BENCH_USAGE, BENCH_FLAGS, BENCH_FOOTER));
    return null;
  }
  return parsed;
}
