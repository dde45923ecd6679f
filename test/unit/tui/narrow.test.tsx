// What a user sees at 80 x 24: results with every column that fits (start-up included), a
// validation page reached with a burst of arrow keys, commands shown whole, warnings and the
// progress line not cut, and a plan estimate that counts the validation.
import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/screens/app.js';
import { PlanScreen } from '../../../src/screens/PlanScreen.js';
import type { TuneEvent } from '../../../src/core/events.js';
import { commandLines, shellWords } from '../../../src/tui/base/format.js';
import { initialWizard, wizardReducer } from '../../../src/tui/state/wizard.js';
import { colourTheme } from '../../../src/tui/base/theme.js';
import { overflowingLines, render, type Rendered } from '../../helpers/render.js';
import { enterRun } from '../../helpers/tui/walk.js';
import { defaults, fakeServices, form, plan, result, scripted, sessionEvents, snapshot, stageDone } from '../../helpers/tui/fixtures.js';

let r: Rendered | undefined;
afterEach(() => {
  r?.unmount();
  r = undefined;
});

const LONG_DIR = '/home/operator/tuning/servelab-runs/2026-11-30T0837-Qwen3-14B-H100x1/logs/trtllm-kv-fp8';
const TRT_ARGV = [
  'trtllm-serve',
  'Qwen/Qwen3-14B',
  '--host',
  '127.0.0.1',
  '--port',
  '8100',
  '--extra_llm_api_options',
  `${LONG_DIR}/extra_llm_api_options.yaml`,
];
const WARNING =
  'the benchmark client was flagged as a bottleneck while measuring vllm (event-loop lag or CPU): its figures may understate the server; lower --speed (now 5) or use a less busy machine for figures you can compare';

/** The session fixture with a TRT-LLM winner whose command is long, and a client-bound warning. */
function trtEvents(): TuneEvent[] {
  const events = sessionEvents();
  const trt = { ...result('sglang-fp8ckpt', 'quantization', 12_000), engineArgv: TRT_ARGV, startupS: 95 };
  return events.map((e) => (e.type === 'variant-finished' && e.result.variantId === 'sglang-fp8ckpt' ? { ...e, result: trt } : e));
}

function frameFrom(f: string, marker: string): string {
  return f.slice(f.lastIndexOf(marker));
}

async function toResults(events: TuneEvent[], columns: number, rows: number, price?: number) {
  const session = scripted(events);
  const services = fakeServices({ session: () => session.start });
  r = render(
    <App
      services={services}
      defaults={price ? { ...defaults, pricePerGpuHour: price } : defaults}
      onExit={() => {}}
      theme={colourTheme}
      throttleMs={10}
    />,
    { columns, rows },
  );
  await enterRun(r);
  session.rest();
  await r.waitForFrame('Tuning finished.');
  await r.press('enter');
  await r.waitForFrame('5/6 Results');
  return r;
}

describe('Results at 80 x 24', () => {
  it('shows start-up time in the stage table and keeps every line inside the terminal', async () => {
    const r = await toResults(trtEvents(), 80, 24);
    const f = frameFrom(r.frame(), 'servelab · 5/6');
    expect(f).toMatch(/variant\s+tok\/s\s+gain\s+TTFT\s+TPOT\s+startup\s+GPU-h\s+status/);
    // The fixture's results carry no GPU time: the GPU-h cell says so with a dash.
    expect(f).toMatch(/vllm defaults\s+9,000\s+ref\s+100ms\s+20\.0ms\s+31s\s+-\s+ok/);
    expect(overflowingLines(f, 80)).toEqual([]);
    expect(f.split('\n').length).toBeLessThan(24);
  });

  it('pages to the validation table with a burst of arrow keys in one chunk, and stops at the last page', async () => {
    const r = await toResults(trtEvents(), 80, 24);
    // Seven Rights in a single write, as a fast key repeat or tmux send-keys delivers them.
    await r.type('\x1b[C'.repeat(7));
    let f = frameFrom(await r.waitForFrame('[validation]'), 'servelab · 5/6');
    expect(f).toMatch(/scenario\s+base tok\/s\s+base TPOT\s+winner tok\/s\s+winner TPOT\s+gain/);
    expect(f).toMatch(/sharegpt-like\s+9,000\s+25\.0ms\s+12,000\s+18\.0ms\s+\+33\.3%/);
    expect(overflowingLines(f, 80)).toEqual([]);
    // A burst of letter keys in one chunk (key repeat over SSH) is each key in turn.
    await r.press('left');
    await r.waitForFrame('[quantization]');
    await r.type('hh');
    await r.waitForFrame('[engine]');
    await r.type('ll');
    await r.waitForFrame('[validation]');
    // Single presses page back one stage at a time.
    await r.press('left');
    f = await r.waitForFrame('[quantization]');
    await r.press('left');
    await r.waitForFrame('[engine]');
    await r.press('left');
    expect(r.frame()).toContain('[engine]');
    expect(f).toContain('[quantization]');
  });

  it("shows the winner's long TRT-LLM command whole, ready to paste", async () => {
    const r = await toResults(trtEvents(), 80, 24);
    const f = frameFrom(r.frame(), 'Winner:');
    // The command's lines: after the "Winner:" line, up to the blank line above the footer.
    const all = f.split('\n');
    const lines = all.slice(1, all.indexOf('', 1));
    expect(f).not.toContain('…');
    expect(overflowingLines(f, 80)).toEqual([]);
    // Joined back (continuations dropped, a path broken at the edge rejoined), it is the command.
    const joined = lines
      .map((l) => l.replace(/ \\$/, ''))
      .join('\n')
      .replace(/\n(?! {4})/g, '')
      .replace(/\n {4}/g, ' ')
      .replace(/^\$ /, '');
    expect(shellWords(joined)).toEqual(TRT_ARGV);
    expect(f).toContain('--extra_llm_api_options');
  });
});

describe('Results winner measured on dummy weights', () => {
  it("shows the command that serves it, without the dummy-weight flags (as --auto's summary and the profile)", async () => {
    const argv = ['python3', '-m', 'sglang.launch_server', '--model-path', 'Qwen/Qwen3-14B-FP8', '--port', '8100', '--enable-metrics'];
    const dummy = {
      ...result('sglang-fp8ckpt', 'quantization', 12_000),
      engineArgv: [...argv, '--load-format', 'dummy'],
      weights: { kind: 'dummy' as const, why: 'dummy weights (--load-format dummy)' },
    };
    const events = sessionEvents().map((e) =>
      e.type === 'variant-finished' && e.result.variantId === 'sglang-fp8ckpt' ? { ...e, result: dummy } : e,
    );
    const r = await toResults(events, 160, 45);
    const f = frameFrom(r.frame(), 'Winner:');
    expect(f).toContain('$ python3 -m sglang.launch_server --model-path Qwen/Qwen3-14B-FP8 --port 8100 --enable-metrics');
    expect(f).not.toContain('--load-format');
  });
});

describe('Results without a validation', () => {
  it('says the validation was turned off, not that the run stopped before it', async () => {
    const events = sessionEvents().filter((e) => !e.type.startsWith('validation'));
    const off = (validation: unknown[]) => [
      events[0]!,
      { type: 'plan-ready', plan: { validation, host: { gpuCount: 1 } } } as unknown as TuneEvent,
      ...events.slice(1),
    ];
    let r = await toResults(off([]), 100, 30);
    await r.type('\x1b[C'.repeat(7));
    let f = frameFrom(await r.waitForFrame('[validation]'), 'servelab · 5/6');
    expect(f.replace(/\s+/g, ' ')).toContain(
      'No validation table: validation was off for this run (--validation none, or Validation: none on the Model screen).',
    );
    r.unmount();
    // Planned but never reached: the run stopped before it.
    r = await toResults(off([{ name: 'sharegpt-like' }]), 100, 30);
    await r.type('\x1b[C'.repeat(7));
    f = frameFrom(await r.waitForFrame('[validation]'), 'servelab · 5/6');
    expect(f).toContain('No validation table (the run stopped before validating).');
  });
});

describe('Results reasons and validation at 80 x 24', () => {
  it('gives the whole reason of every row that did not run, and names the validation baseline', async () => {
    const why = (id: string, kind: 'unsupported' | 'oom', reason: string) => result(id, 'engine', null, { kind, reason });
    const events: TuneEvent[] = [
      { type: 'session-started', runDir: 'servelab-runs/x', simulated: true, at: '2026-01-01T00:00:00Z' },
      { type: 'stage-started', stage: 'engine', index: 0, variants: ['vllm', 'sglang-fp8', 'trtllm-fp8'] },
      { type: 'variant-finished', result: result('vllm', 'engine', 9000) },
      {
        type: 'variant-finished',
        result: {
          ...why(
            'sglang-fp8',
            'unsupported',
            'FP8 is not supported on this GPU (A100, compute capability 8.0): SGLang needs compute capability 8.9+ for FP8 weights',
          ),
          status: 'pruned',
        },
      },
      {
        type: 'variant-finished',
        result: {
          ...why(
            'trtllm-fp8',
            'unsupported',
            'FP8 is not supported on this GPU (A100, compute capability 8.0): TensorRT-LLM needs compute capability 8.9+ for FP8 weights',
          ),
          status: 'pruned',
        },
      },
      stageDone('engine', 'vllm', 0, { referenceId: 'vllm', baselineId: 'vllm', gains: { vllm: 0 } }),
      { type: 'stage-started', stage: 'speculative', index: 1, variants: ['sglang'], carriedId: 'vllm' },
      { type: 'variant-finished', result: result('sglang', 'speculative', 12_000) },
      stageDone('speculative', 'sglang', 33.3, { carriedId: 'vllm', baselineId: 'vllm', gains: { sglang: 33.3 } }),
      {
        type: 'validation-started',
        scenarios: ['sharegpt-like'],
        baselineId: 'vllm',
        baselineWhy: "vLLM's defaults from the engine stage",
        winnerId: 'sglang',
      },
      { type: 'variant-launching', variantId: 'vllm', stage: 'validation', argv: ['vllm'], port: 8110 },
      { type: 'variant-launching', variantId: 'sglang', stage: 'validation', argv: ['sglang'], port: 8111 },
      {
        type: 'validation-finished',
        rows: [
          {
            scenario: 'sharegpt-like',
            baseline: { totalTokPerS: 9000, meanTpotMs: 25 },
            optimized: { totalTokPerS: 12_000, meanTpotMs: 18 },
            gainPct: 33.3,
          },
        ],
      },
      { type: 'session-finished', profilePath: 'profiles/p.json', reportPath: 'profiles/p.md', exitCode: 0 },
    ];
    const r = await toResults(events, 80, 24);
    let f = frameFrom(r.frame(), 'servelab · 5/6');
    // The only variant that ran is the reference: no "0.0% vs the first variant".
    expect(f).toContain('winner vllm defaults');
    expect(f).not.toContain('0.0%');
    const text = f.replace(/\n/g, ' ');
    expect(text).toContain(
      'sglang-fp8: unsupported: FP8 is not supported on this GPU (A100, compute capability 8.0): SGLang needs compute capability 8.9+ for FP8 weights',
    );
    expect(text).toContain('TensorRT-LLM needs compute capability 8.9+ for FP8 weights');
    expect(overflowingLines(f, 80)).toEqual([]);
    expect(f.split('\n').length).toBeLessThan(24);
    await r.type('\x1b[C\x1b[C');
    f = frameFrom(await r.waitForFrame('[validation]'), 'servelab · 5/6');
    // How the core chose the baseline, as it said it.
    expect(f.replace(/\s+/g, ' ')).toContain("baseline vllm defaults (vLLM's defaults from the engine stage) vs winner sglang defaults");
  });

  it('says so when the validation compared the winner with itself', async () => {
    // vLLM's defaults were skipped, so the core's baseline is the engine stage's winner.
    // The core then names sglang as the baseline and the winner in its events; the screen only shows them.
    const events = sessionEvents().map((e): TuneEvent =>
      e.type === 'variant-finished' && e.result.variantId === 'vllm'
        ? { ...e, result: result('vllm', 'engine', null, { kind: 'skipped', reason: 'skipped by the user' }) }
        : e.type === 'validation-started'
          ? { ...e, baselineId: 'sglang', winnerId: 'sglang' }
          : e,
    );
    const quant = events.findIndex((e) => e.type === 'stage-started' && e.stage === 'quantization');
    const trimmed = events.filter(
      (e, i) => i < quant || e.type === 'validation-started' || e.type === 'validation-finished' || e.type === 'session-finished',
    );
    const r = await toResults(trimmed, 80, 24);
    await r.type('\x1b[C');
    const f = await r.waitForFrame('[validation]');
    expect(f.replace(/\n/g, ' ')).toContain('the baseline is the winner itself (sglang defaults)');
  });
});

describe('a priced table at 80 x 24', () => {
  it('adds $/Mtok and keeps rows that differ by one knob apart', async () => {
    const oom = (id: string, label: string) => ({
      ...result(id, 'parallelism', null, { kind: 'oom', reason: 'does not fit in GPU memory' }),
      status: 'pruned' as const,
      variant: { id, engine: 'vllm' as const, model: 'm', knobs: {}, label },
    });
    const ok = (id: string, label: string, total: number) => ({
      ...result(id, 'engine', total),
      variant: { id, engine: 'vllm' as const, model: 'm', knobs: {}, label },
    });
    const events: TuneEvent[] = [
      { type: 'session-started', runDir: 'servelab-runs/x', simulated: true, at: '2026-01-01T00:00:00Z' },
      { type: 'stage-started', stage: 'engine', index: 0, variants: ['a'] },
      { type: 'variant-finished', result: ok('a', 'vllm fp8-ckpt tp8', 9000) },
      stageDone('engine', 'a', null, { referenceId: 'a', baselineId: 'a', gains: { a: 0 } }),
      { type: 'stage-started', stage: 'parallelism', index: 1, variants: ['b', 'c'], carriedId: 'a' },
      { type: 'variant-finished', result: oom('b', 'vllm fp8-ckpt tp4 dp2') },
      { type: 'variant-finished', result: oom('c', 'vllm fp8-ckpt tp2 dp4') },
      stageDone('parallelism', 'a', null, { carriedId: 'a', baselineId: 'a', gains: { b: null, c: null } }),
      { type: 'session-finished', profilePath: 'p.json', reportPath: 'p.md', exitCode: 0 },
    ];
    const r = await toResults(events, 80, 24, 2.5);
    let f = frameFrom(r.frame(), 'servelab · 5/6');
    // At 80 columns $/Mtok takes the start-up column's place; GPU-h stays.
    expect(f).toMatch(/TPOT\s+GPU-h\s+\$\/Mtok\s+status/);
    expect(f).toMatch(/vllm fp8-ckpt tp8\s+9,000\s+ref.*\$\d+\.\d+\s+ok/);
    await r.press('right');
    f = frameFrom(await r.waitForFrame('[parallelism]'), 'servelab · 5/6');
    expect(f).toMatch(/tp4 dp2 \(was tp8\)\s+-.*\s+oom$/m);
    expect(f).toMatch(/tp2 dp4 \(was tp8\)\s+-.*\s+oom$/m);
    expect(f).toContain('tp4 dp2 (was tp8): oom: does not fit in GPU memory');
    expect(overflowingLines(f, 80)).toEqual([]);
  });
});

describe('an early abort', () => {
  it('says the run was aborted rather than that no variant succeeded', async () => {
    const events = sessionEvents().slice(0, 3);
    events.push({ type: 'warning', message: 'not sent' });
    const session = scripted(events);
    const services = fakeServices({ session: () => session.start });
    r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} throttleMs={10} />, {
      columns: 80,
      rows: 24,
    });
    await enterRun(r);
    session.next(events.length - 1);
    await r.waitForFrame('launching');
    await r.press('x');
    await r.waitForFrame('Aborted; finished variants are kept in the journal.');
    await r.press('enter');
    const f = await r.waitForFrame('5/6 Results');
    expect(f).toContain('none: the run was aborted before a stage chose one');
    expect(f).not.toContain('no variant succeeded');
  });
});

describe('Run screen at 80 x 24', () => {
  it('wraps a long warning instead of cutting it, and keeps the progress figures whole', async () => {
    const events = sessionEvents().slice(0, 7);
    events.push(
      { type: 'warning', message: WARNING },
      { type: 'bench-progress', variantId: 'vllm', snapshot: snapshot(10, 1000, { elapsedS: 95 }) },
    );
    // Held back, so the session is still running when the frame is read.
    events.push({ type: 'warning', message: 'not sent' });
    const session = scripted(events);
    const services = fakeServices({ session: () => session.start });
    r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} throttleMs={10} />, {
      columns: 80,
      rows: 24,
    });
    await enterRun(r);
    session.next(events.length - 1);
    const f = frameFrom(await r.waitForFrame('use a less busy machine'), 'servelab · 4/6');
    expect(f.replace(/\n/g, ' ')).toContain('lower --speed (now 5) or use a less busy machine for figures you can compare');
    expect(f).toMatch(/10\/40\s+25\.0%\s+ETA \S+\s+elapsed \S+ · sim 1m35s/);
    expect(f).not.toContain('…');
    expect(overflowingLines(f, 80)).toEqual([]);
  });
});

describe('resize while running', () => {
  it('clears the screen once the size settles and prints the leaderboard again for the new width', async () => {
    const events = sessionEvents().slice(0, 11);
    events.push({ type: 'warning', message: 'not sent' });
    const session = scripted(events);
    const services = fakeServices({ session: () => session.start });
    r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} throttleMs={10} />, {
      columns: 80,
      rows: 24,
    });
    await enterRun(r);
    session.next(events.length - 1);
    let f = await r.waitForFrame('── stage engine: winner sglang defaults');
    // At 80 columns the leaderboard leaves out the start-up figure.
    expect(f).not.toMatch(/vllm defaults.*up 31s/);
    const before = r.frames().length;
    r.resize(200, 50);
    f = await r.waitForFrame((fr) => /vllm defaults.*up 31s/.test(fr));
    expect(
      r
        .rawFrames()
        .slice(before)
        .some((fr) => fr.includes('\x1b[2J')),
    ).toBe(true);
    expect(r.frames().length).toBeGreaterThan(before);
  });

  it('keeps the lifecycle line whole at 60 columns by leaving out the prompt count', async () => {
    const events = sessionEvents().slice(0, 7);
    events.push({ type: 'warning', message: 'not sent' });
    const session = scripted(events);
    const services = fakeServices({ session: () => session.start, plan: async () => ({ view: plan, start: () => session.start }) });
    r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} throttleMs={10} />, {
      columns: 60,
      rows: 24,
    });
    await enterRun(r);
    session.next(events.length - 1);
    const f = await r.waitForFrame('benchmarking');
    const line = f.split('\n').find((l) => l.includes('benchmarking'))!;
    expect(line).toMatch(/vllm defaults\s+random-200-100\s+elapsed \S+$/);
    expect(line).not.toContain('…');
  });
});

describe('Model screen', () => {
  it('says what goes in an empty SLO field', async () => {
    const services = fakeServices();
    r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} />, { columns: 80, rows: 24 });
    await r.waitForFrame('no NVIDIA GPU found');
    await r.press('enter');
    const f = await r.waitForFrame('2/6 Model');
    expect(f).toMatch(/^ {2}SLOs {10}none \(e\.g\. ttft:p99<2000,tpot:mean<100\)$/m);
  });
});

describe('Plan estimate', () => {
  it('adds the validation runs to the total and says so', async () => {
    r = render(
      <PlanScreen
        plan={{ ...plan, validationS: 60 }}
        focus={1}
        disabled={[]}
        onMove={() => {}}
        onToggle={() => {}}
        onNext={() => {}}
        onBack={() => {}}
        onQuit={() => {}}
        width={80}
        height={24}
      />,
    );
    // Three checked variants (90 + 80 + 70 s) and 60 s of validation.
    await r.waitForFrame('3 variants · est. 5m00s with validation');
  });

  it('shows the focused TRT-LLM command whole at 80 columns', async () => {
    const cmd = TRT_ARGV.join(' ');
    const p = {
      ...plan,
      stages: [{ name: 'engine', variants: [{ id: 't', label: 'trtllm defaults', knobs: 'defaults', estimateS: 90, command: cmd }] }],
    };
    r = render(
      <PlanScreen
        plan={p}
        focus={1}
        disabled={[]}
        onMove={() => {}}
        onToggle={() => {}}
        onNext={() => {}}
        onBack={() => {}}
        onQuit={() => {}}
        width={80}
        height={24}
      />,
    );
    const f = await r.waitForFrame('--extra_llm_api_options');
    expect(f).toContain('extra_llm_api_options.yaml');
    expect(f).not.toMatch(/…/);
  });
});

describe('commandLines', () => {
  it('keeps a flag with its value, continues lines with a backslash, and never drops a word', () => {
    const cmd =
      'python3 -m sglang.launch_server --model-path Qwen/Qwen3-14B --host 127.0.0.1 --port 8108 --chunked-prefill-size 16384 --enable-metrics';
    const lines = commandLines(cmd, 60);
    expect(lines.every((l) => l.length <= 60)).toBe(true);
    expect(lines.slice(0, -1).every((l) => l.endsWith(' \\'))).toBe(true);
    expect(lines.some((l) => /--chunked-prefill-size 16384/.test(l))).toBe(true);
    expect(
      shellWords(
        lines
          .map((l) => l.replace(/ \\$/, ''))
          .join(' ')
          .replace(/^\$ /, ''),
      ),
    ).toEqual(shellWords(cmd));
    expect(commandLines("A='x y' vllm serve m", 80)).toEqual(["$ A='x y' vllm serve m"]);
    // A path wider than the terminal breaks between folders, and loses nothing.
    const path = `${LONG_DIR}/extra_llm_api_options.yaml`;
    const broken = commandLines(`trtllm-serve m --extra_llm_api_options ${path}`, 80);
    expect(broken.every((l) => l.length <= 80)).toBe(true);
    expect(broken.at(-2)!.endsWith('/')).toBe(true);
    expect(broken.slice(-2).join('').trim()).toBe(path);
    // Quoted JSON wider than the terminal breaks after a comma: pasted, it is the same JSON.
    const json = '{"method":"ngram","num_speculative_tokens":3,"prompt_lookup_max":3,"prompt_lookup_min":1}';
    const spec = commandLines(`vllm serve m --speculative-config '${json}'`, 80);
    expect(spec.every((l) => l.length <= 80)).toBe(true);
    const quoted = spec.join('\n').slice(spec.join('\n').indexOf("'") + 1, spec.join('\n').lastIndexOf("'"));
    expect(quoted).toContain(',\n');
    expect(JSON.parse(quoted)).toEqual(JSON.parse(json));
  });
});

describe('results paging', () => {
  it('stops at the first and last pages rather than wrapping around', () => {
    let s = initialWizard({ gpuType: 'H100', gpuCount: 1, form });
    for (let i = 0; i < 7; i++) s = wizardReducer(s, { type: 'results-page', dir: 1, pages: 3 });
    expect(s.resultsPage).toBe(2);
    for (let i = 0; i < 7; i++) s = wizardReducer(s, { type: 'results-page', dir: -1, pages: 3 });
    expect(s.resultsPage).toBe(0);
  });
});
