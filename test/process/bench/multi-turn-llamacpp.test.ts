// `servelab bench --dataset-name multi_turn` against the real llama-server, as a user runs it:
// the TTFT-by-turn table, the conversations completed and their rate, and llama-server's own
// prompt-cache report (timings.cache_n) beside the reuse the conversations made possible, on the
// chat endpoint (the server renders the template) and the completions endpoint. Bad multi-turn
// flags are one line and exit 2.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServerHandle } from '../../../src/host/server-handle.js';
import { BIN } from '../../helpers/e2e/cli.js';
import { LLAMA_SKIP, startLlamaServer, testGguf } from '../../helpers/llamacpp-fixture.js';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'servelab-multiturn-'));
let server: ServerHandle | undefined;
afterAll(async () => {
  await server?.stop({ graceMs: 2000 });
  fs.rmSync(root, { recursive: true, force: true });
});

const bench = (args: string[]) =>
  execa(process.execPath, [BIN, 'bench', ...args], { cwd: root, reject: false, timeout: 300_000, env: { NO_COLOR: '1' } });

const pct = (text: string, label: string) => Number(new RegExp(`${label} \\(%\\):\\s+([\\d.]+)`).exec(text)?.[1]);

/** The TTFT-by-turn table's rows: turn, requests, mean TTFT, p99, mean input, reuse %, hit %. */
function turnTable(text: string): number[][] {
  const from = text.indexOf('TTFT by Turn');
  return [...text.slice(from).matchAll(/^(\d+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)\s+(\d+)\s+([\d.]+)\s+([\d.]+)$/gm)].map((m) =>
    m.slice(1).map(Number),
  );
}

describe('multi_turn flags: one-line errors, exit 2', () => {
  it.each([
    [['--multi-turn-turns', '0'], /--multi-turn-turns must be an integer >= 1, got 0/],
    [['--max-concurrency', '0'], /--max-concurrency must be a positive integer|concurrent users\) must be an integer >= 1/],
    [['--multi-turn-think-time', '-2'], /--multi-turn-think-time must be a number of seconds >= 0/],
    [['--dataset-path', path.join(root, 'missing.json'), '--model', 'm'], /missing\.json: not a readable JSON file/],
  ])('%j', async (args, message) => {
    const r = await bench(['--base-url', 'http://127.0.0.1:9', '--dataset-name', 'multi_turn', ...args]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });
});

describe.skipIf(LLAMA_SKIP !== undefined)(`multi-turn on llama-server${LLAMA_SKIP ? ` (skipped: ${LLAMA_SKIP})` : ''}`, () => {
  const small = ['--max-concurrency', '4', '--multi-turn-turns', '3', '--multi-turn-system-prompt-len', '300'];
  const short = ['--multi-turn-input-len', '32', '--multi-turn-output-len', '8', '--multi-turn-think-time', '0.1'];
  let url = '';
  let model = '';

  it('chat: TTFT by turn, conversations per second, and a measured hit rate near the possible reuse', async () => {
    model = testGguf();
    const started = await startLlamaServer({ maxRunningSeqs: 4, ctxSize: 8192, threads: 2 }, path.join(root, 'run'), model);
    server = started.h;
    url = started.url;
    expect(started.ready).toMatchObject({ ready: true });
    const r = await bench([
      '--base-url',
      url,
      '--model',
      model,
      '--dataset-name',
      'multi_turn',
      ...small,
      ...short,
      '--save-result',
      '--result-filename',
      'mt.json',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Multi-turn: 4 conversations \(generated\) of 3 turns, 4 concurrent users, think time 0\.1 s \(mean\)$/m);
    expect(r.stdout).toMatch(/Successful requests:\s+12\b/);
    expect(r.stdout).toMatch(/Conversations completed:\s+4 \/ 4/);
    expect(Number(/Conversation throughput \(conv\/s\):\s+([\d.]+)/.exec(r.stdout)?.[1])).toBeGreaterThan(0);
    const rows = turnTable(r.stdout);
    expect(rows.map((row) => row.slice(0, 2))).toEqual([
      [1, 4],
      [2, 4],
      [3, 4],
    ]);
    // Turn 1 has nothing to reuse; later turns resend the whole conversation, and llama-server keeps it.
    expect(rows[0]![5]).toBe(0);
    for (const row of rows.slice(1)) {
      expect(row[5]).toBeGreaterThan(70);
      expect(row[6]).toBeGreaterThan(70);
    }
    const possible = pct(r.stdout, 'Possible prefix reuse');
    const measured = pct(r.stdout, 'Measured cache hit rate');
    expect(possible).toBeGreaterThan(40);
    expect(Math.abs(measured - possible)).toBeLessThan(5);

    const saved = JSON.parse(fs.readFileSync(path.join(root, 'mt.json'), 'utf8')) as Record<string, unknown>;
    expect(saved).toMatchObject({ completed: 12, max_concurrency: 4, conversations: 4, completed_conversations: 4, turn_index: [1, 2, 3] });
    expect(saved.turn_mean_ttft_ms).toHaveLength(3);
    expect(saved.cache_hit_rate as number).toBeCloseTo(measured / 100, 3);
    expect((saved.turn_cache_hit_rate as number[])[2]).toBeGreaterThan(0.7);
  }, 300_000);

  it('completions: the transcript grows by each reply, so the cache keeps it too', async () => {
    expect(url).not.toBe('');
    const r = await bench([
      '--base-url',
      url,
      '--backend',
      'openai',
      '--model',
      model,
      '--dataset-name',
      'multi_turn',
      ...small,
      ...short,
      '--multi-turn-conversations',
      '6',
    ]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Conversations completed:\s+6 \/ 6/);
    const rows = turnTable(r.stdout);
    expect(rows.map((row) => row[1])).toEqual([6, 6, 6]);
    // Conversations 5 and 6 start after others sent the shared system prompt: their first turn can hit too.
    expect(rows[0]![5]).toBeGreaterThan(10);
    expect(Math.abs(pct(r.stdout, 'Measured cache hit rate') - pct(r.stdout, 'Possible prefix reuse'))).toBeLessThan(5);
  }, 300_000);
});
