// Acceptance: GLM-4.6 on the simulated 8 x A100 records SGLang FP8 as unsupported on this GPU
// (a result with its reason, not a crash) and goes on to a vLLM winner.
import { afterAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { isListening, removeDir, runCli, killLeftServers, survivors, tempDir, type CliRun } from '../../helpers/e2e/cli.js';
import { testPort } from '../../helpers/ports.js';

const cwd = tempDir('e2e-glm');
const port = String(testPort());
let run: CliRun;

afterAll(() => {
  killLeftServers(run?.stderr ?? '');
  removeDir(cwd);
});

describe('servelab --auto --sim --gpu A100 --gpus 8 --model zai-org/GLM-4.6', () => {
  it('records SGLang FP8 as unsupported and keeps a vLLM winner', async () => {
    run = await runCli(
      [
        '--auto',
        '--sim',
        '--gpu',
        'A100',
        '--gpus',
        '8',
        '--model',
        'zai-org/GLM-4.6',
        '--stages',
        'engine',
        '--scale',
        '0.02',
        '--validation',
        'sharegpt-like',
        '--port',
        port,
      ],
      cwd,
    );
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    // Only vLLM is launched: the others cannot work here and are pruned before any launch.
    expect(run.stderr).toMatch(/vllm-fp8ckpt-tp8: launching/);
    expect(run.stderr).not.toMatch(/sglang[^\n]*: launching/);
    expect(run.stderr).toMatch(/sglang-fp8ckpt-tp8: pruned \(unsupported\): FP8 is not supported on this GPU \(A100/);

    // The summary on stdout names the failure and the winner.
    expect(run.stdout).toMatch(/sglang-fp8ckpt-tp8\s+pruned: unsupported/);
    expect(run.stdout).toMatch(/Winner: vllm-fp8ckpt-tp8/);
    expect(run.stdout).toContain('vllm serve zai-org/GLM-4.6-FP8');

    const path = /Profile: (\S+)/.exec(run.stdout)![1]!;
    const p = loadProfile(path);
    expect(p.engine.name).toBe('vllm');
    expect(p.variant.model).toBe('zai-org/GLM-4.6-FP8');
    expect(p.engineArgv).toEqual(expect.arrayContaining(['vllm', 'serve', 'zai-org/GLM-4.6-FP8', '--tensor-parallel-size', '8']));
    const sglang = p.stages[0]!.results.find((r) => r.variant.engine === 'sglang')!;
    expect(sglang.status).toBe('pruned');
    expect(sglang.failure).toMatchObject({ kind: 'unsupported' });
    expect(sglang.failure!.reason).toMatch(/not supported on this GPU/);
    expect(p.notes.join('\n')).toMatch(/BF16 does not fit 8 x A100/);
    const ports = [...run.stderr.matchAll(/launching on port (\d+)/g)].map((m) => Number(m[1]));
    expect(ports).toHaveLength(1);
    for (const port of ports) expect(await isListening(port)).toBe(false);
    expect(survivors(ports)).toEqual([]);
  });
});
