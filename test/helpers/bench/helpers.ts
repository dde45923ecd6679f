// Shared test helpers for the bench tests.
import type { SampledRequest } from '../../../src/bench/types.js';

export function requests(n: number, outputLen: number, promptWords = 8): SampledRequest[] {
  return Array.from({ length: n }, (_, i) => ({
    prompt: Array.from({ length: promptWords }, (_, k) => `w${i}x${k}`).join(' '),
    promptLen: promptWords,
    expectedOutputLen: outputLen,
  }));
}

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
