// The real simulated engine process (servelab sim-serve) through the same launch path as a real
// engine: ready on /health, metrics and /sim/gpus while it runs, classified failures, clean stop.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { GpuSample } from '../../../src/core/metrics.js';
import type { Knobs, EngineName } from '../../../src/core/variant.js';
import { simulatedHost } from '../../../src/host/gpus.js';
import { isListening } from '../../../src/host/ports.js';
import { launchServer } from '../../../src/host/process.js';
import type { ServerHandle } from '../../../src/host/server-handle.js';
import { allGone, waitFor } from '../../helpers/host/helpers.js';
import { freeTestPort } from '../../helpers/ports.js';
import { sim } from '../../../src/engines/sim/adapter.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'servelab-simlife-'));
const handles: ServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop({ graceMs: 1000 })));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function launchSim(engine: EngineName, model: string, knobs: Knobs, gpu: string, gpus: number) {
  const port = await freeTestPort();
  const runDir = mkdtempSync(path.join(root, 'v'));
  const spec = sim.command(
    { id: 'v', engine, model, knobs },
    { host: '127.0.0.1', port, runDir, runtime: { kind: 'native' }, sim: { gpu, gpus, speed: 100 } },
  );
  const host = simulatedHost(gpu, gpus);
  const g = host.gpus[0]!;
  const h = await launchServer(spec, {
    runDir,
    graceMs: 3000,
    classify: (lines, exit) => sim.classifyFailure(lines, exit, { gpu: { name: g.name, computeCap: g.computeCap } }),
  });
  handles.push(h);
  return { h, port, host };
}

describe('sim engine lifecycle', () => {
  it('launch, ready, metrics and GPU samples, stop: nothing left', async () => {
    const { h, port } = await launchSim('vllm', 'Qwen/Qwen3-14B', {}, 'H100', 1);
    const r = await h.waitReady(45_000);
    expect(r.ready).toBe(true);
    expect(h.tail().some((l) => h.spec.readyLogLine.test(l))).toBe(true);
    const text = await (await fetch(`http://127.0.0.1:${port}${sim.metricsPath}`)).text();
    expect(sim.parseMetrics(text)).toEqual({ running: 0, waiting: 0, kvUsage: 0, preemptions: 0 });
    // Weights and KV pool are resident once ready (/sim/gpus, what the sampler reads on a simulated host).
    const memUsed = async () => ((await (await fetch(`http://127.0.0.1:${port}/sim/gpus`)).json()) as GpuSample[])[0]?.memUsedMiB ?? 0;
    expect(await waitFor(async () => (await memUsed()) > 10_000)).toBe(true);
    await h.stop();
    expect(await isListening(port)).toBe(false);
    expect(allGone([h.pid])).toBe(true);
  });

  it("Study B: SGLang FP8 on 8 x A100 fails at start and is classified 'unsupported on this GPU'", async () => {
    const { h } = await launchSim('sglang', 'zai-org/GLM-4.6-FP8', { tp: 8 }, 'A100', 8);
    const r = await h.waitReady(45_000);
    expect(r.ready).toBe(false);
    if (r.ready) return;
    expect(r.failure).toMatchObject({ kind: 'unsupported', reason: 'FP8 is not supported on this GPU (A100, compute capability 8.0)' });
    expect(r.exit.signal).toBe('SIGKILL'); // SGLang's kill_process_tree, imitated
    expect(allGone([h.pid])).toBe(true);
  });

  it('TP that does not divide the heads is a tp-mismatch (vLLM text)', async () => {
    const { h } = await launchSim('vllm', 'Qwen/Qwen3-14B', { tp: 3 }, 'H100', 4);
    const r = await h.waitReady(45_000);
    expect(r.ready).toBe(false);
    if (!r.ready)
      expect(r.failure).toMatchObject({ kind: 'tp-mismatch', reason: '40 attention heads are not divisible by tensor parallel size 3' });
  });
});
