// The one-line descriptions a report and an export share: the hardware, the workload, and the
// `vllm bench serve` command that measures it.
import { formatCommand } from '../../core/shell-quote.js';
import type { Profile, Workload } from '../schema/profile.js';

export function hardwareLine(p: Pick<Profile, 'host'>): string {
  const h = p.host;
  const mem = h.gpuMemoryMiB ? ` (${Math.round(h.gpuMemoryMiB / 1024)} GiB each)` : '';
  return `${h.gpuCount} x ${h.gpuName}${mem}${h.simulated ? ', simulated' : ''}`;
}

export function workloadLine(w: Workload): string {
  const lens = w.dataset === 'random' ? ` ${w.inputLen ?? '?'} in / ${w.outputLen ?? '?'} out tokens,` : '';
  const conc = w.maxConcurrency === null ? 'all at once' : `max concurrency ${w.maxConcurrency}`;
  // A multi-turn workload counts conversations, its concurrency is users.
  if (w.dataset === 'multi_turn')
    return `${w.scenario} (${w.dataset}, ${w.numPrompts} conversations of ${w.turns ?? '?'} turns, ${w.maxConcurrency ?? '?'} users, seed ${w.seed})`;
  return `${w.scenario} (${w.dataset},${lens} ${w.numPrompts} prompts, ${conc}, seed ${w.seed})`;
}

/** The `vllm bench serve` command that reproduces the workload against a running server. */
export function benchCommand(w: Workload, model: string): string {
  if (w.benchCommand) return w.benchCommand;
  const argv = ['vllm', 'bench', 'serve', '--backend', 'openai-chat', '--endpoint', '/v1/chat/completions', '--model', model];
  if (w.dataset === 'sharegpt') {
    argv.push('--dataset-name', 'sharegpt', '--dataset-path', w.datasetPath ?? 'ShareGPT_V3_unfiltered_cleaned_split.json');
  } else if (w.dataset === 'custom') {
    argv.push(
      '--dataset-name',
      'custom',
      '--dataset-path',
      w.datasetPath ?? 'prompts.jsonl',
      '--custom-output-len',
      '-1',
      '--skip-chat-template',
    );
  } else {
    argv.push(
      '--dataset-name',
      'random',
      '--random-input-len',
      String(w.inputLen ?? 1024),
      '--random-output-len',
      String(w.outputLen ?? 128),
    );
  }
  argv.push('--num-prompts', String(w.numPrompts), '--seed', String(w.seed));
  if (w.maxConcurrency !== null) argv.push('--max-concurrency', String(w.maxConcurrency));
  if (w.requestRate !== null) argv.push('--request-rate', String(w.requestRate));
  return formatCommand(argv);
}

/** The command that serves the winner (engine argv with its env). */
