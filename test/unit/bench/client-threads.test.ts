// --client-threads N|auto: parsing and how many threads a run gets.
import { describe, expect, it } from 'vitest';
import { UserError } from '../../../src/core/errors.js';
import { parseClientThreads, resolveClientThreads } from '../../../src/bench/workers/client-threads.js';

describe('--client-threads', () => {
  it('parses N or auto; anything else is a user error', () => {
    expect(parseClientThreads('auto')).toBe('auto');
    expect(parseClientThreads('4')).toBe(4);
    for (const bad of ['0', '-1', '1.5', 'many']) expect(() => parseClientThreads(bad)).toThrow(UserError);
  });
  it('auto = the cores the client may use, never more than the requests or the concurrency cap', () => {
    expect(resolveClientThreads('auto', { requests: 1000, cores: 16 })).toBe(16);
    expect(resolveClientThreads('auto', { requests: 1000, cores: 16, maxConcurrency: 4 })).toBe(4);
    expect(resolveClientThreads(8, { requests: 3 })).toBe(3);
    expect(resolveClientThreads(2, { requests: 100, maxConcurrency: null })).toBe(2);
  });
});
