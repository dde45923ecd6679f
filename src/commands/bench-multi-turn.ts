// `servelab bench --dataset-name multi_turn`: the conversations from the flags (or vLLM's
// multi-turn input file), the header lines that say what will run, and the closed-loop driver
// (src/bench/multiturn) to run them. The printed block and the result JSON are bench's own.
import { multiTurnSpec } from '../cli/multi-turn-flags.js';
import { runMultiTurn, type MultiTurnOptions } from '../bench/multiturn/driver.js';
import { loadMultiTurn } from '../bench/multiturn/workload.js';
import type { BenchResult } from '../bench/types.js';
import { UserError } from '../core/errors.js';
import type { Flags } from '../cli/bench-flags.js';

type RunPart = Omit<MultiTurnOptions, 'workload' | 'users' | 'counter'>;

export async function loadMultiTurnBench(
  flags: Flags,
  model: string,
  header: boolean,
): Promise<{ total: number; run: (o: RunPart) => Promise<BenchResult> }> {
  if ((flags['client-threads'] ?? '1') !== '1')
    throw new UserError('bench: multi_turn runs on one client thread (leave out --client-threads)');
  const spec = multiTurnSpec(flags);
  const tokenizer = flags.tokenizer as string | undefined;
  const w = await loadMultiTurn(spec, tokenizer, model);
  const convs = w.conversations;
  const total = convs.reduce((a, c) => a + c.turns.length, 0);
  if (header) {
    const turns = new Set(convs.map((c) => c.turns.length));
    const think = spec.thinkTimeS > 0 ? `think time ${spec.thinkTimeS} s (mean)` : 'no think time';
    process.stdout.write(
      `Multi-turn: ${convs.length} conversations (${w.source}) of ${turns.size === 1 ? [...turns][0] : `${Math.min(...turns)}-${Math.max(...turns)}`} turns, ` +
        `${Math.min(spec.users, convs.length)} concurrent users, ${think}\n`,
    );
  }
  return {
    total,
    run: (o) =>
      runMultiTurn({ ...o, workload: w, users: spec.users, counter: w.counter, tokenizerId: w.tokenizerPath ?? tokenizer ?? model }),
  };
}
