// How quiet the host was during a run, from /proc: the arithmetic on the kernel's counters, the
// core split between the server and the client, and the marks a busy result carries.
import { describe, expect, it } from 'vitest';
import { busyHostMark, hostLoadNotes } from '../../../src/core/host-load.js';
import { cpuListText, parseCpuList, splitCores } from '../../../src/host/core-split.js';
import { hostLoadOf, loadAvg1, othersCpuPct, ownTicks } from '../../../src/host/host-load.js';

describe('host load', () => {
  it('reads utime, stime and the children of a /proc/PID/stat line, a name with spaces included', () => {
    const stat = '4242 (llama server) S 1 4242 4242 0 -1 4194304 100 0 0 0 700 50 3 2 20 0 9 0 123 0 0';
    expect(ownTicks(stat)).toBe(755);
  });

  it('other work is the host busy time less the run own time, over the host total', () => {
    const a = { busy: 1000, total: 4000, own: 200 };
    const b = { busy: 1600, total: 4800, own: 600 }; // 800 ticks passed; 600 busy, 400 of them the run own
    expect(othersCpuPct(a, b)).toBe(25);
    expect(hostLoadOf(a, b, 2.5, 2)).toEqual({ othersCpuPct: 25, loadAvg1: 2.5, cores: 2, busy: true });
    const quiet = hostLoadOf(a, { busy: 1500, total: 4800, own: 650 }, 0.4, 2, 'server 0-2, client 3');
    expect(quiet).toEqual({ othersCpuPct: 6.3, loadAvg1: 0.4, cores: 2, pinned: 'server 0-2, client 3' });
  });

  it('never goes negative when the run own processes outpace the host counter', () => {
    expect(othersCpuPct({ busy: 0, total: 0, own: 0 }, { busy: 10, total: 100, own: 50 })).toBe(0);
  });

  it('reads the 1-minute load average of /proc/loadavg', () => {
    expect(loadAvg1('3.14 2.00 1.50 2/345 6789\n')).toBe(3.14);
  });

  it('marks a busy result on its row and in the profile notes', () => {
    const busy = { othersCpuPct: 41.2, loadAvg1: 3.1, cores: 2, busy: true };
    expect(busyHostMark(busy)).toBe(' [busy host: others took 41% of 2 cores, load 3.1]');
    expect(busyHostMark({ othersCpuPct: 3, loadAvg1: 0.2, cores: 2 })).toBe('');
    expect(hostLoadNotes([{ variantId: 's1', hostLoad: busy }, { variantId: 's2' }])).toEqual([
      "Measured on a busy host (other processes took 25% or more of its CPU): s1 (41%): those figures carry the other work's noise.",
    ]);
  });
});

describe('cores for the server and the client', () => {
  it('parses and writes the cpu list format', () => {
    expect(parseCpuList('0-2,5,7-8')).toEqual([0, 1, 2, 5, 7, 8]);
    expect(cpuListText([0, 1, 2, 5, 7, 8])).toBe('0-2,5,7-8');
  });

  it('keeps the last core for the client when there are 3 or more, says none to spare below', () => {
    expect(splitCores([0, 1, 2, 3])).toEqual({ server: [0, 1, 2], client: [3] });
    expect(splitCores([0, 1])).toEqual({
      none: '2 cores, none to spare: the server and the benchmark client share them',
    });
  });
});
