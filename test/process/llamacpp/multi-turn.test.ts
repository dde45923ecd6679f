// Acceptance, for real: a tuning session on multi-turn conversations against the real
// llama-server (CPU, random-weight GGUF) offers the cache stage, and each run says what the
// server's own prompt cache served of each conversation's history, with TTFT by turn and
// conversations per second. No speed is asserted: the weights are random and the host is shared.
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, runCli, tempDir, type CliRun } from '../../helpers/e2e/cli.js';
import { freshPort, leftServers, LLAMA_SKIP, testGguf } from '../../helpers/llamacpp/helpers.js';
import { skipNote } from '../../helpers/skip.js';

const cwd = tempDir('llama-multi-turn');
let run: CliRun | undefined;
afterAll(() => {
  for (const pid of run ? leftServers(run.events, run.stderr) : []) process.kill(pid, 'SIGKILL');
  removeDir(cwd);
});

const title = `servelab --auto --scenario multi-turn on llama-server${skipNote(LLAMA_SKIP)}`;
describe.skipIf(LLAMA_SKIP !== undefined)(title, { timeout: 240_000 }, () => {
  it('measures the prompt cache on conversations: served with it, nothing without it', async () => {
    run = await runCli(
      [
        '--auto',
        '--engines',
        'llamacpp',
        '--model',
        testGguf(),
        '--scenario',
        'multi-turn:2/3/64/16/8',
        '--stages',
        'engine,cache',
        '--drop',
        'llamacpp-cache-*',
        '--validation',
        'none',
        '--warmup',
        '1',
        '--ready-timeout',
        '90',
        '--no-early-stop',
        '--run-dir',
        join(cwd, 'run'),
        '--out',
        cwd,
        '--port',
        freshPort(),
        '--json',
      ],
      cwd,
      undefined,
      240_000,
    );
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    expect(leftServers(run.events, run.stderr)).toEqual([]);
    const lineOf = (id: string) =>
      new RegExp(
        `\\n  ${id}: .*; prefix cache hit (\\d+)% of (\\d+)% possible; TTFT by turn \\d+, \\d+, \\d+ ms; [\\d.]+ conversations/s`,
      ).exec(run!.stderr);
    const withCache = lineOf('llamacpp');
    const without = lineOf('llamacpp-no-prefix-cache');
    // On a miss, the two variants' own lines say why (the tail of a long session may not hold them).
    const theirLines = run.stderr
      .split('\n')
      .filter((l) => /^ {2}llamacpp(-no-prefix-cache)?: /.test(l))
      .join('\n');
    expect(withCache, theirLines).not.toBeNull();
    expect(without, theirLines).not.toBeNull();
    // The server's own count of cached prompt tokens: most of each resent history with its cache, none without.
    expect(Number(withCache![1])).toBeGreaterThan(30);
    expect(Number(without![1])).toBe(0);
    expect(Number(withCache![2])).toBeGreaterThan(30);
    // Every run starts on a freshly launched server: none may read as served from a cache warmed before it
    // (the template's markers past a shared system prompt once did).
    expect(run.stderr).not.toMatch(/cache warm before the run/);
  });
});
