// runVariant against real sim-serve processes: one launch, measured on a scenario, stopped; and
// the identity check that refuses to benchmark a server that is not the one launched.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TuneEvent } from '../../../../src/core/events.js';
import { buildLaunchSpec } from '../../../../src/engines/index.js';
import { engineLaunchHooks } from '../../../../src/engines/launch-hooks.js';
import { simulatedHost } from '../../../../src/host/gpus.js';
import { findFreePort } from '../../../../src/host/ports.js';
import { launchServer } from '../../../../src/host/process.js';
import type { ServerHandle } from '../../../../src/host/server-handle.js';
import { parseAutoArgs } from '../../../../src/cli/auto-args.js';
import { makeVariant } from '../../../../src/tune/plan/variant-ids.js';
import { runVariant } from '../../../../src/tune/run/runner.js';
import { whoElseAnswers } from '../../../../src/tune/run/server-start.js';
import { parseScenario } from '../../../../src/tune/config/scenarios.js';
import { survivors } from '../../../helpers/e2e/cli.js';
import { testPort } from '../../../helpers/ports.js';

const dir = mkdtempSync(join(tmpdir(), 'servelab-runner-'));
const ports: number[] = [];
const handles: ServerHandle[] = [];
afterAll(async () => {
  await Promise.all(handles.map((h) => h.stop({ graceMs: 1000 })));
  for (const pid of survivors(ports)) process.kill(pid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

const portStart = testPort();
const { config } = parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--port', String(portStart)]);

describe('runVariant', () => {
  it('launches the variant, benchmarks the scenario in simulated time, and stops it', async () => {
    const events: TuneEvent[] = [];
    const variant = makeVariant('sglang', 'Qwen/Qwen3-14B-FP8', {}, config!, 'Qwen/Qwen3-14B-FP8');
    const r = await runVariant(variant, parseScenario('random:200/20', { scale: 1, numPrompts: 12 }), {
      config: config!,
      host: simulatedHost('H100', 1),
      logsDir: join(dir, 'logs'),
      benchDir: join(dir, 'bench'),
      emit: (e) => events.push(e),
      stage: 'replay',
    });
    ports.push(...events.flatMap((e) => (e.type === 'variant-launching' ? [e.port] : [])));
    expect(r.status).toBe('ok');
    expect(r.simulated).toBe(true);
    expect(r.metrics!.completed).toBe(12);
    expect(r.metrics!.total_output_tokens).toBe(12 * 20);
    expect(r.engineArgv!.slice(0, 5)).toEqual(['python3', '-m', 'sglang.launch_server', '--model-path', 'Qwen/Qwen3-14B-FP8']);
    // Start-up on the simulated host is the simulator's load model: positive, in simulated seconds.
    expect(r.startupS).toBeGreaterThan(10);
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['variant-launching', 'server-ready', 'bench-started', 'server-stopping']),
    );
    expect(readdirSync(join(dir, 'bench'))).toEqual([`${variant.id}-random-200-20-n12.json`]);
    expect(survivors(ports)).toEqual([]);
  });
});

describe('ignore_eos under --dummy-weights', () => {
  // sim-serve ends about 10% of the requests without ignore_eos before max_tokens (src/sim/server/openai.ts),
  // seeded per request: deterministic for this scenario.
  const scenario = parseScenario('random:200/20', { scale: 1, numPrompts: 40 });
  const dummyConfig = parseAutoArgs(['--sim', '--model', 'Qwen/Qwen3-14B', '--port', String(portStart + 200), '--dummy-weights']).config!;
  const measure = async (tuningDummyWeights: boolean) => {
    const events: TuneEvent[] = [];
    const variant = makeVariant('vllm', 'Qwen/Qwen3-14B', {}, dummyConfig);
    const r = await runVariant(variant, scenario, {
      config: dummyConfig,
      host: simulatedHost('H100', 1),
      logsDir: join(dir, 'logs-eos'),
      emit: (e) => events.push(e),
      stage: 'engine',
      tuningDummyWeights,
    });
    ports.push(...events.flatMap((e) => (e.type === 'variant-launching' ? [e.port] : [])));
    expect(r.status).toBe('ok');
    return r.metrics!.total_output_tokens;
  };

  it('is sent only when the session uses dummy weights, not for the flag alone', async () => {
    // A session whose plan uses them (a dense model): every output runs to its asked length.
    expect(await measure(true)).toBe(40 * 20);
    // The flag is on but no launch of the session loads dummy weights (an MoE model): outputs end where the model ends them.
    expect(await measure(false)).toBeLessThan(40 * 20);
    expect(survivors(ports)).toEqual([]);
  });
});

describe('whoElseAnswers', () => {
  it('tells a server serving another model or engine from the one launched', async () => {
    const port = await findFreePort({ from: portStart + 500 });
    ports.push(port);
    const served = makeVariant('vllm', 'Qwen/Qwen3-14B', {}, config!);
    const ctx = {
      host: '127.0.0.1',
      port,
      runDir: join(dir, 'other'),
      runtime: { kind: 'native' as const },
      sim: { gpu: 'H100', gpus: 1, speed: 5 },
    };
    const spec = buildLaunchSpec(served, ctx);
    const h = await launchServer({ ...spec, argv: [...spec.argv, '--load-time', '0'] }, { runDir: ctx.runDir, ...engineLaunchHooks() });
    handles.push(h);
    expect((await h.waitReady(30_000)).ready).toBe(true);
    expect(await whoElseAnswers(spec, served, true)).toBeNull();
    expect(await whoElseAnswers(spec, makeVariant('sglang', 'Qwen/Qwen3-14B', {}, config!), true)).toBe('it serves Qwen/Qwen3-14B as vllm');
    expect(await whoElseAnswers(spec, makeVariant('vllm', 'zai-org/GLM-4.6-FP8', {}, config!), true)).toBe(
      'it serves Qwen/Qwen3-14B as vllm',
    );
    // A real engine is asked through /v1/models: the sim answers with its served model name.
    expect(await whoElseAnswers(spec, makeVariant('vllm', 'zai-org/GLM-4.6-FP8', {}, config!), false)).toBe('it serves Qwen/Qwen3-14B');
    expect(await whoElseAnswers(spec, served, false)).toBeNull();
  });
});
