// Acceptance: a run folder that `servelab --auto --sim` wrote (plan.json, session.json,
// results/*.json as the journal keeps them) is a calibration source as it stands: `servelab
// calibrate RUN_DIR` reads its measured variants and `predict --calibration` accepts the file on
// the same simulated GPU. Trimmed with --engines/--stages/--scale.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, removeDir, runCli, survivors, tempDir, type CliRun } from './cli.js';

const cwd = tempDir('e2e-calibrate');
const port = String(20000 + Math.floor(Math.random() * 20000));
let run: CliRun;

afterAll(() => {
  for (const pid of survivors([...(run?.stderr ?? '').matchAll(/launching on port (\d+)/g)].map((m) => Number(m[1])))) process.kill(pid, 'SIGKILL');
  removeDir(cwd);
});

describe('servelab calibrate on an --auto --sim run folder', () => {
  it('reads the journalled measurements and writes a calibration predict accepts', async () => {
    run = await runCli(['--auto', '--sim', '--model', 'Qwen/Qwen3-14B', '--engines', 'sglang,trtllm', '--stages', 'engine', '--scale', '0.02', '--validation', 'none', '--port', port], cwd);
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const runDir = /Run folder: (\S+)/.exec(run.stdout)![1]!;
    const out = join(cwd, 'cal.json');
    const cal = spawnSync(process.execPath, [BIN, 'calibrate', runDir, '--out', out], { cwd, encoding: 'utf8' });
    expect(cal.status, cal.stderr).toBe(0);
    const file = JSON.parse(readFileSync(out, 'utf8'));
    expect(file.host).toMatchObject({ gpuName: 'H100 SXM 80GB', gpuCount: 1, simulated: true });
    expect(file.fit.observations).toBeGreaterThan(0);
    expect(file.sources).toEqual([runDir]);
    // Every observation is a measured variant of this run, with the plan's prediction beside it.
    for (const o of file.observations) expect(o).toMatchObject({ run: { gpu: 'H100', gpus: 1, workload: { name: 'sharegpt-like' } }, prior: { totalTokPerS: expect.any(Number) } });
    const p = spawnSync(process.execPath, [BIN, 'predict', '--model', 'Qwen/Qwen3-14B', '--gpu', 'H100', '--engine', 'sglang', '--num-prompts', '20', '--calibration', out, '--json'], { cwd, encoding: 'utf8' });
    expect(p.status, p.stderr).toBe(0);
    expect(JSON.parse(p.stdout).calibration.observations).toBe(file.fit.observations);
  });
});
