import { describe, expect, it } from 'vitest';
import { cacheText, trafficText, turnText } from '../../../src/core/traffic-text.js';

describe('traffic words', () => {
  it('says the hit rate against the possible reuse, or that the server did not report it', () => {
    expect(cacheText({ cache: { hitRate: 0.734, possibleReuse: 0.844 } })).toBe('prefix cache hit 73% of 84% possible');
    expect(cacheText({ cache: { hitRate: null, possibleReuse: 0.5 } })).toBe('prefix cache: not reported by the server (50% possible)');
    expect(cacheText({})).toBeNull();
  });
  it('lists TTFT by turn, the first six and the last', () => {
    expect(turnText({ turnTtftMs: [850.4, 140.2, 152] })).toBe('TTFT by turn 850, 140, 152 ms');
    expect(turnText({ turnTtftMs: [1200, 100, 110, 120, 130, 140, 150, 1600] })).toBe(
      'TTFT by turn 1,200, 100, 110, 120, 130, 140, ... turn 8: 1,600 ms',
    );
    expect(trafficText({ cache: { hitRate: 0.5, possibleReuse: 0.6 }, turnTtftMs: [900, 100] })).toBe(
      'prefix cache hit 50% of 60% possible; TTFT by turn 900, 100 ms',
    );
    expect(trafficText({})).toBeNull();
  });
  it('adds the conversations per second after TTFT by turn, two figures below 10', () => {
    expect(turnText({ turnTtftMs: [300, 90], conversationsPerS: 1.7284 })).toBe('TTFT by turn 300, 90 ms; 1.7 conversations/s');
    expect(turnText({ turnTtftMs: [300, 90], conversationsPerS: 0.0123 })).toBe('TTFT by turn 300, 90 ms; 0.012 conversations/s');
    expect(turnText({ turnTtftMs: [300, 90], conversationsPerS: 42.6 })).toBe('TTFT by turn 300, 90 ms; 43 conversations/s');
  });
});
