// Issue 11's size budget as a test: no file over 300 lines and no function over 80 in src/ (data
// tables aside), measured on the TypeScript syntax tree by scripts/size-report.ts.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MAX_FILE_LINES, MAX_FUNCTION_LINES, sizeOffenders } from '../../scripts/size-report.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('size budget', () => {
  it(`no src/ file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}`, () => {
    const found = sizeOffenders(ROOT).map((o) => `${o.file}: ${o.what} is ${o.lines} lines`);
    expect(found).toEqual([]);
  });
});
