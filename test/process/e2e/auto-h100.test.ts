// Acceptance: a headless run on the simulated 1 x H100 with Qwen3-14B ends with a profile and
// a report holding the engine, quantization and attention stages and the before/after table,
// and leaves no server behind. Trimmed with --engines/--drop/--scale to stay quick.
import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { launchedIds, launchedPorts, leftBehind, removeDir, runCli, survivors, tempDir, type CliRun } from '../../helpers/e2e/cli.js';
import { testPort } from '../../helpers/ports.js';

const cwd = tempDir('e2e-h100');
const port = String(testPort());
let run: CliRun;

afterAll(() => {
  for (const pid of survivors(launchedPorts(run?.events ?? []))) process.kill(pid, 'SIGKILL');
  removeDir(cwd);
});

describe('servelab --auto --sim --gpu H100 --gpus 1 --model Qwen/Qwen3-14B', () => {
  it('tunes, validates and saves a profile and report', async () => {
    run = await runCli(
      [
        '--auto',
        '--sim',
        '--gpu',
        'H100',
        '--gpus',
        '1',
        '--model',
        'Qwen/Qwen3-14B',
        '--scale',
        '0.02',
        '--engines',
        'vllm,sglang',
        '--stages',
        'engine,quantization,attention',
        '--drop',
        'quant=fp8 (online)',
        '--drop',
        'kv=fp8',
        '--drop',
        'attn=triton',
        '--validation',
        'sharegpt-like,short',
        '--port',
        port,
        '--json',
        // Every engine measured in full: SGLang (predicted faster) runs first, and early stop would
        // stop vLLM against it (test/unit/tune/cost/cost-stage.test.ts covers early stop).
        '--no-early-stop',
      ],
      cwd,
    );
    expect(run.code, run.stderr.slice(-3000)).toBe(0);

    // Events: one JSON object per line on stdout, ending with session-finished.
    const last = run.events.at(-1)!;
    expect(last.type).toBe('session-finished');
    const { profilePath, reportPath } = last as Extract<typeof last, { type: 'session-finished' }>;
    // Results go to the user's data folder (test/setup.ts points XDG_DATA_HOME at a temp folder), never the cwd.
    expect(profilePath).toBe(join(process.env.XDG_DATA_HOME!, 'servelab', 'profiles', 'Qwen3-14B-H100x1.json'));
    expect(existsSync(reportPath!)).toBe(true);

    const p = loadProfile(profilePath!);
    expect(p.stages.map((s) => s.name)).toEqual(['engine', 'quantization', 'attention']);
    const engine = p.stages[0]!;
    expect(engine.results.map((r) => r.variantId)).toEqual(['vllm', 'sglang']);
    expect(engine.results.every((r) => r.status === 'ok' && r.simulated && r.metrics!.completed === 20)).toBe(true);
    // Every measured variant carries its prediction, shown beside the measurement.
    expect(engine.results.every((r) => (r.predicted?.totalTokPerS ?? 0) > 0)).toBe(true);
    const quant = p.stages[1]!;
    expect(quant.results.find((r) => r.variant.model === 'Qwen/Qwen3-14B-FP8')?.status).toBe('ok');
    expect(quant.results.find((r) => r.variantId.endsWith('kv-fp8'))?.status).toBe('skipped');
    // The profile's variant is the last stage's winner, with the real engine's command.
    expect(p.variant.id).toBe(p.stages[2]!.winnerId);
    expect(p.engineArgv[0]).toMatch(/^(vllm|python3)$/);
    expect(p.argv).toContain('sim-serve');
    expect(p.host).toMatchObject({ gpuName: 'H100 SXM 80GB', gpuCount: 1, simulated: true });
    // Before/after on the two scenarios; the ShareGPT-like row reuses the stage measurement.
    expect(p.validation.map((r) => r.scenario)).toEqual(['sharegpt-like', 'random-128-4']);
    for (const row of p.validation) {
      expect(row.baseline!.totalTokPerS).toBeGreaterThan(0);
      expect(row.optimized!.totalTokPerS).toBeGreaterThan(0);
    }
    const baselineRow = p.validation[0]!;
    expect(baselineRow.baseline!.totalTokPerS).toBeCloseTo(engine.results[0]!.metrics!.total_token_throughput, 6);

    const report = readFileSync(reportPath!, 'utf8');
    expect(report).toContain('## Before and after');
    expect(report).toMatch(/### \d\. engine[\s\S]*### \d\. quantization[\s\S]*### \d\. attention/);
    expect(report).toContain('local optimum');

    // Each variant launched once per run (adaptive repeats rerun a stage's best two when they are
    // within the margin: those launches carry repeat 1, 2, ...; the baseline again only for the
    // validation scenario it lacked).
    const ids = launchedIds(run.events);
    const runDir = (run.events.find((e) => e.type === 'session-started') as { runDir: string }).runDir;
    const files = readdirSync(join(runDir, 'results'));
    const entries = files.map(
      (f) => JSON.parse(readFileSync(join(runDir, 'results', f), 'utf8')) as { key: string; role: string; repeat: number },
    );
    expect(entries.filter((e) => e.role === 'validate' && e.key.startsWith('vllm@'))).toHaveLength(1);
    expect(ids.filter((id) => id === 'vllm')).toHaveLength(
      1 + entries.filter((e) => e.role === 'tune' && e.key.startsWith('vllm@')).length,
    );
    // No measurement twice: every journal key (variant@scenario#repeat) is its own.
    expect(new Set(entries.map((e) => `${e.role}:${e.key}`)).size).toBe(entries.length);
    // The journal holds every measurement as its own complete file: one per launch (each
    // validation launch measured the one scenario its side lacked).
    expect(files.length).toBe(ids.length);
    expect(JSON.parse(readFileSync(join(runDir, 'session.json'), 'utf8')).status).toBe('finished');
    expect(readdirSync(join(runDir, 'bench')).length).toBeGreaterThan(0);
    expect(existsSync(join(runDir, 'logs', 'vllm', 'server.log'))).toBe(true);

    // Nothing left behind: no port answers, no sim-serve process of this run is alive.
    expect(await leftBehind(run.events)).toEqual([]);
    expect(survivors(launchedPorts(run.events))).toEqual([]);
  });
});
