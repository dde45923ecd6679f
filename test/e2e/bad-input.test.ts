// Bad input to `servelab --auto` is one line on stderr and exit 2, before anything launches.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, runCli, tempDir } from './cli.js';

const cwd = tempDir('e2e-bad');
afterAll(() => removeDir(cwd));

const base = ['--auto', '--sim', '--model', 'Qwen/Qwen3-14B'];
const broken = join(cwd, 'broken-run');
mkdirSync(broken, { recursive: true });
writeFileSync(join(broken, 'session.json'), '{"journal": 1, "status": "runn');

const CASES: { name: string; args: string[]; message: RegExp }[] = [
  { name: 'an unknown flag', args: [...base, '--turbo'], message: /Unknown option '--turbo'/ },
  { name: 'an unknown stage', args: [...base, '--stages', 'engine,magic'], message: /unknown stage 'magic': use engine, quantization/ },
  { name: 'a bad --slo', args: [...base, '--slo', 'ttft:p99>2000'], message: /bad --slo part 'ttft:p99>2000'/ },
  { name: 'a missing dataset', args: [...base, '--dataset-path', 'nowhere/ShareGPT.json'], message: /dataset nowhere\/ShareGPT.json: no such file/ },
  { name: 'a malformed run journal', args: ['--auto', '--resume', broken], message: /session.json is not valid JSON/ },
  { name: 'a run folder that is not one', args: ['--auto', '--resume', cwd], message: /not a servelab run folder/ },
  { name: 'a missing model', args: ['--auto', '--sim'], message: /--model is required/ },
];

describe('servelab --auto bad input', () => {
  it.each(CASES)('$name: one line, exit 2', async ({ args, message }) => {
    const r = await runCli(args, cwd);
    expect(r.code).toBe(2);
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^servelab: /);
    expect(lines[0]).toMatch(message);
    expect(r.stdout).toBe('');
    expect(existsSync(join(cwd, 'servelab-runs'))).toBe(false);
  });

  it('--dry-run prints the plan with exact commands and pruned variants, and launches nothing', async () => {
    const r = await runCli(['--auto', '--sim', '--gpu', 'A100', '--gpus', '8', '--model', 'zai-org/GLM-4.6', '--dry-run'], cwd);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('$ vllm serve zai-org/GLM-4.6-FP8 --host 127.0.0.1 --port 8100 --tensor-parallel-size 8');
    expect(r.stdout).toMatch(/\[pruned\] sglang-fp8ckpt-tp8 .*FP8 is not supported on this GPU/);
    expect(r.stdout).toContain('local optimum');
    expect(r.stdout).toMatch(/Nothing was launched \(--dry-run\)/);
    expect(existsSync(join(cwd, 'servelab-runs'))).toBe(false);
  });
});
