// The printed block's multi-turn section (servelab's, after vLLM's sections): users,
// conversations and their rate, then one line per turn index: requests, TTFT, prompt length,
// possible reuse and measured cache hit rate.
import { pyCenter, pyFixed2 } from './pyformat.js';
import type { TurnMetrics } from '../multiturn/turn-metrics.js';

const COLUMNS = ['Turn', 'Reqs', 'Mean TTFT', 'P99 TTFT', 'Mean in', 'Reuse %', 'Hit %'];
const WIDTHS = [5, 5, 10, 10, 8, 8, 7];

function line(cells: readonly string[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(WIDTHS[i]!) : c.padStart(WIDTHS[i]!))).join(' ');
}

export function turnRows(t: TurnMetrics, row: (label: string, v: number) => string, text: (label: string, v: string) => string): string[] {
  const lines = [pyCenter('Multi-turn Conversations', 50, '-')];
  lines.push(text('Concurrent users:', String(t.multi_turn_users)));
  lines.push(text('Conversations completed:', `${t.completed_conversations} / ${t.conversations}`));
  lines.push(row('Conversation throughput (conv/s):', t.conversation_throughput));
  lines.push(pyCenter('TTFT by Turn (ms)', 50, '-'));
  lines.push(line(COLUMNS));
  t.turn_index.forEach((k, i) => {
    const hit = t.turn_cache_hit_rate[i];
    lines.push(
      line([
        String(k),
        String(t.turn_completed[i]),
        pyFixed2(t.turn_mean_ttft_ms[i]!),
        pyFixed2(t.turn_p99_ttft_ms[i]!),
        t.turn_mean_input_len[i]!.toFixed(0),
        (t.turn_cache_possible_reuse[i]! * 100).toFixed(1),
        hit === null || hit === undefined ? '-' : (hit * 100).toFixed(1),
      ]),
    );
  });
  return lines;
}
