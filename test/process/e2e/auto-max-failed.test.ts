// Acceptance: partial success is not success. On the simulated host, SERVELAB_SIM_FAULTS (its test
// hook) makes the online-FP8 variant fail 30% of its requests, and decode twice as fast, so that
// its throughput over the successes is the session's highest. It never wins: its row reads
// "N/M ok: not eligible" in the summary and the report, and its failures keep their error text.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { removeDir, runCli, killLeftServers, tempDir, type CliRun } from '../../helpers/e2e/cli.js';
import { testPort } from '../../helpers/ports.js';

const cwd = tempDir('e2e-max-failed');
const port = String(testPort());
let run: CliRun;

afterAll(() => {
  killLeftServers(run?.stderr ?? '');
  removeDir(cwd);
});

describe('servelab --auto --sim with a variant that fails 30% of its requests', () => {
  it('never lets it win, and its row says why', async () => {
    run = await runCli(
      [
        '--auto',
        '--sim',
        '--model',
        'Qwen/Qwen3-14B',
        '--engines',
        'vllm',
        '--stages',
        'engine,quantization',
        '--scale',
        '0.02',
        '--validation',
        'none',
        '--drop',
        'vllm-fp8ckpt',
        '--no-early-stop',
        '--port',
        port,
      ],
      cwd,
      undefined,
      120_000,
      // Twice as fast at decoding, so that even without the failed requests it is the fastest.
      { SERVELAB_SIM_FAULTS: 'quantization=fp8:fail=0.3,quantization=fp8:slow=0.5' },
    );
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    const out = run.stdout;
    const profile = loadProfile(/Profile: (\S+)/.exec(out)![1]!);
    const stage = profile.stages.find((s) => s.name === 'quantization')!;
    const faulty = stage.results.find((r) => r.variantId === 'vllm-quant-fp8')!;
    const m = faulty.metrics!;
    // About 30% failed (a fixed sequence of draws; the ready check and warm-ups take some), and over its successes it is still the fastest.
    expect(m.failed / (m.failed + m.completed)).toBeGreaterThanOrEqual(0.1);
    const others = profile.stages.flatMap((s) => s.results).filter((r) => r.variantId !== faulty.variantId && r.status === 'ok');
    for (const o of others) expect(m.total_token_throughput).toBeGreaterThan(o.metrics!.total_token_throughput);
    // It does not win; its row says why, in the words a user reads.
    expect(profile.variant.id).not.toBe('vllm-quant-fp8');
    expect(out).not.toMatch(/^Winner: vllm-quant-fp8/m);
    const words = `${m.completed}/${m.completed + m.failed} ok: not eligible`;
    expect(out).toContain(words);
    expect(stage.notEligible).toEqual({ 'vllm-quant-fp8': words });
    // The failures keep their reasons: the error text, counted.
    expect(faulty.requestErrors?.[0]?.count).toBe(m.failed);
    expect(out).toMatch(new RegExp(`vllm-quant-fp8: ${words} \\(too many failed requests.*\\): ${m.failed} x .*simulated fault`));
    const report = readFileSync(/Report: +(\S+)/.exec(out)![1]!, 'utf8');
    expect(report).toContain(`${words}: ${m.failed} x `);
    expect(report).toMatch(/simulated fault/);
  }, 120_000);
});
