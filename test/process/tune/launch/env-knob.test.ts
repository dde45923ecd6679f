// The env knob end to end: two variants that differ by their environment alone get the same argv,
// different ids and commands; the simulated engine process really receives the variable (sim-serve
// logs what its own environment holds); a profile saved with it keeps it through the schema, its
// replay launches with it, and every export format writes it.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Variant } from '../../../../src/core/variant.js';
import { launchServer } from '../../../../src/host/process.js';
import type { ServerHandle } from '../../../../src/host/server-handle.js';
import type { LaunchSpec } from '../../../../src/host/launch-spec.js';
import { sim } from '../../../../src/engines/sim/adapter.js';
import { EXPORT_FORMATS, renderExport } from '../../../../src/profiles/export/render.js';
import { loadProfile, parseProfile, redactProfile, serializeProfile } from '../../../../src/profiles/store/store.js';
import { launchContext, prepareLaunch } from '../../../../src/tune/launch/launch.js';
import { prepareReplay } from '../../../../src/tune/replay/replay.js';
import { makeVariant } from '../../../../src/tune/plan/variant-ids.js';
import { freeTestPort, testPort } from '../../../helpers/ports.js';

const root = mkdtempSync(path.join(os.tmpdir(), 'servelab-envknob-'));
const handles: ServerHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.stop({ graceMs: 1000 })));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const MODEL = 'Qwen/Qwen3-14B';
const AITER = { VLLM_ROCM_USE_AITER: '1' };
const base = makeVariant('vllm', MODEL, {}, { model: MODEL });
const aiter = makeVariant('vllm', MODEL, { env: AITER }, { model: MODEL });

const simConfig = { bindHost: '127.0.0.1', runtime: { kind: 'native' as const }, sim: { gpu: 'H100', gpus: 1, speed: 50, seed: 0 } };

async function runSim(spec: LaunchSpec, runDir: string): Promise<string[]> {
  const h = await launchServer(spec, { runDir, graceMs: 3000, classify: (lines, exit) => sim.classifyFailure(lines, exit) });
  handles.push(h);
  const r = await h.waitReady(60_000);
  expect(r.ready).toBe(true);
  return h.tail();
}

describe('a variant that differs by its environment alone', () => {
  it('has its own id and command, with the same engine argv', async () => {
    expect(aiter.id).not.toBe(base.id);
    expect(aiter.label).toContain('VLLM_ROCM_USE_AITER=1');
    const at = (v: Variant) => prepareLaunch(v, launchContext({ ...simConfig, sim: undefined }, { port: 8000, runDir: root }));
    const [a, b] = [at(aiter), at(base)];
    expect(a.spec.engineArgv).toEqual(b.spec.engineArgv);
    expect(a.engineEnv).toEqual(AITER);
    expect(b.engineEnv).toEqual({});
    expect(a.display).toMatch(/^VLLM_ROCM_USE_AITER=1 vllm serve Qwen\/Qwen3-14B/);
  });

  it('reaches the simulated engine process, and only that variant', async () => {
    const port = await freeTestPort();
    const runDir = mkdtempSync(path.join(root, 'launch-'));
    const { spec, engineEnv } = prepareLaunch(aiter, launchContext(simConfig, { port, runDir }));
    expect(spec.env).toMatchObject(AITER);
    expect(engineEnv).toEqual(AITER);
    const lines = await runSim(spec, runDir);
    expect(lines).toContain('servelab sim-serve: engine environment VLLM_ROCM_USE_AITER=1');

    const port2 = await freeTestPort();
    const runDir2 = mkdtempSync(path.join(root, 'launch-'));
    const plain = await runSim(prepareLaunch(base, launchContext(simConfig, { port: port2, runDir: runDir2 })).spec, runDir2);
    expect(plain.some((l) => l.includes('engine environment'))).toBe(false);
  });

  it('is kept by a saved profile, replayed with it and written by every export format', async () => {
    const shipped = loadProfile(path.join('profiles', 'Qwen3-14B-H100x1.json'));
    const { engineEnv } = prepareLaunch(
      { ...shipped.variant, knobs: { ...shipped.variant.knobs, env: AITER } },
      launchContext({ ...simConfig, sim: undefined }, { port: 8000, runDir: root }),
    );
    const withEnv = { ...shipped, variant: { ...shipped.variant, knobs: { ...shipped.variant.knobs, env: AITER } }, env: engineEnv };
    const file = path.join(root, 'p.json');
    const saved = parseProfile(serializeProfile(redactProfile(withEnv)), file);
    expect(saved.variant.knobs.env).toEqual(AITER);
    expect(saved.env).toMatchObject(AITER);

    for (const format of EXPORT_FORMATS) expect(renderExport(saved, format, file), format).toContain('VLLM_ROCM_USE_AITER');

    const setup = await prepareReplay(saved, file, {
      sim: true,
      speed: 50,
      tolerancePct: 10,
      readyTimeoutS: 60,
      logsDir: path.join(root, 'replay'),
      bindHost: '127.0.0.1',
      portStart: testPort(),
      allowAnyCommand: false,
    });
    expect(setup.spec.env).toMatchObject(AITER);
    const lines = await runSim(setup.spec, mkdtempSync(path.join(root, 'replay-')));
    expect(lines).toContain('servelab sim-serve: engine environment VLLM_ROCM_USE_AITER=1');
  });

  it('a profile whose env knob names no variable is refused', () => {
    const shipped = loadProfile(path.join('profiles', 'Qwen3-14B-H100x1.json'));
    const bad = { ...shipped, variant: { ...shipped.variant, knobs: { ...shipped.variant.knobs, env: { 'A B': '1' } } } };
    expect(() => parseProfile(serializeProfile(bad), 'bad.json')).toThrow(/variant\.knobs\.env: "A B" is not an environment variable name/);
  });
});
