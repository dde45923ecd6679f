// The AMD readers of the host model on texts quoted from AMD's CHANGELOG and on the stand-ins'
// documents (test/fixtures/amd-smi, test/fixtures/rocm-smi; each names its source).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { parseAmdSmi, parseAmdSmiProcesses } from '../../../src/host/amd-smi.js';
import { parseRocmSmi, parseRocmSmiPids } from '../../../src/host/rocm-smi.js';
import { mibOf } from '../../../src/host/smi-json.js';

const fixture = (p: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/${p}`, import.meta.url)), 'utf8');

describe('amd-smi', () => {
  it('8 x MI300X (ROCm 6.3 list shape): type, memory, utilisation, power, arch, PCI address', () => {
    const gpus = parseAmdSmi(fixture('amd-smi/8xMI300X/static.json'), fixture('amd-smi/8xMI300X/metric.json'));
    expect(gpus.map((g) => g.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(gpus[0]).toEqual({
      index: 0,
      uuid: '0000:0c:00.0',
      name: 'AMD Instinct MI300X',
      memTotalMiB: 196592,
      memUsedMiB: 180214,
      memFreeMiB: 16378,
      utilPct: 97,
      powerW: 712,
      arch: 'gfx942',
      driverVersion: '6.8.5',
      vendor: 'amd',
    });
    expect(gpus[7]).toMatchObject({ uuid: '0000:df:00.0', memUsedMiB: 283, utilPct: 0, powerW: 132 });
    expect(gpus.some((g) => g.computeCap !== undefined)).toBe(false);
  });

  it("amd-smi 26's {gpu_data: [...]} and a line before the JSON", () => {
    const text = (f: string) => fixture(`amd-smi/rocm7-gpu-data/${f}`);
    const [g] = parseAmdSmi(`a line before the JSON\n${text('static.json')}`, text('metric.json'));
    expect(g).toMatchObject({ index: 0, uuid: '0000:83:00.0', memTotalMiB: 196592, memUsedMiB: 4096, utilPct: 12, powerW: 240 });
  });

  it('without metrics (a VM, an older CLI): the static VRAM size, marked partial', () => {
    const [g] = parseAmdSmi(fixture('amd-smi/8xMI300X/static.json'), '[]');
    expect(g).toMatchObject({ memTotalMiB: 196592, partial: true });
    expect(g!.memUsedMiB).toBeUndefined();
    expect(g!.utilPct).toBeUndefined();
  });

  it('power as the ROCm 6.1.0 CHANGELOG prints `amd-smi metric -p --json`', () => {
    const [g] = parseAmdSmi('[{"gpu": 0, "asic": {"market_name": "N/A"}}]', fixture('amd-smi/changelog/metric-power-6.1.0.json'));
    expect(g).toMatchObject({ index: 0, name: 'AMD GPU 0', powerW: 10, vendor: 'amd' });
  });

  it('processes: the ROCm 6.2.0 CHANGELOG example, and VRAM rather than all memory held', () => {
    expect(parseAmdSmiProcesses(fixture('amd-smi/changelog/process-6.2.0.json'))).toEqual([
      { pid: 420157, gpuIndex: 0, usedMiB: 0 },
      { pid: 420315, gpuIndex: 0, usedMiB: 0 },
    ]);
    const busy = parseAmdSmiProcesses(fixture('amd-smi/8xMI300X/process.json'));
    expect(busy).toEqual([
      { pid: 41573, gpuIndex: 0, usedMiB: 179931 },
      { pid: 41574, gpuIndex: 1, usedMiB: 179931 },
    ]);
    expect(parseAmdSmiProcesses(fixture('amd-smi/rocm7-gpu-data/process.json'))).toEqual([{ pid: 2168274, gpuIndex: 0, usedMiB: 3840 }]);
  });

  it('garbage is a one-line UserError', () => {
    expect(() => parseAmdSmi('Traceback (most recent call last):', '[]')).toThrow(UserError);
    expect(() => parseAmdSmi('{"gpus": 3}', '[]')).toThrow(/cannot read amd-smi static output \(no list of GPUs/);
  });
});

describe('rocm-smi', () => {
  it('8 x MI300X: the labels rocm_smi.py prints, the driver from "system"', () => {
    const gpus = parseRocmSmi(fixture('rocm-smi/8xMI300X/query.json'));
    expect(gpus).toHaveLength(8);
    expect(gpus[0]).toEqual({
      index: 0,
      uuid: '0x18f68e602b8a790f',
      name: 'AMD Instinct MI300X',
      memTotalMiB: 196592,
      memUsedMiB: 180214,
      memFreeMiB: 16378,
      utilPct: 97,
      powerW: 712,
      arch: 'gfx942',
      driverVersion: '6.8.5',
      vendor: 'amd',
    });
    expect(gpus[5]).toMatchObject({ memUsedMiB: 283, utilPct: 0 });
  });

  it('the RX 7900 XT a user quoted: no power, ID or driver, card0 stands for the ID', () => {
    const text = readFileSync(fileURLToPath(new URL('../../fixtures/rocm-smi/rx7900xt/rocm-smi', import.meta.url)), 'utf8');
    const json = text.slice(text.indexOf("<<'JSON'\n") + 9, text.indexOf('\nJSON\n'));
    const [g] = parseRocmSmi(json);
    expect(g).toEqual({
      index: 0,
      uuid: 'card0',
      name: 'Radeon RX 7900 XT',
      memTotalMiB: 20464,
      memUsedMiB: 26,
      memFreeMiB: 20438,
      utilPct: 0,
      arch: 'gfx1100',
      vendor: 'amd',
    });
  });

  it('older labels in lower case ("Card series") read the same', () => {
    const [g] = parseRocmSmi(
      '{"card1": {"Card series": "AMD Instinct MI250X", "VRAM Total Memory (B)": "68719476736"}, "system": {"Driver version": "5.6.0"}}',
    );
    expect(g).toMatchObject({ index: 1, name: 'AMD Instinct MI250X', memTotalMiB: 65536, driverVersion: '5.6.0', partial: true });
  });

  it('--showpids: pid and VRAM, the GPU unknown', () => {
    expect(parseRocmSmiPids('{"system": {"PID41573": "python3, 1, 188671328256, 0, 0", "Driver version": "6.8.5"}}')).toEqual([
      { pid: 41573, usedMiB: 179931 },
    ]);
    expect(() => parseRocmSmiPids('')).toThrow(UserError);
  });
});

describe('units', () => {
  it("amd-smi's MB is MiB, B is bytes, a bare number takes the given unit", () => {
    expect(mibOf({ value: 196592, unit: 'MB' }, 'B')).toBe(196592);
    expect(mibOf({ value: 206141652992, unit: 'B' }, 'MB')).toBe(196592);
    expect(mibOf('196592 MB', 'B')).toBe(196592);
    expect(mibOf('206141652992', 'B')).toBe(196592);
    expect(mibOf(192, 'MB')).toBe(192);
    expect(mibOf('N/A', 'B')).toBeUndefined();
    expect(mibOf({ value: 1, unit: 'parsec' }, 'B')).toBeUndefined();
  });
});
