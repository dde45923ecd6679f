// The house's size budget as a test: no file over 300 lines and no function over 80 in src/ (data
// tables aside), measured on the TypeScript syntax tree by scripts/size-report.ts.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { DATA_FILES, MAX_FILE_LINES, MAX_FUNCTION_LINES, sizeOffenders } from '../../../scripts/size-report.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('size budget', () => {
  it(`no src/ file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}`, () => {
    const found = sizeOffenders(ROOT).map((o) => `${o.file}: ${o.what} is ${o.lines} lines`);
    expect(found).toEqual([]);
  });

  it('exempts only data files that exist, named one by one', () => {
    expect([...DATA_FILES].filter((f) => !existsSync(join(ROOT, f)))).toEqual([]);
  });
});
