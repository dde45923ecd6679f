import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { App } from '../../../src/screens/app.js';
import { HostScreen } from '../../../src/screens/HostScreen.js';
import { PlanScreen } from '../../../src/screens/PlanScreen.js';
import { colourTheme, ThemeContext, type Theme } from '../../../src/tui/base/theme.js';
import { overflowingLines, render, type Rendered } from '../../helpers/render.js';
import { enterRun } from '../../helpers/tui/walk.js';
import {
  defaults,
  fakeServices,
  plan,
  realHost,
  result,
  scripted,
  sessionEvents,
  simHost,
  snapshot,
  stageDone,
} from '../../helpers/tui/fixtures.js';

let r: Rendered | undefined;
afterEach(() => {
  r?.unmount();
  r = undefined;
});

function app(opts: { session?: ReturnType<typeof scripted>; columns?: number; rows?: number; theme?: Theme } = {}) {
  const exits: number[] = [];
  const services = fakeServices({ session: opts.session ? () => opts.session!.start : undefined });
  r = render(
    <App services={services} defaults={defaults} onExit={(c) => exits.push(c)} theme={opts.theme ?? colourTheme} throttleMs={10} />,
    {
      columns: opts.columns ?? 100,
      rows: opts.rows ?? 40,
    },
  );
  return { r, exits };
}

describe('Host screen', () => {
  it('shows the simulated host and changes GPU type and count with the keys', async () => {
    const { r } = app();
    await r.waitForFrame('no NVIDIA GPU found');
    expect(r.frame()).toContain('[H100]');
    expect(r.frame()).toMatch(/sglang\s+0\.5\.2\s+native/);
    expect(r.frame()).toContain("not found: 'vllm' is not on PATH");
    expect(r.frame()).toContain('123 GB free');
    await r.press('down');
    await r.waitForFrame('[H200]');
    await r.press('right');
    await r.waitForFrame('‹ 2 ›');
    await r.press('left');
    await r.waitForFrame('‹ 1 ›');
    // The footer is the keymap's help for this screen.
    expect(r.frame()).toMatch(/↑↓ GPU type\s+←→ GPU count\s+enter next\s+q quit/);
  });

  it("wraps a long engine note under its own column at 80 columns, not under the engine's name", async () => {
    const long = {
      ...simHost,
      engines: [
        {
          engine: 'sglang' as const,
          installed: false,
          runtime: 'native' as const,
          detail: "Python package 'sglang' is not installed in /root/.pyenv/shims/python3 (pip install sglang)",
        },
      ],
    };
    r = render(
      <HostScreen
        host={long}
        gpuType="H100"
        gpuCount={1}
        onGpuStep={() => {}}
        onCountStep={() => {}}
        onNext={() => {}}
        onQuit={() => {}}
      />,
      { columns: 80, rows: 24 },
    );
    const f = await r.waitForFrame('not found:');
    const lines = f.split('\n');
    const at = lines.findIndex((l) => l.includes('not found:'));
    const column = lines[at]!.indexOf('not found:');
    expect(lines[at + 1]!.trim()).not.toBe('');
    expect(lines[at + 1]!.search(/\S/)).toBe(column);
    expect(overflowingLines(f, 80)).toEqual([]);
  });

  it('groups identical real GPUs and hides the simulated-host keys', async () => {
    r = render(
      <HostScreen
        host={realHost}
        gpuType="H100"
        gpuCount={1}
        onGpuStep={() => {}}
        onCountStep={() => {}}
        onNext={() => {}}
        onQuit={() => {}}
      />,
    );
    await r.waitForFrame('8 x NVIDIA H200');
    expect(r.frame()).toContain('[0,1,2,3,4,5,6,7]');
    expect(r.frame()).toContain('vllm/vllm-openai:v0.11.0');
    expect(r.frame()).not.toContain('GPU count');
  });
});

describe('Model screen', () => {
  it('edits the model, shows what its config says, and blocks Enter while the form is wrong', async () => {
    const { r } = app();
    await r.waitForFrame('no NVIDIA GPU found');
    await r.press('enter');
    await r.waitForFrame('2/6 Model and workload');
    expect(r.frame()).toContain('Qwen3ForCausalLM · 14.8B params · dense');
    expect(r.frame()).toMatch(/bf16 29\.6 GB\s+fp8 14\.9 GB/);
    for (let i = 0; i < 'Qwen/Qwen3-14B'.length; i++) await r.press('backspace');
    await r.waitForFrame('give a model id or a local path');
    await r.press('enter');
    expect(r.frame()).toContain('2/6 Model and workload');
    await r.type('my/model');
    await r.waitForFrame("unknown model 'my/model'");
    // 'q' typed into a text field is text, not quit.
    await r.type('q');
    await r.waitForFrame('my/modelq');
    await r.press('ctrl+r');
    await r.waitForFrame('14.8B params');
    // A burst of backspaces arriving as one chunk erases as many characters.
    await r.type('\x7f\x7f\x7f');
    await r.waitForFrame('Qwen/Qwen3-▏');
  });

  it('moves between fields and switches choices with the arrows', async () => {
    const { r } = app();
    await r.waitForFrame('no NVIDIA GPU found');
    await r.press('enter');
    await r.waitForFrame('Input tokens');
    await r.press('down');
    await r.waitForFrame('‹ random ›');
    await r.press('right');
    await r.waitForFrame('‹ sharegpt ›');
    expect(r.frame()).toContain('ShareGPT path');
    expect(r.frame()).not.toContain('Input tokens');
    await r.press('escape');
    await r.waitForFrame('1/6 Host');
  });
});

describe('Plan screen', () => {
  function plan1(props: Partial<React.ComponentProps<typeof PlanScreen>> = {}) {
    const toggled: string[][] = [];
    const moves: number[] = [];
    let next = 0;
    r = render(
      <ThemeContext.Provider value={colourTheme}>
        <PlanScreen
          plan={plan}
          focus={1}
          disabled={[]}
          onMove={(d) => moves.push(d)}
          onToggle={(ids) => toggled.push(ids)}
          onNext={() => next++}
          onBack={() => {}}
          onQuit={() => {}}
          width={100}
          height={30}
          {...props}
        />
      </ThemeContext.Provider>,
    );
    return { toggled, moves, next: () => next };
  }

  it('lists stages and variants with estimates, pruned reasons, the caveat and the focused command', async () => {
    plan1();
    const f = await r!.waitForFrame('3/6 Plan');
    expect(f).toContain('3 variants · est. 4m00s');
    expect(f).toMatch(/› \s*\[x\] vllm defaults\s+1m30s\s+~9,000 tok\/s \+-17%/);
    // A prediction without a measured error (sglang's row here) shows none.
    expect(f).toMatch(/sglang defaults\s+1m20s\s*\n/);
    expect(f).toMatch(/\[-\] sglang int4\s+pruned: no AWQ checkpoint for this model/);
    expect(f).toContain('parallelism skipped: single GPU');
    expect(f).toContain('finds a local optimum');
    expect(f).toContain('$ vllm serve Qwen/Qwen3-14B --port 8000');
  });

  it("says 'not launched' (not 'pruned') for a variant that is the same server as one measured", async () => {
    const reason = 'same server as sglang-fp8ckpt (SGLang 0.5.5 picks fa3 on Hopper by default): not launched, its measurement is reused';
    const same = {
      ...plan,
      stages: plan.stages.map((st) =>
        st.name !== 'quantization'
          ? st
          : { ...st, variants: [st.variants[0]!, { ...st.variants[1]!, pruned: reason, notRun: 'not launched' as const }] },
      ),
    };
    plan1({ plan: same });
    const f = await r!.waitForFrame('3/6 Plan');
    expect(f).toMatch(/\[-\] sglang int4\s+not launched: same server as sglang-fp8ckpt/);
    expect(f).not.toMatch(/pruned: same server/);
  });

  it('toggles the focused variant, a whole stage, and starts with Enter', async () => {
    const p = plan1();
    await r!.waitForFrame('3/6 Plan');
    await r!.press('space');
    await r!.press('t');
    await r!.press('down');
    await r!.press('enter');
    expect(p.toggled).toEqual([['vllm'], ['vllm', 'sglang']]);
    expect(p.moves).toEqual([1]);
    expect(p.next()).toBe(1);
  });

  it('will not start with every first-stage candidate unchecked', async () => {
    const p = plan1({ disabled: ['vllm', 'sglang'] });
    await r!.waitForFrame('check at least one engine candidate: the first stage sets the baseline');
    await r!.press('enter');
    expect(p.next()).toBe(0);
  });

  it('says what to do when nothing in the first stage can run on this host', async () => {
    const reason = 'does not fit in GPU memory: weights need 657.13 GiB per GPU';
    const allPruned = {
      ...plan,
      stages: [{ name: 'engine', variants: plan.stages[0]!.variants.map((v) => ({ ...v, pruned: reason })) }, ...plan.stages.slice(1)],
    };
    const p = plan1({ plan: allPruned });
    await r!.waitForFrame('no engine candidate can run on this host');
    expect(r!.frame()).toContain('esc to go back');
    expect(r!.frame()).not.toContain('check at least one');
    await r!.press('enter');
    expect(p.next()).toBe(0);
  });

  it('does not toggle a pruned variant and shows unchecked ones in the total', async () => {
    const p = plan1({ focus: 5, disabled: ['sglang'] });
    const f = await r!.waitForFrame('3/6 Plan');
    expect(f).toContain('2 variants · est. 2m40s');
    expect(f).toMatch(/\[ \] sglang defaults/);
    await r!.press('space');
    expect(p.toggled).toEqual([[]]);
  });
});

describe('the wizard end to end on a scripted session', () => {
  async function toRun(opts: Parameters<typeof app>[0] = {}) {
    const session = scripted(sessionEvents());
    const a = app({ session, ...opts });
    await a.r.waitForFrame('no NVIDIA GPU found');
    await a.r.press('enter');
    await a.r.waitForFrame('2/6 Model');
    await a.r.press('enter');
    await a.r.waitForFrame('3/6 Plan');
    await a.r.press('enter');
    await a.r.waitForFrame('4/6 Run');
    return { ...a, session };
  }

  it('draws the lifecycle, the live panels and the leaderboard, then results and save', async () => {
    const { r, session, exits } = await toRun();
    session.next(4);
    let f = await r.waitForFrame('launching');
    expect(f).toContain('port 8100');
    expect(f).toContain('INFO loading weights');
    session.next(3);
    f = await r.waitForFrame('benchmarking');
    expect(f).toMatch(/out\s+\S+\s+1,000 tok\/s\s+total\s+\S+\s+3,000 tok\/s/);
    expect(f).toMatch(/TTFT\s+120ms\s+340ms/);
    expect(f).toMatch(/10\/40\s+25\.0%\s+ETA \d/);
    session.upTo((e) => e.type === 'stage-finished');
    f = await r.waitForFrame('── stage engine: winner sglang defaults (+11.1%) ──');
    expect(f).toMatch(/✓ engine\s+vllm defaults\s+9,000 tok\/s\s+TTFT 100ms\s+TPOT 20\.0ms\s+up 31s/);
    session.rest();
    f = await r.waitForFrame('Tuning finished.');
    expect(f).toMatch(/✗ quantization\s+sglang-kvfp8\s+oom: CUDA out of memory/);
    expect(f).toContain('enter results');
    await r.press('enter');
    f = await r.waitForFrame('5/6 Results');
    expect(f).toContain('[engine]');
    expect(f).toMatch(/\* sglang defaults\s+10,000\s+\+11\.1%/);
    expect(f).toMatch(/  vllm defaults\s+9,000\s+ref/);
    expect(f).toContain('$ python3 -m sglang.launch_server --model-path Qwen/Qwen3-14B');
    await r.press('right');
    f = await r.waitForFrame('[quantization]');
    expect(f).toMatch(/\* sglang fp8 checkpoint\s+12,000\s+\+20\.0%/);
    expect(f).toContain('sglang-kvfp8: oom: CUDA out of memory; lower mem fraction');
    await r.press('right');
    f = await r.waitForFrame('[validation]');
    expect(f).toMatch(/sharegpt-like\s+9,000\s+25\.0ms\s+12,000\s+18\.0ms\s+\+33\.3%/);
    await r.press('enter');
    f = await r.waitForFrame('6/6 Save');
    expect(f).toContain('profiles/qwen3-14b-h100x1.json');
    expect(f).toContain('$ npx servelab replay profiles/qwen3-14b-h100x1.json --sim');
    await r.press('enter');
    await expect.poll(() => exits).toEqual([0]);
  });

  it('forwards skip and stop-after-stage, toggles the log, and aborts with x', async () => {
    const { r, session } = await toRun();
    session.next(7);
    await r.waitForFrame('benchmarking');
    await r.press('s');
    await r.waitForFrame('skipping this variant');
    await r.press('t');
    await r.waitForFrame('will stop after this stage');
    await r.press('l');
    await r.waitForFrame('INFO loading weights');
    await r.press('l');
    await r.waitForFrame('tok/s');
    expect(session.calls).toEqual(['skip:vllm', 'stop-after-stage']);
    await r.press('x');
    const f = await r.waitForFrame('Aborted; finished variants are kept in the journal.');
    expect(session.aborted).toBe(true);
    // The abort is done: the in-flight notes are gone.
    expect(f).not.toContain('aborting: stopping the server first');
    expect(f).not.toContain('will stop after this stage');
  });

  it('Ctrl+C on the Run screen stops the session before exiting with 130', async () => {
    const { r, session, exits } = await toRun();
    session.next(5);
    await r.waitForFrame('ready');
    await r.press('ctrl+c');
    await expect.poll(() => exits).toEqual([130]);
    expect(session.calls).toEqual(['abort']);
    await session.done;
  });

  it('aborts the session when the app is unmounted mid-run, so no server outlives the UI', async () => {
    const { r, session } = await toRun();
    session.next(5);
    await r.waitForFrame('ready');
    r.unmount();
    expect(session.aborted).toBe(true);
    await session.done;
  });

  it('fits 80x24 on every screen, and reflows when the terminal grows', async () => {
    const { r, session } = await toRun({ columns: 80, rows: 24 });
    session.next(7);
    let f = await r.waitForFrame('benchmarking');
    expect(overflowingLines(f, 80)).toEqual([]);
    expect(f.split('\n').length).toBeLessThan(24);
    r.resize(200, 50);
    await r.waitForFrame((fr) => fr.split('\n').some((l) => l.length > 80));
    session.rest();
    await r.waitForFrame('Tuning finished.');
    r.resize(80, 24);
    await r.press('enter');
    f = await r.waitForFrame('5/6 Results');
    const live = f.slice(f.indexOf('servelab · 5/6'));
    expect(overflowingLines(live, 80)).toEqual([]);
    expect(live.split('\n').length).toBeLessThan(24);
  });
});

describe('exits and waits', () => {
  it('goes on from Host when Enter was pressed before detection finished', async () => {
    let resolveHost!: (h: typeof simHost) => void;
    const services = fakeServices({ detectHost: () => new Promise((res) => (resolveHost = res)) });
    r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} />);
    await r.waitForFrame('Looking for GPUs and engines');
    await r.press('enter');
    expect(r.frame()).toContain('1/6 Host');
    resolveHost(simHost);
    await r.waitForFrame('2/6 Model and workload');
  });

  it('shows a detection error on the Host screen', async () => {
    const services = fakeServices({
      detectHost: async () => Promise.reject(new Error('nvidia-smi failed: driver mismatch; run with --sim')),
    });
    r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} />);
    await r.waitForFrame('nvidia-smi failed: driver mismatch; run with --sim');
  });

  it('exits 0 on q and 130 on Ctrl+C before anything runs', async () => {
    const a = app();
    await a.r.waitForFrame('no NVIDIA GPU found');
    await a.r.press('q');
    await expect.poll(() => a.exits).toEqual([0]);
    a.r.unmount();
    const b = app();
    await b.r.waitForFrame('no NVIDIA GPU found');
    await b.r.press('enter');
    await b.r.waitForFrame('2/6 Model');
    await b.r.press('ctrl+c');
    await expect.poll(() => b.exits).toEqual([130]);
  });

  it('shows a plan error and stays on the Plan screen', async () => {
    const services = fakeServices({ plan: async () => Promise.reject(new Error("unknown scenario 'x'")) });
    r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} />);
    await r.waitForFrame('no NVIDIA GPU found');
    await r.press('enter');
    await r.waitForFrame('2/6 Model');
    await r.press('enter');
    await r.waitForFrame("unknown scenario 'x'");
    await r.press('enter');
    expect(r.frame()).toContain('3/6 Plan');
    await r.press('escape');
    await r.waitForFrame('2/6 Model');
  });
});

describe('after an aborted run', () => {
  it('marks kept and skipped stages in the leaderboard, pages results at 80x24, and says nothing was saved', async () => {
    const events = sessionEvents().slice(0, 11);
    events.push(
      { type: 'stage-started', stage: 'parallelism', index: 1, variants: [], carriedId: 'sglang' },
      stageDone('parallelism', 'sglang', null, { carriedId: 'sglang', referenceId: null, baselineId: 'vllm' }),
      { type: 'stage-started', stage: 'quantization', index: 2, variants: ['sglang-fp8ckpt'], carriedId: 'sglang' },
      { type: 'variant-finished', result: result('sglang-fp8ckpt', 'quantization', 9_500) },
      stageDone('quantization', 'sglang', -5, { carriedId: 'sglang', baselineId: 'vllm', gains: { 'sglang-fp8ckpt': -5 } }),
      { type: 'warning', message: 'never sent: the session is still running when the user aborts' },
    );
    const session = scripted(events);
    const a = app({ session, columns: 80, rows: 24 });
    await a.r.waitForFrame('no NVIDIA GPU found');
    await a.r.press('enter');
    await a.r.waitForFrame('2/6 Model');
    await a.r.press('enter');
    await a.r.waitForFrame('3/6 Plan');
    await a.r.press('enter');
    await a.r.waitForFrame('4/6 Run');
    session.next(events.length - 1);
    let f = await a.r.waitForFrame('── stage quantization: sglang defaults stays ──');
    expect(f).toContain('── stage parallelism: skipped (single GPU: nothing to parallelise) ──');
    await a.r.press('x');
    f = await a.r.waitForFrame('Aborted; finished variants are kept in the journal.');
    await a.r.press('enter');
    f = await a.r.waitForFrame('5/6 Results');
    expect(f).toContain('[engine]  quantization   validation');
    await a.r.press('right');
    f = await a.r.waitForFrame('[quantization]');
    expect(f).toContain('sglang defaults (carried in) stays');
    // Cut to the label column at 80 (GPU-h and the status take their room); the mark says so.
    expect(f).toMatch(/sglang fp8 check…\s+9,500\s+-5\.0%/);
    await a.r.press('enter');
    f = await a.r.waitForFrame('6/6 Save');
    expect(f).toContain('No profile was saved (aborted).');
    expect(f).toContain('Continue it:');
    expect(f).toContain('$ npx servelab --resume servelab-runs/x');
    expect(overflowingLines(f.slice(f.indexOf('servelab · 6/6')), 80)).toEqual([]);
  });
});

describe('redraw throttling', () => {
  it('batches a burst of events into a few frames and keeps the newest numbers', async () => {
    const burst = sessionEvents().slice(0, 6);
    for (let i = 1; i <= 500; i++) burst.push({ type: 'bench-progress', variantId: 'vllm', snapshot: snapshot(Math.min(40, i), i) });
    burst.push({ type: 'warning', message: 'still running' });
    const session = scripted(burst);
    const services = fakeServices({ session: () => session.start });
    r = render(<App services={services} defaults={defaults} onExit={() => {}} theme={colourTheme} />);
    await enterRun(r);
    const before = r.frames().length;
    session.next(burst.length - 1);
    await r.waitForFrame(/500 tok\/s/);
    // 506 events, drawn at the throttle's pace: a handful of frames, not one per event.
    expect(r.frames().length - before).toBeLessThan(20);
  });
});
