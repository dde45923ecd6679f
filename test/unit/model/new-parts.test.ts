// This year's parts in the GPU catalogue: the vendor tools' names find them (and not their
// neighbours), AMD parts carry a gfx arch instead of a compute capability, the simulated host of an
// AMD part says so, and docs/gpus.md lists every part of the catalogue.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findGpu, GPUS, hasNativeFp8 } from '../../../src/model/gpus.js';
import { simulatedHost } from '../../../src/host/gpus.js';

describe('the new parts', () => {
  it('nvidia-smi and amd-smi names find their part, not a neighbour', () => {
    const cases: [string, string][] = [
      ['NVIDIA B300 SXM6 AC', 'B300 SXM 288GB'],
      ['NVIDIA GB200', 'GB200 186GB'],
      ['NVIDIA B200', 'B200'],
      ['NVIDIA RTX PRO 6000 Blackwell Workstation Edition', 'RTX PRO 6000 Blackwell 96GB'],
      ['NVIDIA RTX PRO 6000 Blackwell Server Edition', 'RTX PRO 6000 Blackwell 96GB'],
      ['NVIDIA L4', 'L4 24GB'],
      ['NVIDIA L40S', 'L40S'],
      ['NVIDIA H20', 'H20 96GB'],
      ['NVIDIA H200', 'H200 141GB'],
      ['AMD Instinct MI300X', 'MI300X 192GB'],
      ['AMD Instinct MI300X VF', 'MI300X 192GB'],
      ['MI300X', 'MI300X 192GB'],
      ['AMD Instinct MI325X', 'MI325X 256GB'],
      ['AMD Instinct MI355X', 'MI355X 288GB'],
      ['rtx-pro-6000', 'RTX PRO 6000 Blackwell 96GB'],
    ];
    for (const [smi, name] of cases) expect([smi, findGpu(smi)?.name]).toEqual([smi, name]);
  });

  it('AMD parts: vendor, gfx arch, no compute capability; FP8 e4m3fnuz on gfx942 only; FP8 tensor cores', () => {
    const amd = GPUS.filter((g) => g.vendor === 'amd');
    expect(amd.map((g) => [g.aliases[0], g.gfxArch, g.fp8Format ?? 'e4m3fn', g.computeCapability])).toEqual([
      ['MI300X', 'gfx942', 'e4m3fnuz', undefined],
      ['MI325X', 'gfx942', 'e4m3fnuz', undefined],
      ['MI355X', 'gfx950', 'e4m3fn', undefined],
    ]);
    for (const g of amd) expect(hasNativeFp8(g)).toBe(true);
    for (const g of GPUS.filter((x) => x.vendor !== 'amd')) expect(g.computeCapability).toBeGreaterThan(0);
  });

  it('the simulated host of an AMD part is AMD, without a compute capability', () => {
    const h = simulatedHost('MI355X', 8);
    expect(h.gpus.map((g) => [g.name, g.vendor, g.computeCap, g.memTotalMiB])[0]).toEqual([
      'AMD Instinct MI355X',
      'amd',
      undefined,
      294896,
    ]);
    expect(simulatedHost('B300', 1).gpus[0]).toMatchObject({ name: 'NVIDIA B300 SXM6 AC', computeCap: '10.3' });
    expect(simulatedHost('B300', 1).gpus[0]!.vendor).toBeUndefined();
  });

  it('docs/gpus.md lists every part of the catalogue', () => {
    const doc = readFileSync('docs/gpus.md', 'utf8');
    for (const g of GPUS) expect([g.name, doc.includes(`| ${g.name} |`)]).toEqual([g.name, true]);
  });
});
