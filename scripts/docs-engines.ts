// Writes docs/engines.md from the engine data (run: npx tsx scripts/docs-engines.ts).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderEnginesDoc } from '../src/engines/data/doc.js';

const root = fileURLToPath(new URL('..', import.meta.url));
writeFileSync(`${root}docs/engines.md`, renderEnginesDoc(`${root}src/engines/data/flags`));
console.log('wrote docs/engines.md');
