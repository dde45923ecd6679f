// Acceptance, for real: `servelab --auto --engines llamacpp --model FILE.gguf` on this host (no
// GPU needed: llama.cpp runs on the CPU) launches the real llama-server for each variant of its
// stages on a random-weight GGUF, makes the quantized GGUFs with llama-quantize in the run folder,
// prunes the quantized V cache without flash attention before launching it, saves a profile
// and exits 0 with no server left. Outputs are meaningless (random weights); no speed is asserted.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cpuIdentity, cpuInfo } from '../../../src/host/cpu.js';
import { allowedCpus } from '../../../src/host/core-split.js';
import { BUSY_HOST_PCT } from '../../../src/core/host-load.js';
import { afterAll, describe, expect, it } from 'vitest';
import type { VariantResult } from '../../../src/core/events.js';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { removeDir, runCli, tempDir, type CliRun } from '../../helpers/e2e/cli.js';
import { freshPort, leftServers, LLAMA_SERVER, LLAMA_SKIP, SMALL, testGguf } from '../../helpers/llamacpp/helpers.js';
import { skipNote } from '../../helpers/skip.js';

const cwd = tempDir('llama-auto');
let run: CliRun | undefined;
afterAll(() => {
  for (const pid of run ? leftServers(run.events, run.stderr) : []) process.kill(pid, 'SIGKILL');
  removeDir(cwd);
});

const title = `servelab --auto --engines llamacpp (real llama-server)${skipNote(LLAMA_SKIP)}`;
describe.skipIf(LLAMA_SKIP !== undefined)(title, { timeout: 240_000 }, () => {
  it('runs its stages on the CPU, saves a profile, exits 0', async () => {
    const runDir = join(cwd, 'run');
    run = await runCli(
      [
        '--auto',
        '--engines',
        'llamacpp',
        '--model',
        testGguf(),
        ...SMALL,
        '--stages',
        'engine,quantization,kv-cache',
        '--drop',
        'fa=on',
        '--drop',
        'kv=q4_0',
        '--no-early-stop',
        '--run-dir',
        runDir,
        '--out',
        cwd,
        '--port',
        freshPort(),
        '--json',
      ],
      cwd,
      undefined,
      240_000,
    );
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    expect(leftServers(run.events, run.stderr)).toEqual([]);

    const results = readdirSync(join(runDir, 'results')).map(
      (f) => (JSON.parse(readFileSync(join(runDir, 'results', f), 'utf8')) as { result: VariantResult }).result,
    );
    const ok = results.filter((r) => r.status === 'ok');
    // Every measured variant ran the real binary (not sim-serve) on a GGUF.
    expect(ok.length).toBeGreaterThanOrEqual(3);
    for (const r of ok) {
      expect(r.argv[0]).toBe(LLAMA_SERVER);
      expect(r.simulated).toBeUndefined();
      expect(r.metrics!.completed).toBe(6);
      // Start-up and the server's CPU-seconds (its cost on a CPU host) are recorded per launch.
      expect(r.startupS).toBeGreaterThan(0);
      expect(r.cpuS).toBeGreaterThan(0);
      // How quiet the host was: other processes' CPU share and the load average, per run.
      expect(r.hostLoad!.cores).toBe(cpuIdentity().logicalCpus);
      expect(r.hostLoad!.othersCpuPct).toBeGreaterThanOrEqual(0);
      expect(r.hostLoad!.othersCpuPct).toBeLessThanOrEqual(100);
      expect(r.hostLoad!.busy === true).toBe(r.hostLoad!.othersCpuPct >= BUSY_HOST_PCT);
    }
    // Cores to spare: the server and the client on disjoint cores; none (as on 2 cores): said once.
    const noneToSpare = run.events.filter((e) => e.type === 'warning' && /none to spare/.test(e.message));
    if (allowedCpus().length < 3) {
      expect(noneToSpare).toHaveLength(1);
      for (const r of ok) expect(r.hostLoad!.pinned).toBeUndefined();
    } else {
      expect(noneToSpare).toHaveLength(0);
      for (const r of ok) expect(r.hostLoad!.pinned).toMatch(/^server [\d,-]+.*, client [\d,-]+$/);
    }
    // The quantization stage served the files llama-quantize wrote into the run folder.
    // (the journal holds every run: a confirmation run of the carried winner, the input GGUF, is
    // journaled under this stage too)
    const served = new Set(ok.filter((r) => r.stage === 'quantization').map((r) => r.variant.model));
    const quant = [...served].filter((f) => f.startsWith(join(runDir, 'gguf'))).sort();
    for (const f of served) if (!quant.includes(f)) expect(f).toBe(testGguf());
    expect(quant).toEqual([join(runDir, 'gguf', 'qwen3-256x4-Q4_0.gguf'), join(runDir, 'gguf', 'qwen3-256x4-Q8_0.gguf')]);
    for (const f of quant) expect(existsSync(f)).toBe(true);

    // The plan pruned the quantized V cache without flash attention, in the binary's words, and launched it never.
    const plan = JSON.parse(readFileSync(join(runDir, 'plan.json'), 'utf8')) as {
      stages: { name: string; variants: { change: string; status: string; reason?: { reason: string } }[] }[];
    };
    const pruned = plan.stages.find((s) => s.name === 'kv-cache')!.variants.find((v) => v.change === 'kv=q8_0 fa=off')!;
    expect(pruned.status).toBe('pruned');
    expect(pruned.reason!.reason).toContain('quantized V cache requires flash_attn to be enabled');
    const launched = run.events.flatMap((e) => (e.type === 'variant-launching' ? [e.argv.join(' ')] : []));
    expect(launched.some((a) => a.includes('-fa off') && a.includes('-ctv q8_0'))).toBe(false);

    const saved = run.events.find((e) => e.type === 'session-finished');
    expect(saved && 'profilePath' in saved ? saved.profilePath : null).toMatch(/-cpu\.json$/);
    const profile = loadProfile((saved as { profilePath: string }).profilePath);
    expect(profile.engine).toMatchObject({ name: 'llamacpp', version: '0.4.0-dev' });
    expect(profile.host).toMatchObject({ gpuCount: 0, simulated: false });
    // the CPU fingerprint a calibration from this profile is checked by (predict --engine llamacpp --calibration)
    expect(profile.host.cpuModel).toBe(cpuInfo().model);
    expect(profile.host.cpuThreads).toBe(cpuInfo().threads);
    expect(profile.argv[0]).toBe(LLAMA_SERVER);
    const report = readFileSync((saved as { reportPath: string }).reportPath, 'utf8');
    expect(report).toMatch(/\| start-up s \| CPU-s \|/);
  });
});
