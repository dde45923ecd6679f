// docs/engines.md is generated from the engine data: the committed copy must be what the data says.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderEnginesDoc } from '../../src/engines/data/doc.js';

const root = path.join(import.meta.dirname, '../..');

describe('docs/engines.md', () => {
  it('equals the document generated from the knob tables (regenerate: npx tsx scripts/docs-engines.ts)', () => {
    const generated = renderEnginesDoc(path.join(root, 'src/engines/data/flags'));
    expect(readFileSync(path.join(root, 'docs/engines.md'), 'utf8')).toBe(generated);
    // It carries the facts the issue names, with their version split.
    expect(generated).toContain('{"mode":0,"cudagraph_mode":"FULL_DECODE_ONLY"}');
    expect(generated).toContain('VLLM_FLASH_ATTN_VERSION');
    expect(generated).toContain('--prefill-attention-backend');
  });
});
