// The search's requests line says when probes found their prompts cached before they ran (a
// custom dataset's fixed prompts): their TTFT reads the cache, not the load.
import { describe, expect, it } from 'vitest';
import type { CapacityRecord } from '../../../src/capacity/record.js';
import { requestsLine } from '../../../src/capacity/text.js';

const probe = (load: number, cacheHitBeforeRun?: number): CapacityRecord['probes'][number] => ({
  load,
  numPrompts: 100,
  holds: true,
  breaks: null,
  violations: [],
  metrics: {},
  ...(cacheHitBeforeRun !== undefined ? { cacheHitBeforeRun } : {}),
});
const record = (probes: CapacityRecord['probes']) => ({ requests: 300, probes, simulated: false }) as unknown as CapacityRecord;

describe('requests line', () => {
  it('names the probes that found their prompts cached before they ran', () => {
    expect(requestsLine(record([probe(8), probe(16, 0.79), probe(32, 0.94)]))).toBe(
      'requests: 300 over 3 probes; 2 of 3 found over 5% of their prompt tokens cached before they ran: their TTFT reads the cache',
    );
  });

  it('says nothing of a cache the probes filled themselves, or one the server does not report', () => {
    expect(requestsLine(record([probe(8), probe(16, 0.01), probe(32, 0.05)]))).toBe('requests: 300 over 3 probes');
  });
});
