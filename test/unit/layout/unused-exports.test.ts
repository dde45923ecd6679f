// No dead exports in src/: every export is imported somewhere in src, test, perf, model-lab or
// scripts, or used in its own file (scripts/unused-exports.ts reads the syntax trees).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { unusedExports } from '../../../scripts/unused-exports.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('unused exports', () => {
  it('every export of a src/ file has a user', () => {
    expect(unusedExports(ROOT).map((u) => `${u.file}:${u.line} ${u.name}`)).toEqual([]);
  });
});
