import { describe, expect, it } from 'vitest';
import { applyEvent, initialRunState, runReducer, type RunState } from '../../../src/tui/state/run.js';
import { etaSeconds, HISTORY_MAX, LOG_TAIL_MAX } from '../../../src/tui/state/live.js';
import { focusedField, initialWizard, visibleFields, wizardReducer } from '../../../src/tui/state/wizard.js';
import { finalWinner, stageTables, validationRows } from '../../../src/tui/state/results.js';
import { burstKeyNames, helpItems, KEYMAP, resolveKey } from '../../../src/tui/base/keymap.js';
import { form, result, sessionEvents, snapshot, stageDone } from '../../helpers/tui/fixtures.js';

const feed = (events = sessionEvents(), upTo = events.length): RunState =>
  runReducer(runReducer(initialRunState, { type: 'started', now: 0 }), { type: 'events', events: events.slice(0, upTo), now: 1000 });

describe('run reducer', () => {
  it('follows a variant through its lifecycle', () => {
    const ev = sessionEvents();
    let s = feed(ev, 3);
    expect(s.current?.phase).toBe('launching');
    expect(s.current?.port).toBe(8100);
    s = feed(ev, 5);
    expect(s.current?.phase).toBe('ready');
    expect(s.current?.startupS).toBe(31);
    expect(s.current?.logTail).toEqual(['INFO loading weights']);
    s = feed(ev, 7);
    expect(s.current?.phase).toBe('bench');
    expect(s.current?.snapshot?.completed).toBe(10);
    expect(s.current?.outHistory).toEqual([1000]);
    s = feed(ev, 8);
    expect(s.current).toBeUndefined();
    expect(s.results.map((r) => r.variantId)).toEqual(['vllm']);
    expect(s.staticItems).toHaveLength(1);
  });

  it('files a whole session: stages, winners, validation, outcome', () => {
    const s = feed();
    expect(s.status).toBe('finished');
    expect(s.stages.map((x) => [x.name, x.winnerId, x.done])).toEqual([
      ['engine', 'sglang', true],
      ['quantization', 'sglang-fp8ckpt', true],
    ]);
    expect(s.staticItems.map((i) => i.kind)).toEqual(['variant', 'variant', 'stage', 'variant', 'variant', 'stage']);
    expect(s.validation?.done).toBe(true);
    expect(s.outcome).toEqual({ profilePath: 'profiles/qwen3-14b-h100x1.json', reportPath: 'profiles/qwen3-14b-h100x1.md', exitCode: 0 });
  });

  it('keeps history and log buffers bounded', () => {
    let s = feed(sessionEvents(), 6);
    const n = Math.max(HISTORY_MAX, LOG_TAIL_MAX) + 50;
    for (let i = 0; i < n; i++) {
      s = applyEvent(s, { type: 'bench-progress', variantId: 'vllm', snapshot: snapshot(1, i) }, 0);
      s = applyEvent(s, { type: 'server-log', variantId: 'vllm', line: `line ${i}`, stream: 'stderr' }, 0);
    }
    expect(s.current!.outHistory).toHaveLength(HISTORY_MAX);
    expect(s.current!.outHistory.at(-1)).toBe(n - 1);
    expect(s.current!.logTail).toHaveLength(LOG_TAIL_MAX);
    expect(s.current!.logTail.at(-1)).toBe(`line ${n - 1}`);
  });

  it('keeps a variant measured again in a later stage as a row of each stage', () => {
    let s = feed();
    s = applyEvent(s, { type: 'stage-started', stage: 'compile', index: 2, variants: ['sglang-fp8ckpt'] }, 0);
    s = applyEvent(s, { type: 'variant-finished', result: result('sglang-fp8ckpt', 'compile', 12_100) }, 0);
    expect(s.results.filter((r) => r.variantId === 'sglang-fp8ckpt').map((r) => r.stage)).toEqual(['quantization', 'compile']);
  });

  it('files why a stage was skipped and whether the carried winner stayed', () => {
    let s = feed();
    s = applyEvent(
      s,
      { type: 'stage-started', stage: 'parallelism', index: 2, variants: [], carriedId: 'sglang-fp8ckpt', skipped: 'single GPU' },
      0,
    );
    s = applyEvent(
      s,
      stageDone('parallelism', 'sglang-fp8ckpt', null, { carriedId: 'sglang-fp8ckpt', referenceId: null, skipped: 'single GPU' }),
      0,
    );
    const last = s.staticItems.at(-1)!;
    expect(last).toMatchObject({ kind: 'stage', stage: 'parallelism', skipped: 'single GPU', kept: true });
    const engine = s.staticItems.find((i) => i.kind === 'stage' && i.stage === 'engine')!;
    expect(engine).toMatchObject({ kept: false });
  });

  it('ignores events for a variant that is not the current one', () => {
    const s = feed(sessionEvents(), 3);
    const after = applyEvent(s, { type: 'server-ready', variantId: 'other', startupS: 1 }, 0);
    expect(after).toBe(s);
  });

  it('records steering requests and clears a skip when the variant finishes', () => {
    let s = feed(sessionEvents(), 3);
    s = runReducer(s, { type: 'skip-requested', variantId: 'vllm' });
    expect(s.requests.skip).toBe('vllm');
    s = runReducer(s, { type: 'stop-after-stage-requested' });
    s = runReducer(s, { type: 'abort-requested' });
    expect(s.requests).toEqual({ skip: 'vllm', stopAfterStage: true, abort: true });
    s = applyEvent(
      s,
      { type: 'variant-finished', result: result('vllm', 'engine', null, { kind: 'skipped', reason: 'skipped by the user' }) },
      0,
    );
    expect(s.requests.skip).toBeNull();
    expect(s.requests.stopAfterStage).toBe(true);
    // Once the stage ends the stop is done: the Run screen no longer says it will stop.
    s = applyEvent(s, stageDone('engine', 'sglang', 11.1, { referenceId: 'vllm', baselineId: 'vllm' }), 0);
    expect(s.requests.stopAfterStage).toBe(false);
  });

  it('ends an aborted session that never sent session-finished with 130', () => {
    const s = runReducer(feed(sessionEvents(), 4), { type: 'settled', aborted: true });
    expect(s.status).toBe('finished');
    expect(s.outcome?.exitCode).toBe(130);
    expect(runReducer(feed(), { type: 'settled', aborted: false }).outcome?.exitCode).toBe(0);
  });

  it('files a crash as an error and exit 1', () => {
    const s = runReducer(feed(sessionEvents(), 4), { type: 'crashed', message: 'boom' });
    expect(s.errors).toEqual(['boom']);
    expect(s.outcome?.exitCode).toBe(1);
  });

  it('estimates the time left from the pace so far', () => {
    expect(etaSeconds(undefined)).toBeUndefined();
    expect(etaSeconds(snapshot(0, 1))).toBeUndefined();
    expect(etaSeconds(snapshot(10, 1, { elapsedS: 5, total: 40 }))).toBeCloseTo(15);
  });
});

describe('results selectors', () => {
  it('gives each row its gain against the winner carried into the stage', () => {
    const tables = stageTables(feed(), { labels: {}, gpus: 1 });
    expect(tables.map((t) => t.stage)).toEqual(['engine', 'quantization']);
    const [engine, quant] = tables;
    // Engine stage: no carried winner yet, so the reference is the baseline the core named (vllm).
    expect(engine!.rows.map((r) => r.gainPct && Math.round(r.gainPct))).toEqual([0, 11]);
    expect(engine!.rows.map((r) => r.isReference)).toEqual([true, false]);
    expect(engine!.rows[1]!.isWinner).toBe(true);
    expect(quant!.rows.some((r) => r.isReference)).toBe(false);
    expect(quant!.carriedId).toBe('sglang');
    expect(quant!.rows[0]!.gainPct).toBeCloseTo(20);
    expect(quant!.rows[1]!.gainPct).toBeNull();
  });

  it('names later-stage candidates by what they change from the carried winner', () => {
    const labels = { sglang: 'sglang', 'sglang-fp8ckpt': 'sglang fp8-ckpt', 'sglang-kvfp8': 'sglang kv=fp8' };
    const [engine, quant] = stageTables(feed(), { labels, gpus: 1 });
    expect(engine!.rows.map((r) => r.label)).toEqual(['vllm defaults', 'sglang']);
    expect(quant!.rows.map((r) => r.label)).toEqual(['+ fp8-ckpt', '+ kv=fp8']);
    const item = feed().staticItems.find((i) => i.kind === 'variant' && i.result.variantId === 'sglang-kvfp8');
    expect(item).toMatchObject({ carriedId: 'sglang' });
  });

  it('prices a million tokens only when a price is set', () => {
    const unpriced = stageTables(feed(), { labels: {}, gpus: 1 });
    expect(unpriced[0]!.rows[0]!.dollarsPerMtok).toBeNull();
    const priced = stageTables(feed(), { labels: {}, gpus: 1, pricePerGpuHour: 3.6 });
    // $3.6/h = $0.001/s; at 9000 tok/s a million tokens take 111 s.
    expect(priced[0]!.rows[0]!.dollarsPerMtok).toBeCloseTo(0.111, 3);
  });

  it('finds the final winner and the validation rows', () => {
    expect(finalWinner(feed())?.variantId).toBe('sglang-fp8ckpt');
    expect(validationRows(feed())).toEqual([
      {
        scenario: 'sharegpt-like',
        baseline: { totalTokPerS: 9000, meanTpotMs: 25 },
        optimized: { totalTokPerS: 12_000, meanTpotMs: 18 },
        gainPct: 33.3,
      },
    ]);
    expect(validationRows(initialRunState)).toEqual([]);
  });
});

describe('wizard reducer', () => {
  const w0 = initialWizard({ gpuType: 'H100', gpuCount: 1, form });

  it('steps the simulated GPU type and count within bounds', () => {
    let w = wizardReducer(w0, { type: 'gpu-step', types: ['H100', 'H200', 'A100'], dir: 1 });
    expect(w.host.gpuType).toBe('H200');
    w = wizardReducer(w, { type: 'gpu-step', types: ['H100', 'H200', 'A100'], dir: -1 });
    w = wizardReducer(w, { type: 'gpu-step', types: ['H100', 'H200', 'A100'], dir: -1 });
    expect(w.host.gpuType).toBe('A100');
    for (let i = 0; i < 5; i++) w = wizardReducer(w, { type: 'count-step', dir: 1, max: 8 });
    expect(w.host.gpuCount).toBe(8);
    w = wizardReducer(w, { type: 'count-step', dir: -1, max: 8 });
    expect(w.host.gpuCount).toBe(4);
  });

  it('edits the focused text field and ignores letters in number fields', () => {
    let w = wizardReducer(w0, { type: 'backspace' });
    expect(w.form.model).toBe('Qwen/Qwen3-14');
    w = wizardReducer(w, { type: 'type', text: 'B' });
    expect(w.form.model).toBe('Qwen/Qwen3-14B');
    // Focus the prompts field (model, scenario, input, output, prompts).
    for (let i = 0; i < 4; i++) w = wizardReducer(w, { type: 'field-step', dir: 1 });
    expect(focusedField(w).key).toBe('numPrompts');
    w = wizardReducer(w, { type: 'type', text: 'x0' });
    expect(w.form.numPrompts).toBe('400');
  });

  it('switches the scenario with the fields that apply to it', () => {
    let w = wizardReducer(w0, { type: 'field-step', dir: 1 });
    expect(focusedField(w).key).toBe('scenario');
    expect(visibleFields(w.form).map((f) => f.key)).toContain('inputLen');
    w = wizardReducer(w, { type: 'choice-step', dir: 1 });
    expect(w.form.scenario).toBe('sharegpt');
    expect(focusedField(w).key).toBe('scenario');
    expect(visibleFields(w.form).map((f) => f.key)).toEqual([
      'model',
      'scenario',
      'datasetPath',
      'numPrompts',
      'seed',
      'objective',
      'slo',
      'sweep',
      'validation',
      'capacity',
      'quality',
      'qualityFloor',
    ]);
    // Choices are not edited by typing.
    expect(wizardReducer(w, { type: 'type', text: 'z' })).toBe(w);
  });

  it('cycles recent models into the model field', () => {
    let w = wizardReducer(w0, { type: 'recent', models: ['a', 'b'] });
    expect(w.form.model).toBe('a');
    w = wizardReducer(w, { type: 'recent', models: ['a', 'b'] });
    expect(w.form.model).toBe('b');
  });

  it('toggles variants and whole stages', () => {
    let w = wizardReducer(w0, { type: 'plan-toggle', ids: ['a'] });
    expect(w.plan.disabled).toEqual(['a']);
    w = wizardReducer(w, { type: 'plan-toggle', ids: ['a', 'b'] });
    expect(w.plan.disabled).toEqual([]);
    w = wizardReducer(w, { type: 'plan-toggle', ids: ['a', 'b'] });
    expect(w.plan.disabled.sort()).toEqual(['a', 'b']);
    w = wizardReducer(w, { type: 'plan-move', dir: -1, rows: 5 });
    expect(w.plan.focus).toBe(0);
  });
});

describe('keymap', () => {
  it('names each key of a burst that arrived as one input, and leaves single keys alone', () => {
    expect(burstKeyNames('lll')).toEqual(['l', 'l', 'l']);
    expect(burstKeyNames('\r\t \x7f\x03')).toEqual(['enter', 'tab', 'space', 'backspace', 'ctrl+c']);
    expect(burstKeyNames('l')).toBeNull();
    expect(burstKeyNames('\x1b[C')).toBeNull();
  });

  it('resolves a scope key before a global one, and text entry keeps letters', () => {
    expect(resolveKey('run', 's')).toBe('skip');
    expect(resolveKey('run', 'q')).toBe('quit');
    expect(resolveKey('run', 'ctrl+c')).toBe('interrupt');
    expect(resolveKey('model', 'q', { textEntry: true })).toBeUndefined();
    expect(resolveKey('model', 'ctrl+c', { textEntry: true })).toBe('interrupt');
    expect(resolveKey('model', 'enter', { textEntry: true })).toBe('next');
  });

  it('draws the help bar from the same rows, without hidden or unavailable keys', () => {
    const run = helpItems('run');
    expect(run.map((i) => i.label)).toEqual(['↑↓', 's', 't', 'l', 'x', 'enter', 'q']);
    expect(helpItems('run', { without: ['next'] }).map((i) => i.help)).not.toContain('results');
    expect(helpItems('model', { textEntry: true }).map((i) => i.label)).not.toContain('q');
  });

  it('keeps every screen\'s help bar on one line at 80 columns (the Plan bar wrapped "q quit" at 80 x 24)', () => {
    for (const scope of ['host', 'model', 'plan', 'run', 'results', 'save', 'replay', 'view'] as const) {
      // The Footer's layout: label, a space, the help; two columns between items.
      const line = helpItems(scope)
        .map((i) => `${i.label} ${i.help}`)
        .join('  ');
      expect([...line].length, `${scope}: ${line}`).toBeLessThanOrEqual(80);
    }
  });

  it('gives every key one action per scope', () => {
    const seen = new Map<string, string>();
    for (const b of KEYMAP) {
      for (const k of b.keys) {
        const id = `${b.scope}:${k}`;
        expect(seen.get(id), `${id} bound twice`).toBeUndefined();
        seen.set(id, b.action);
      }
    }
  });
});
