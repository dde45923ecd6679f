// Acceptance: `--auto --sim --dummy-weights` launches the tuning variants with --load-format dummy
// (sim-serve reads it like vLLM), keeps the real weights for speculative decoding and for the
// validation, records which in every result, the journal and the profile, marks the summary and
// the report, and serves the winner with its real weights. Trimmed with --engines/--stages/--scale.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { VariantResult } from '../../../src/core/events.js';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { removeDir, runCli, killLeftServers, tempDir, type CliRun } from '../../helpers/e2e/cli.js';
import { testPort } from '../../helpers/ports.js';

const cwd = tempDir('e2e-dummy');
const port = String(testPort());
let run: CliRun;

afterAll(() => {
  killLeftServers(run?.stderr ?? '');
  removeDir(cwd);
});

/** The run's journal entries (results/*.json), in order. */
function journal(runDir: string): { role: string; result: VariantResult }[] {
  const dir = join(runDir, 'results');
  return readdirSync(dir)
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as { role: string; result: VariantResult });
}

describe('servelab --auto --sim --dummy-weights', () => {
  it('tunes on dummy weights where allowed and validates on the real ones', async () => {
    run = await runCli(
      [
        '--auto',
        '--sim',
        '--model',
        'Qwen/Qwen3-14B',
        '--engines',
        'vllm',
        '--stages',
        'engine,speculative',
        '--scale',
        '0.02',
        '--validation',
        'sharegpt-like',
        '--dummy-weights',
        '--port',
        port,
      ],
      cwd,
    );
    expect(run.code, run.stderr.slice(-3000)).toBe(0);

    const entries = journal(/Run folder: (\S+)/.exec(run.stdout)![1]!);
    const tune = entries.filter((e) => e.role === 'tune').map((e) => e.result);
    const validate = entries.filter((e) => e.role === 'validate').map((e) => e.result);
    const engine = tune.find((r) => r.stage === 'engine')!;
    const spec = tune.find((r) => r.stage === 'speculative')!;
    expect(engine.weights).toMatchObject({ kind: 'dummy' });
    expect(engine.argv.join(' ')).toContain('--load-format dummy');
    expect(engine.engineArgv!.slice(-2)).toEqual(['--load-format', 'dummy']);
    expect(spec.variant.knobs.speculative).toBeDefined();
    expect(spec.weights).toEqual({ kind: 'real', why: expect.stringMatching(/acceptance/) });
    expect(spec.argv).not.toContain('--load-format');
    // Validation measured both sides anew on real weights, the engine stage's variant included.
    expect(validate.map((r) => r.variantId).sort()).toEqual([engine.variantId, spec.variantId].sort());
    for (const r of validate) {
      expect(r.weights).toEqual({ kind: 'real', why: expect.stringMatching(/final validation/) });
      expect(r.argv).not.toContain('--load-format');
    }
    // ignore_eos: every tuning client sent it (speculative too), so each request ran to its asked
    // length; validation did not, and sim-serve ends some of its requests early (openai.ts, 10%,
    // seeded per request: deterministic for this workload and seed).
    const outTokens = (r: VariantResult) => r.metrics!.total_output_tokens;
    expect(outTokens(spec)).toBe(outTokens(engine));
    for (const r of validate) expect(outTokens(r)).toBeLessThan(outTokens(engine));
    // The modelled start-up of a dummy launch skips the weight read (sim/server/server.ts defaultLoadTime).
    const realEngine = validate.find((r) => r.variantId === engine.variantId)!;
    expect(engine.startupS!).toBeLessThan(realEngine.startupS!);

    // The summary marks the dummy rows and serves the winner on its real weights.
    expect(run.stdout).toMatch(/^vllm \* \[dummy\]|^vllm \[dummy\]/m);
    expect(run.stdout).toMatch(/\[dummy\] = Dummy weights .*Real weights for vllm-spec/);

    const path = /Profile: (\S+)/.exec(run.stdout)![1]!;
    const p = loadProfile(path);
    const kept = p.stages.flatMap((s) => s.results);
    expect(kept.find((r) => r.stage === 'engine')!.weights).toMatchObject({ kind: 'dummy' });
    expect(kept.find((r) => r.stage === 'speculative')!.weights).toMatchObject({ kind: 'real' });
    expect(p.engineArgv).not.toContain('--load-format');
    expect(p.notes.join('\n')).toMatch(/before\/after validation ran the real weights/);
    const report = readFileSync(path.replace(/\.json$/, '.md'), 'utf8');
    expect(report).toMatch(/vllm defaults[^|]*\(dummy weights\)/);
  }, 120_000);
});
