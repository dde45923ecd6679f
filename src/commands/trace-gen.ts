// `servelab trace-gen --out FILE ...`: a synthetic Mooncake-format trace with shared prefixes and
// sessions (bench/datasets/trace-gen.ts), deterministic by seed, for bench's mooncake_trace.
import { writeFileSync } from 'node:fs';
import { parseTraceGenArgs, TRACE_GEN_USAGE } from '../cli/trace-gen-args.js';
import { generateTrace, traceJsonl } from '../bench/datasets/trace-gen.js';
import { optionalNumberArg } from '../core/number-arg.js';
import { UserError } from '../core/errors.js';

export default function main(argv: string[]): Promise<number> {
  const parsed = parseTraceGenArgs(argv);
  if (!parsed) return Promise.resolve(0);
  const v = parsed.values;
  if (!v.out) throw new UserError(`trace-gen: --out FILE is required; ${TRACE_GEN_USAGE.split('\n')[0]}`);
  const int = (name: string, text: string | undefined, min = 1) => optionalNumberArg(`--${name}`, text, { integer: true, min });
  const num = (name: string, text: string | undefined) => optionalNumberArg(`--${name}`, text, { min: 0 });
  const spec = {
    requests: int('requests', v.requests),
    rate: num('rate', v.rate),
    turns: int('turns', v.turns),
    prefixes: int('prefixes', v.prefixes),
    prefixBlocks: int('prefix-blocks', v['prefix-blocks'], 0),
    turnBlocks: int('turn-blocks', v['turn-blocks']),
    blockSize: int('block-size', v['block-size']),
    outputLen: int('output-len', v['output-len']),
    thinkTimeS: num('think-time', v['think-time']),
    seed: int('seed', v.seed, 0),
  };
  const lines = generateTrace(Object.fromEntries(Object.entries(spec).filter(([, x]) => x !== undefined)));
  writeFileSync(v.out, traceJsonl(lines));
  const sessions = new Set(lines.map((l) => l.session_id)).size;
  process.stderr.write(
    `servelab: ${lines.length} requests in ${sessions} session(s) over ${(lines.at(-1)!.timestamp / 1000).toFixed(1)} s\n`,
  );
  process.stdout.write(`${v.out}\n`);
  return Promise.resolve(0);
}
