// runSession in-process, as the TUI drives it: events in order, skip the running variant, stop
// after a stage, and still end with a saved profile. Real sim-serve processes on loopback.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent } from '../../../../src/core/events.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { runSession } from '../../../../src/tune/session/session.js';
import { survivors } from '../../../helpers/e2e/cli.js';
import { SessionControl } from '../../../../src/tune/context/session-context.js';
import { testPort } from '../../../helpers/ports.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-session-'));
const ports: number[] = [];
afterAll(() => {
  for (const pid of survivors(ports)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('runSession', () => {
  it('skips the running variant, stops after the stage, validates and saves', async () => {
    const port = String(testPort());
    const { config } = parseAutoArgs([
      '--sim',
      '--model',
      'Qwen/Qwen3-14B',
      '--engines',
      'vllm,sglang,trtllm',
      '--stages',
      'engine,attention',
      '--scale',
      '0.02',
      '--validation',
      'sharegpt-like',
      '--out',
      dir,
      '--run-dir',
      join(dir, 'run'),
      '--port',
      port,
      // About skips: no early stop (it would stop a slower engine against whichever ran first).
      '--no-early-stop',
    ]);
    const control = new SessionControl();
    const events: TuneEvent[] = [];
    const outcome = await runSession(config!, {
      control,
      onEvent: (e) => {
        events.push(e);
        if (e.type === 'variant-launching') ports.push(e.port);
        // Skip sglang as soon as it is benchmarking, and ask to stop after this stage.
        if (e.type === 'bench-started' && e.variantId === 'sglang') {
          control.skipVariant();
          control.stopAfterStage();
        }
      },
    });

    expect(outcome.exitCode).toBe(0);
    expect(events[0]!.type).toBe('session-started');
    expect(events[1]!.type).toBe('plan-ready');
    expect(events.at(-1)).toMatchObject({ type: 'session-finished', exitCode: 0, profilePath: outcome.profilePath });

    const engine = outcome.stages[0]!;
    expect(engine.results.map((r) => [r.variantId, r.status])).toEqual([
      ['vllm', 'ok'],
      ['sglang', 'skipped'],
      ['trtllm', 'ok'],
    ]);
    expect(engine.results[1]!.failure).toMatchObject({ kind: 'skipped', reason: 'skipped by the user' });
    // A skip is a decision: it is journaled like any result.
    const journaled = readdirSync(join(dir, 'run', 'results')).map(
      (f) => JSON.parse(readFileSync(join(dir, 'run', 'results', f), 'utf8')).result.variantId,
    );
    // (journaled in run order: predicted fastest first; then the tied pair's confirmation runs,
    // never of the skipped variant)
    expect(journaled.slice(0, 3)).toEqual(['sglang', 'trtllm', 'vllm']);
    for (const id of journaled.slice(3)) expect(['trtllm', 'vllm']).toContain(id);
    expect(outcome.stages[1]).toMatchObject({ name: 'attention', skipped: 'stopped by the user after the engine stage', results: [] });
    // Live panels get their data: progress snapshots, server metrics and simulated GPU samples.
    expect(events.some((e) => e.type === 'server-ready')).toBe(true);
    expect(events.some((e) => e.type === 'gpu-sample' && e.gpus.length === 1 && e.gpus[0]!.memTotalMiB > 0)).toBe(true);

    // The run as the screens saw it is kept for replay (server log lines live in server.log).
    const replay = readFileSync(join(dir, 'run', 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as TuneEvent);
    expect(replay.map((e) => e.type)).toEqual(events.filter((e) => e.type !== 'server-log').map((e) => e.type));
    expect(outcome.winner!.variantId).toMatch(/^(vllm|trtllm)$/);
    expect(outcome.validation).toHaveLength(1);
    expect(existsSync(outcome.profilePath!)).toBe(true);
    expect(existsSync(outcome.reportPath!)).toBe(true);
    expect(survivors(ports)).toEqual([]);
  });
});
