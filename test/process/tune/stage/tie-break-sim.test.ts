// A tied stage on real sim-serve processes over real HTTP, as a user runs it: with --margin 90
// every candidate ties with the best, so the declared tie-break order chooses, and the stage's
// why line, the headless text and the profile name the property that chose (an FP8 checkpoint
// ties with the BF16 one: the one that keeps the higher precision stays).
import { afterAll, describe, expect, it } from 'vitest';
import { launchedPorts, removeDir, runCli, survivors, tempDir, type CliRun } from '../../../helpers/e2e/cli.js';
import { testPort } from '../../../helpers/ports.js';
import { loadProfile } from '../../../../src/profiles/store/store.js';
import type { TuneEvent } from '../../../../src/core/events.js';

const cwd = tempDir('tie-break-sim');
const port = String(testPort());
let run: CliRun;

afterAll(() => {
  for (const pid of survivors(launchedPorts(run?.events ?? []))) process.kill(pid, 'SIGKILL');
  removeDir(cwd);
});

type StageFinished = Extract<TuneEvent, { type: 'stage-finished' }>;

describe('a tied stage on the simulated host', () => {
  it("names the tie-break property in the why line, the text and the profile, with the host's noise", async () => {
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
        'sglang',
        '--stages',
        'engine,quantization',
        '--drop',
        'quant=fp8 (online)',
        '--drop',
        'kv=fp8',
        '--margin',
        '90',
        '--validation',
        'sharegpt-like',
        '--port',
        port,
        '--json',
        '--no-early-stop',
      ],
      cwd,
    );
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const quant = run.events.find((e): e is StageFinished => e.type === 'stage-finished' && e.stage === 'quantization')!;
    expect(quant).toMatchObject({ winnerId: 'sglang', tied: true, tieBreak: 'keeps the highest precision' });
    expect(quant.tiedIds).toEqual(['sglang', 'sglang-fp8ckpt']);
    expect(quant.why).toMatch(/tied within noise: ±90\.0% with sglang fp8-ckpt .*: sglang defaults keeps the highest precision$/);
    // The noise measured on this host rides on the stream and on the verdict.
    expect(run.events.some((e) => e.type === 'noise-measured')).toBe(true);
    expect(quant.noise?.pct).toBeGreaterThan(0);
    // The headless progress text says the same.
    expect(run.stderr).toMatch(/noise on this host: ±\d+\.\d% \(\d+ runs of /);
    expect(run.stderr).toMatch(/stage quantization: keeping sglang \(.*sglang defaults keeps the highest precision\)/);
    const last = run.events.at(-1) as Extract<TuneEvent, { type: 'session-finished' }>;
    const p = loadProfile(last.profilePath!);
    expect(p.decision).toMatchObject({ tiedIds: ['sglang', 'sglang-fp8ckpt'], tieBreak: 'keeps the highest precision', marginPct: 90 });
    expect(typeof p.decision?.noisePct).toBe('number');
  });
});
