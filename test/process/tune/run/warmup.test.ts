// Warm-up scaled to load, against a real sim-serve process: a tuning session's runs are preceded by
// a full batch at their concurrency (a later run at a higher concurrency on the same server warms
// again), and each result records its count; an explicit --warmup N sends exactly N, first run only.
// The warm-ups are fresh prompts of the run's lengths, so the server's cache holds none of the run's.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent } from '../../../../src/core/events.js';
import { simulatedHost } from '../../../../src/host/gpus.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { makeVariant } from '../../../../src/tune/plan/variant-ids.js';
import { runVariantScenarios } from '../../../../src/tune/run/runner.js';
import { parseScenario } from '../../../../src/tune/config/scenarios.js';
import { survivors } from '../../../helpers/e2e/cli.js';
import { testPort } from '../../../helpers/ports.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-warmup-'));
const ports: number[] = [];
afterAll(() => {
  for (const pid of survivors(ports)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const portStart = testPort();
const at = (c: number, n: number) => ({ ...parseScenario('random:200/20', { scale: 1, numPrompts: n }), name: `c${c}`, maxConcurrency: c });

async function measure(argv: string[]) {
  const { config } = parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--port', String(portStart), ...argv]);
  const events: TuneEvent[] = [];
  const variant = makeVariant('vllm', 'Qwen/Qwen3-14B', {}, config!);
  const rs = await runVariantScenarios(variant, [at(8, 8), at(2, 24), at(16, 24)], {
    config: config!,
    host: simulatedHost('H100', 1),
    logsDir: join(dir, 'logs'),
    emit: (e) => events.push(e),
    stage: 'validation',
  });
  ports.push(...events.flatMap((e) => (e.type === 'variant-launching' ? [e.port] : [])));
  return { rs, warmupEvents: events.filter((e) => e.type === 'warmup-started').length };
}

describe('warm-up scaled to load', () => {
  it('warms with a full batch at each new concurrency, and records the count', async () => {
    const { rs, warmupEvents } = await measure([]);
    expect(rs.map((r) => r.status)).toEqual(['ok', 'ok', 'ok']);
    expect(rs.map((r) => r.warmups)).toEqual([8, undefined, 16]);
    expect(warmupEvents).toBe(2);
    // The warm-ups are prompts the run does not send: the fresh server's prefix cache holds nothing
    // of the first run's before its clock starts (copies of its first request left 'cache warm
    // before the run'). The later runs send the same seed's prompts again, so theirs is warm.
    expect(rs[0]!.cache?.warmBeforeRun ?? false).toBe(false);
    expect(survivors(ports)).toEqual([]);
  });

  it('--warmup N is exactly N, before the first run only', async () => {
    const { rs } = await measure(['--warmup', '2']);
    expect(rs.map((r) => r.warmups)).toEqual([2, undefined, undefined]);
  });
});
