import React from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { GpuPanel } from '../../../src/tui/panels/run/GpuPanel.js';
import { Table, fitColumns, pad, type Column } from '../../../src/tui/components/Table.js';
import { relativeLabel, sparkline, wrapLines } from '../../../src/tui/base/format.js';
import { formatCommand } from '../../../src/core/shell-quote.js';
import { render, type Rendered } from '../../helpers/render.js';

let r: Rendered | undefined;
afterEach(() => {
  r?.unmount();
  r = undefined;
});

const gpus = Array.from({ length: 8 }, (_, i) => ({
  index: i,
  name: 'NVIDIA H200',
  utilPct: 90 + i,
  memUsedMiB: 130_000,
  memTotalMiB: 143_771,
}));

describe('Table', () => {
  const cols: Column<{ a: string; n: number }>[] = [
    { key: 'a', header: 'name', width: 6, render: (x) => x.a },
    { key: 'n', header: 'value', width: 7, align: 'right', render: (x) => String(x.n) },
    { key: 'z', header: 'extra', width: 10, render: () => 'z' },
  ];

  it('pads, aligns and cuts cells, and drops right-hand columns that do not fit', async () => {
    r = render(<Table columns={cols} rows={[{ a: 'abcdefghij', n: 42 }]} rowKey={(x) => x.a} maxWidth={15} />);
    const f = await r.waitForFrame('name');
    expect(f.split('\n')).toEqual(['name     value', 'abcde…      42']);
    expect(fitColumns(cols, 100)).toHaveLength(3);
    expect(pad('ab', 4, 'right')).toBe('  ab');
  });
});

describe('GpuPanel', () => {
  it('shows a line per GPU when there is room, one compact line otherwise', async () => {
    r = render(<GpuPanel gpus={gpus} width={80} roomy={false} />);
    let f = await r.waitForFrame('GPU 0:90%');
    expect(f.split('\n')).toHaveLength(2);
    expect(f).toContain('7:97% 127G');
    expect(f.split('\n').every((l) => l.length <= 80)).toBe(true);
    r.unmount();
    r = render(<GpuPanel gpus={gpus} width={120} roomy />);
    f = await r.waitForFrame('GPU7');
    expect(f.split('\n')).toHaveLength(8);
    expect(f).toMatch(/GPU3 \S+\s+93%\s+mem \S+ 127 GiB \/ 140 GiB/);
  });
});

describe('format', () => {
  it('wraps at spaces, cuts long words, and marks what was left out', () => {
    expect(wrapLines('aaa bbb ccc', 7, 3)).toEqual(['aaa bbb', 'ccc']);
    expect(wrapLines('abcdefghij', 4, 3)).toEqual(['abcd', 'efgh', 'ij']);
    expect(wrapLines('aa bb cc dd ee', 5, 2)).toEqual(['aa bb', 'cc d…']);
  });

  it('labels a candidate by its change from the carried winner', () => {
    expect(relativeLabel('sglang fp8 attn=triton', 'sglang fp8')).toBe('+ attn=triton');
    expect(relativeLabel('sglang fp8', 'sglang fp8')).toBe('sglang fp8');
    expect(relativeLabel('vllm defaults', 'sglang fp8')).toBe('vllm defaults');
    // A knob changed rather than added reads as the change and what it replaced.
    expect(relativeLabel('sglang fp8x', 'sglang fp8')).toBe('fp8x (was fp8)');
    expect(relativeLabel('sglang fp8 checkpoint', 'sglang defaults')).toBe('sglang fp8 checkpoint');
    // The carried words may sit anywhere in the candidate's label (a knob added before tp8).
    expect(relativeLabel('vllm fp8-ckpt kv=fp8 tp8', 'vllm fp8-ckpt tp8')).toBe('+ kv=fp8');
    expect(relativeLabel('vllm fp8-ckpt tp4 dp2', 'vllm fp8-ckpt tp8')).toBe('tp4 dp2 (was tp8)');
  });

  it('quotes commands so they can be pasted into a shell', () => {
    expect(formatCommand(['vllm', 'serve', 'a b', "it's"], { VLLM_ATTENTION_BACKEND: 'FLASHINFER' })).toBe(
      `VLLM_ATTENTION_BACKEND=FLASHINFER vllm serve 'a b' 'it'\\''s'`,
    );
  });

  it('draws a sparkline scaled to the window max', () => {
    const ticks = ['0', '1', '2', '3'];
    expect(sparkline([0, 1, 2, 3], 10, ticks)).toBe('0123');
    expect(sparkline([5, 10, 3, 6], 2, ticks)).toBe('13');
    expect(sparkline([], 5, ticks)).toBe('');
  });
});
