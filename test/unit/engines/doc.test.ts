// docs/engines.md and docs/engines/*.md are generated from the engine data: the committed copies
// must be what the data says.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderEnginesDocs } from '../../../src/engines/doc.js';

const root = path.join(import.meta.dirname, '../../..');

describe('docs/engines.md', () => {
  it('equals the document generated from the knob tables (regenerate: npx tsx scripts/docs-engines.ts)', () => {
    const pages = renderEnginesDocs(path.join(root, 'src/engines/data/flags'));
    for (const [page, text] of Object.entries(pages)) expect(readFileSync(path.join(root, 'docs', page), 'utf8'), page).toBe(text);
    const generated = Object.values(pages).join('\n');
    // It carries the facts the issue names, with their version split.
    expect(generated).toContain('{"mode":0,"cudagraph_mode":"FULL_DECODE_ONLY"}');
    expect(generated).toContain('VLLM_FLASH_ATTN_VERSION');
    expect(generated).toContain('--prefill-attention-backend');
  });
});
