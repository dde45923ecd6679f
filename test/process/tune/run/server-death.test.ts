// An engine server that dies while it is measured: the variant's failure is the death (`crash`,
// with the signal and the log tail) in the phase it happened, not the benchmark's broken stream;
// scenarios after the death fail the same way, and the run goes on.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent } from '../../../../src/core/events.js';
import { simulatedHost } from '../../../../src/host/gpus.js';
import { readLedger } from '../../../../src/host/ledger.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { makeVariant } from '../../../../src/tune/plan/variant-ids.js';
import { runVariantScenarios } from '../../../../src/tune/run/runner.js';
import { parseScenario } from '../../../../src/tune/config/scenarios.js';
import { benchPhase, serverDied } from '../../../../src/tune/run/server-death.js';
import { survivors } from '../../../helpers/e2e/cli.js';
import { testPort } from '../../../helpers/ports.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-death-'));
const ports: number[] = [];
afterAll(() => {
  for (const pid of survivors(ports)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const portStart = testPort();
const { config } = parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--port', String(portStart)]);

/** SIGKILL the launched server (found through the ledger by its port) at the first `at` event. */
async function killAt(at: TuneEvent['type'], tag: string) {
  const events: TuneEvent[] = [];
  let killed = false;
  const variant = makeVariant('vllm', 'Qwen/Qwen3-14B', {}, config!);
  const scenarios = [
    parseScenario('random:400/400', { scale: 1, numPrompts: 200 }),
    parseScenario('random:100/10', { scale: 1, numPrompts: 8 }),
  ];
  const results = await runVariantScenarios(variant, scenarios, {
    config: config!,
    host: simulatedHost('H100', 1),
    logsDir: join(dir, tag),
    emit: (e) => {
      events.push(e);
      if (e.type === 'variant-launching') ports.push(e.port);
      if (!killed && e.type === at) {
        killed = true;
        const port = ports.at(-1);
        const pid = readLedger().find((x) => x.port === port)?.server?.pid;
        if (pid) process.kill(pid, 'SIGKILL');
      }
    },
    stage: 'engine',
  });
  expect(killed).toBe(true);
  return results;
}

describe('engine death is a classified failure', () => {
  it('during warm-up', async () => {
    const [a, b] = await killAt('warmup-started', 'warmup');
    expect(a!.failure).toMatchObject({ kind: 'crash' });
    expect(a!.failure!.reason).toMatch(/^the server was killed by SIGKILL during (warm-up|benchmark)/);
    expect(a!.failure!.reason).not.toMatch(/stream error/);
    expect(a!.failure!.evidence!.length).toBeGreaterThan(0);
    expect(b!.failure!.reason).toMatch(/killed by SIGKILL/);
    expect(survivors(ports)).toEqual([]);
  });

  it('during the benchmark, and the next validation scenario', async () => {
    const [a, b] = await killAt('bench-progress', 'bench');
    expect(a!.failure).toMatchObject({ kind: 'crash' });
    expect(a!.failure!.reason).toMatch(/^the server was killed by SIGKILL during benchmark/);
    expect(b!.failure).toMatchObject({ kind: 'crash' });
    expect(b!.failure!.reason).toMatch(/killed by SIGKILL (between validation scenarios|during benchmark)/);
    expect(survivors(ports)).toEqual([]);
  });

  it('a live server is no death; phases come from the error text', async () => {
    const alive = { exit: undefined, exited: new Promise<never>(() => {}), tail: () => [] };
    expect(await serverDied(alive, 'benchmark', () => ({ kind: 'crash', reason: 'x' }), 10)).toBeNull();
    const dead = {
      exit: { code: 137, signal: null },
      exited: Promise.resolve({ code: 137, signal: null }),
      tail: () => ['CUDA error: an illegal memory access'],
    };
    const f = await serverDied(dead, 'warm-up', () => ({ kind: 'crash', reason: 'the server exited with code 137: CUDA error' }));
    expect(f).toMatchObject({
      kind: 'crash',
      reason: 'the server exited with code 137 during warm-up: CUDA error',
      evidence: ['CUDA error: an illegal memory access'],
    });
    expect(benchPhase('all 1 warm-up requests failed: response stream error: aborted', true)).toBe('warm-up');
    expect(benchPhase('response stream error: aborted', true)).toBe('benchmark');
  });
});
