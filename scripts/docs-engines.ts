// Writes docs/engines.md and docs/engines/<engine>.md from the engine data (run: npx tsx scripts/docs-engines.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderEnginesDocs } from '../src/engines/doc.js';

const root = fileURLToPath(new URL('..', import.meta.url));
for (const [page, text] of Object.entries(renderEnginesDocs(`${root}src/engines/data/flags`))) {
  mkdirSync(dirname(`${root}docs/${page}`), { recursive: true });
  writeFileSync(`${root}docs/${page}`, text);
  console.log(`wrote docs/${page}`);
}
