// Acceptance: `--auto --sim --capacity RULES` searches the winner's capacity after the stages, on
// its own launch of the winner's server with the session's workload: every probe on stderr as it
// lands, and in the summary the answer, the failing probe above it, the rule that breaks first
// and goodput; the profile holds the same answer (its capacity record), the report its section
// and chart, the journal every probe event. The simulated host's figures move with this
// machine's load, so nothing asserts a number: only that the answer, the failing probe and the
// probes agree with one another and with the search's own rules (resolution, bracketing).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadProfile } from '../../../src/profiles/store/store.js';
import { removeDir, runCli, killLeftServers, tempDir, type CliRun } from '../../helpers/e2e/cli.js';
import { testPort } from '../../helpers/ports.js';

const cwd = tempDir('e2e-capacity');
const port = String(testPort());
let run: CliRun;

afterAll(() => {
  killLeftServers(run?.stderr ?? '');
  removeDir(cwd);
});

describe('servelab --auto --sim --capacity', () => {
  it('searches the winner, prints the probes and the answer, and saves it in the profile', async () => {
    run = await runCli(
      [
        '--auto',
        '--sim',
        '--model',
        'Qwen/Qwen3-14B',
        '--engines',
        'vllm',
        '--stages',
        'engine',
        '--scenario',
        'random:128/32',
        '--num-prompts',
        '40',
        '--validation',
        'none',
        '--capacity',
        // (a bound the simulated H100 crosses between 16 and 128 users; at 30 ms it held up to 256 once
        // the model's per-step host time shrank)
        'tpot:mean<22',
        '--capacity-resolution',
        '25%',
        '--capacity-max',
        '256',
        '--speed',
        '5',
        '--port',
        port,
        '--out',
        join(cwd, 'out'),
        '--runs-dir',
        join(cwd, 'runs'),
      ],
      cwd,
      undefined,
      240_000,
    );
    expect(run.code, run.stderr.slice(-3000)).toBe(0);
    // The search launched the winner once more, after the engine stage's launch.
    expect([...run.stderr.matchAll(/vllm: launching on port/g)]).toHaveLength(2);
    expect(run.stderr).toMatch(
      /capacity of vllm for tpot:mean<22 on the random 128\/32 workload\n {2}highest concurrency from 1 up to 256: doubling, then bisecting to 25% of the answer/,
    );
    expect(run.stderr).toMatch(/ {2}probe 1 {2}1 concurrent user, 32 requests: (holds|fails)/);

    const out = run.stdout;
    expect(out).toMatch(/^Capacity of vllm defaults under tpot:mean<22 \(by concurrency, resolution 25% of the answer/m);
    const m =
      /answer: (\d+) concurrent users? at mean TPOT < 22 ms(?:: margin [^(]+\([^)]+\))? \((\d+) concurrent users fail: tpot:mean breaks first; resolution 25% of the answer\)/.exec(
        out,
      );
    expect(m, out).not.toBeNull();
    const [answer, failing] = [Number(m![1]), Number(m![2])];
    expect(failing).toBeGreaterThan(answer);
    expect(out).toMatch(/goodput at the answer: [\d.]+ req\/s meeting the SLO of [\d.]+ req\/s served/);
    expect(out).toMatch(/requests: [\d,]+ over \d+ probes \(simulated host: figures in simulated GPU time\)/);

    // The profile holds what was printed; its probes agree with the answer.
    const file = /^Profile: (.+)$/m.exec(out)![1]!;
    const c = loadProfile(file).capacity!;
    expect(c).toMatchObject({
      by: 'concurrency',
      slo: 'tpot:mean<22',
      answer,
      failing,
      breaks: 'tpot:mean',
      simulated: true,
      workload: 'random-128-32',
    });
    expect(c.goodput).toBeGreaterThan(0);
    // A load's verdict is its probes' majority: one that failed is probed again, and a re-probe may overrule it.
    const probesAt = (load: number) => c.probes.filter((p) => p.load === load);
    const holdsAt = (load: number) => probesAt(load).filter((p) => p.holds).length * 2 > probesAt(load).length;
    expect(holdsAt(answer)).toBe(true);
    expect(holdsAt(failing)).toBe(false);
    expect(probesAt(failing).some((p) => !p.holds && p.metrics.mean_tpot_ms! >= 22)).toBe(true);
    // Bisected to the resolution: the failing probe is within 25% of the answer (or the next load).
    expect(failing - answer).toBeLessThanOrEqual(Math.max(1, 0.25 * answer));
    // Every probe between them is absent: the answer is the highest that held below the lowest that failed.
    expect(c.probes.filter((p) => p.load > answer && p.load < failing)).toEqual([]);
    const loads = [...new Set(c.probes.map((p) => p.load))];
    expect(Math.min(...loads.filter((l) => !holdsAt(l)))).toBe(failing);
    expect(Math.max(...loads.filter((l) => holdsAt(l) && l < failing))).toBe(answer);
    expect(c.requests).toBe(c.probes.reduce((s, p) => s + p.numPrompts, 0));

    // The report's section and its chart beside it; the journal has every probe.
    const report = readFileSync(file.replace(/\.json$/, '.md'), 'utf8');
    expect(report).toContain('## Capacity under the SLO');
    expect(existsSync(join(dirname(file), c.chart!))).toBe(true);
    const runDir = /^Run folder: (.+)$/m.exec(out)![1]!;
    const events = readFileSync(join(runDir, 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string });
    expect(events.filter((e) => e.type === 'capacity-probe')).toHaveLength(c.probes.length);
    expect(existsSync(join(runDir, 'capacity.json'))).toBe(true);
  }, 260_000);

  it('refuses bad capacity flags in one line, exit 2, before anything runs', async () => {
    const bad = [
      [['--capacity-by', 'rate'], /^servelab: --capacity-by needs --capacity RULES/],
      [['--capacity', 'ttft:p100<2000'], /the maximum cannot be judged from a sample; use p99 or p99\.9/],
      [['--capacity', 'ttft:p99<2000', '--capacity-resolution', '0'], /bad --capacity-resolution '0'/],
    ] as const;
    for (const [flags, message] of bad) {
      const r = await runCli(['--auto', '--sim', '--model', 'Qwen/Qwen3-14B', ...flags], cwd, undefined, 60_000);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
  }, 120_000);
});
