// The kit's widgets (src/tui/widgets): each reducer on its own, then each widget rendered and
// driven by keys as a user would, through the project's render wrapper.
import React, { useReducer, useState } from 'react';
import { Box, Text } from 'ink';
import { afterEach, describe, expect, it } from 'vitest';
import { Checklist } from '../../../src/tui/widgets/checklist/Checklist.js';
import { checklistReducer, checklistWindow, initialChecklist } from '../../../src/tui/widgets/checklist/state.js';
import { useChecklist } from '../../../src/tui/widgets/checklist/use-checklist.js';
import { FittedTable, PageTabs } from '../../../src/tui/widgets/paged-table/PagedTable.js';
import { fitBlocks, fitRows, pageStep } from '../../../src/tui/widgets/paged-table/state.js';
import { usePagedTable } from '../../../src/tui/widgets/paged-table/use-paged-table.js';
import { TextField } from '../../../src/tui/widgets/text-field/TextField.js';
import {
  atEnd,
  textFieldReducer,
  visibleSlice,
  type TextFieldAction,
  type TextFieldState,
} from '../../../src/tui/widgets/text-field/state.js';
import { useTextField } from '../../../src/tui/widgets/text-field/use-text-field.js';
import { ModelScreen } from '../../../src/screens/ModelScreen.js';
import { initialWizard, wizardReducer } from '../../../src/tui/state/wizard.js';
import { colourTheme, ThemeContext } from '../../../src/tui/base/theme.js';
import { checkForm } from '../../../src/tui/services/form.js';
import { render, type Rendered } from '../../helpers/render.js';
import { form, qwen } from '../../helpers/tui/fixtures.js';

let r: Rendered | undefined;
afterEach(() => {
  r?.unmount();
  r = undefined;
});

const edits = (s: TextFieldState, ...actions: TextFieldAction['type'][]) =>
  actions.reduce((acc, type) => textFieldReducer(acc, { type } as TextFieldAction), s);

describe('text field reducer (readline keys)', () => {
  it('inserts and erases at the cursor, and moves it with the arrows, Ctrl-A and Ctrl-E', () => {
    let s = atEnd('Qwen3');
    s = edits(s, 'left', 'left');
    expect(s.cursor).toBe(3);
    s = textFieldReducer(s, { type: 'insert', text: '/x' });
    expect(s).toEqual({ value: 'Qwe/xn3', cursor: 5 });
    s = edits(s, 'delete-back');
    expect(s).toEqual({ value: 'Qwe/n3', cursor: 4 });
    s = edits(s, 'delete-forward');
    expect(s).toEqual({ value: 'Qwe/3', cursor: 4 });
    expect(edits(s, 'start').cursor).toBe(0);
    expect(edits(s, 'start', 'end').cursor).toBe(5);
    // Nothing moves past either end, and erasing at an end is a no-op.
    expect(edits(s, 'start', 'left', 'delete-back')).toEqual({ value: 'Qwe/3', cursor: 0 });
    expect(edits(s, 'end', 'right', 'delete-forward')).toEqual({ value: 'Qwe/3', cursor: 5 });
  });

  it('Ctrl-W erases the word before the cursor (through trailing spaces), Ctrl-U and Ctrl-K to either end', () => {
    const s = atEnd('ttft:p99<2000 tpot:mean<100  ');
    const w = edits(s, 'kill-word');
    expect(w).toEqual({ value: 'ttft:p99<2000 ', cursor: 14 });
    expect(edits(w, 'kill-word')).toEqual({ value: '', cursor: 0 });
    const mid = { value: 'abc def', cursor: 5 };
    expect(edits(mid, 'kill-word')).toEqual({ value: 'abc ef', cursor: 4 });
    expect(edits(mid, 'kill-start')).toEqual({ value: 'ef', cursor: 0 });
    expect(edits(mid, 'kill-end')).toEqual({ value: 'abc d', cursor: 5 });
  });

  it('counts code points, and scrolls a long value so the cursor stays in view', () => {
    expect(edits(atEnd('naïve😀'), 'left', 'delete-back')).toEqual({ value: 'naïv😀', cursor: 4 });
    expect(edits(atEnd('naïve😀'), 'left', 'left', 'left', 'delete-back')).toEqual({ value: 'nave😀', cursor: 2 });
    const long = { value: 'abcdefghijklmnopqrstuvwxyz', cursor: 26 };
    const end = visibleSlice(long, 10);
    expect(end.text).toBe('rstuvwxyz');
    expect(end.cursor).toBe(9);
    const start = visibleSlice({ ...long, cursor: 0 }, 10);
    expect(start).toEqual({ text: 'abcdefghij', cursor: 0 });
    expect(visibleSlice({ ...long, cursor: 13 }, 10).cursor).toBeLessThan(10);
  });
});

describe('checklist reducer and window', () => {
  it('moves within bounds and toggles items or whole groups', () => {
    let s = checklistReducer(initialChecklist, { type: 'move', dir: -1, total: 5 });
    expect(s.focus).toBe(0);
    for (let i = 0; i < 9; i++) s = checklistReducer(s, { type: 'move', dir: 1, total: 5 });
    expect(s.focus).toBe(4);
    s = checklistReducer(s, { type: 'toggle', ids: ['a'] });
    expect(s.disabled).toEqual(['a']);
    // A group with any item off turns all on; then all off.
    s = checklistReducer(s, { type: 'toggle', ids: ['a', 'b'] });
    expect(s.disabled).toEqual([]);
    s = checklistReducer(s, { type: 'toggle', ids: ['a', 'b'] });
    expect([...s.disabled].sort()).toEqual(['a', 'b']);
  });

  it('keeps the focus inside a window that fits the height, the "more" lines included', () => {
    expect(checklistWindow(5, 4, 8)).toEqual({ from: 0, to: 5, above: 0, below: 0 });
    expect(checklistWindow(30, 0, 8)).toEqual({ from: 0, to: 7, above: 0, below: 23 });
    expect(checklistWindow(30, 29, 8)).toEqual({ from: 23, to: 30, above: 23, below: 0 });
    for (let focus = 0; focus < 30; focus++) {
      const w = checklistWindow(30, focus, 8);
      expect(focus).toBeGreaterThanOrEqual(w.from);
      expect(focus).toBeLessThan(w.to);
      expect(w.to - w.from + (w.above ? 1 : 0) + (w.below ? 1 : 0)).toBeLessThanOrEqual(8);
      expect(w.above).toBe(w.from);
      expect(w.below).toBe(30 - w.to);
    }
  });
});

describe('paged table state', () => {
  it('pages stop at both ends', () => {
    expect(pageStep(0, -1, 3)).toBe(0);
    expect(pageStep(1, 1, 3)).toBe(2);
    expect(pageStep(2, 1, 3)).toBe(2);
    expect(pageStep(0, 1, 0)).toBe(0);
  });

  it('fits rows to the room, keeping a line to say how many were cut', () => {
    const rows = Array.from({ length: 10 }, (_, i) => i);
    expect(fitRows(rows, 10)).toEqual({ rows, hidden: 0 });
    expect(fitRows(rows, 4)).toEqual({ rows: [0, 1, 2], hidden: 7 });
    expect(fitRows(rows, 0)).toEqual({ rows: [0], hidden: 9 });
    const blocks = [['a1', 'a2'], ['b1'], ['c1', 'c2']];
    expect(fitBlocks(blocks, 9, (n) => `+${n}`)).toEqual(['a1', 'a2', 'b1', 'c1', 'c2']);
    expect(fitBlocks(blocks, 4, (n) => `+${n}`)).toEqual(['a1', 'a2', 'b1', '+1']);
  });
});

function FieldHarness({ initial }: { initial: string }): React.JSX.Element {
  const [state, dispatch] = useReducer(textFieldReducer, atEnd(initial));
  useTextField(dispatch, { isActive: true });
  return (
    <Box>
      <TextField state={state} width={40} focused />
      <Text>{`|${state.value}|${state.cursor}`}</Text>
    </Box>
  );
}

function ChecklistHarness(): React.JSX.Element {
  const items = Array.from({ length: 20 }, (_, i) => `item ${i}`);
  const [s, dispatch] = useReducer(checklistReducer, initialChecklist);
  useChecklist('plan', {
    onMove: (dir) => dispatch({ type: 'move', dir, total: items.length }),
    onToggle: () => dispatch({ type: 'toggle', ids: [items[s.focus]!] }),
  });
  return (
    <Checklist
      rows={items}
      focus={s.focus}
      height={6}
      rowKey={(row) => row}
      renderRow={(row, focused) => <Text>{`${focused ? '>' : ' '} ${s.disabled.includes(row) ? '[ ]' : '[x]'} ${row}`}</Text>}
    />
  );
}

function PagerHarness(): React.JSX.Element {
  const pages = [Array.from({ length: 8 }, (_, i) => ({ name: `a${i}` })), [{ name: 'b0' }]];
  const [page, setPage] = useState(0);
  usePagedTable('results', (dir) => setPage((p) => pageStep(p, dir, pages.length)));
  return (
    <Box flexDirection="column">
      <PageTabs names={['engine', 'compile']} page={page} width={60} />
      <FittedTable
        columns={[{ key: 'n', header: 'name', width: 6, render: (r) => r.name }]}
        rows={pages[page]!}
        room={4}
        rowKey={(r) => r.name}
        moreText="more rows in the report"
      />
    </Box>
  );
}

describe('widgets on screen', () => {
  it('text field: typing, Ctrl-A, arrows, Ctrl-W and Ctrl-U edit where the cursor is', async () => {
    r = render(<FieldHarness initial="Qwen/Qwen3-14B" />);
    await r.waitForFrame('|Qwen/Qwen3-14B|14');
    await r.press('ctrl+w');
    await r.waitForFrame('||0');
    await r.type('meta-llama/Llama-3.1-8B');
    // At the end the cursor is a bar after the text.
    await r.waitForFrame('meta-llama/Llama-3.1-8B▏|meta-llama/Llama-3.1-8B|23');
    await r.press('ctrl+a');
    await r.press('right');
    await r.press('right');
    await r.press('right');
    await r.press('right');
    await r.waitForFrame('|meta-llama/Llama-3.1-8B|4');
    await r.press('backspace');
    await r.waitForFrame('|met-llama/Llama-3.1-8B|3');
    await r.press('ctrl+e');
    await r.press('left');
    await r.press('ctrl+u');
    let f = await r.waitForFrame('|B|0');
    // Inside the text the cursor sits on a character (drawn inverse), so nothing is appended.
    expect(f).toContain('B|B|0');
    expect(f).not.toContain('▏');
    // Keys that arrive in one chunk (Ctrl-E, Ctrl-U, text, Backspace, text) act in turn.
    await r.type('\x05\x15ab\x7fc');
    f = await r.waitForFrame('|ac|2');
    expect(f).toContain('ac▏|ac|2');
  });

  it('checklist: scrolls to keep the focus in view and toggles the focused row', async () => {
    r = render(<ChecklistHarness />);
    let f = await r.waitForFrame('> [x] item 0');
    expect(f).toContain('↓ 15 more');
    for (let i = 0; i < 10; i++) await r.press('down');
    f = await r.waitForFrame('> [x] item 10');
    expect(f).toMatch(/↑ \d+ more/);
    expect(f).toMatch(/↓ \d+ more/);
    expect(f).not.toContain('item 0\n');
    await r.press('space');
    await r.waitForFrame('> [ ] item 10');
    for (let i = 0; i < 15; i++) await r.press('down');
    f = await r.waitForFrame('> [x] item 19');
    expect(f).not.toContain('↓');
  });

  it('paged table: cuts a long page with a count, and pages with the arrows', async () => {
    r = render(<PagerHarness />);
    let f = await r.waitForFrame('[engine]');
    expect(f).toContain('a2');
    expect(f).not.toContain('a3');
    expect(f).toContain('… 5 more rows in the report');
    await r.press('right');
    f = await r.waitForFrame('[compile]');
    expect(f).toContain('b0');
    expect(f).not.toContain('more rows');
    await r.press('right');
    await r.press('left');
    await r.waitForFrame('[engine]');
  });
});

function ModelHarness(): React.JSX.Element {
  const [w, dispatch] = useReducer(wizardReducer, initialWizard({ gpuType: 'H100', gpuCount: 1, form }));
  return (
    <ThemeContext.Provider value={colourTheme}>
      <ModelScreen
        wizard={w}
        dispatch={dispatch}
        model={qwen}
        recent={[]}
        problems={checkForm(w.form)}
        onNext={() => {}}
        onBack={() => {}}
        onQuit={() => {}}
        width={80}
      />
      <Text>{`value=${w.form.model} prompts=${w.form.numPrompts} scenario=${w.form.scenario}`}</Text>
    </ThemeContext.Provider>
  );
}

describe('the Model screen uses the text field', () => {
  it('edits the model with readline keys, keeps arrows for the cursor, and q is typed, not quit', async () => {
    r = render(<ModelHarness />, { columns: 80, rows: 30 });
    await r.waitForFrame('value=Qwen/Qwen3-14B');
    await r.press('left');
    await r.press('left');
    await r.press('left');
    await r.type('q');
    await r.waitForFrame('value=Qwen/Qwen3-q14B');
    await r.press('ctrl+a');
    await r.type('x');
    await r.waitForFrame('value=xQwen/Qwen3-q14B');
    await r.press('ctrl+w');
    await r.waitForFrame('value=Qwen/Qwen3-q14B');
    await r.press('ctrl+e');
    await r.press('ctrl+u');
    await r.waitForFrame('value= prompts');
    // On a choice field the arrows choose again (random -> sharegpt).
    await r.press('down');
    await r.waitForFrame('› Scenario');
    await r.press('right');
    await r.waitForFrame(/scenario=sharegpt$/m);
    // Number fields keep digits only, at the cursor.
    await r.press('down');
    await r.press('down');
    await r.waitForFrame('› Prompts');
    await r.press('ctrl+a');
    await r.type('1x');
    await r.waitForFrame('prompts=140');
  });
});
