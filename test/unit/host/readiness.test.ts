// The readiness wait's decision table, without processes: which reason ends the wait, in what order.
import { describe, expect, it } from 'vitest';
import { healthUrl, readyStep, type ReadyState } from '../../../src/host/readiness.js';

const base: ReadyState = {
  now: 1000,
  deadline: 5000,
  fatalAt: undefined,
  fatalGraceMs: 300,
  exited: false,
  stopRequested: false,
  aborted: false,
};

describe('readyStep', () => {
  it('probes while nothing has happened', () => expect(readyStep(base)).toBe('probe'));
  it('waits out the fatal grace, then calls it a hang', () => {
    expect(readyStep({ ...base, fatalAt: 900 })).toBe('probe');
    expect(readyStep({ ...base, fatalAt: 700 })).toBe('fatal-hang');
  });
  it('a death with a fatal line is a death, not a hang', () => expect(readyStep({ ...base, fatalAt: 0, exited: true })).toBe('died'));
  it('an exit after a requested stop is an abort', () => expect(readyStep({ ...base, exited: true, stopRequested: true })).toBe('aborted'));
  it('an abort wins over the time-out', () => expect(readyStep({ ...base, now: 9000, aborted: true })).toBe('aborted'));
  it('times out at the deadline', () => expect(readyStep({ ...base, now: 5000 })).toBe('timed-out'));
  it('probes a wildcard bind on loopback', () => {
    expect(healthUrl({ host: '0.0.0.0', port: 8000, healthPath: '/health' })).toBe('http://127.0.0.1:8000/health');
    expect(healthUrl({ host: '::', port: 8000, healthPath: '/health' })).toBe('http://[::1]:8000/health');
  });
});
