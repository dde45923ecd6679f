// Every command's flag table lives in src/cli: no other file of src/ declares a FlagSpec table
// (rows like `{ kind: 'string' }`, or a FlagSpec/FlagTable type) or calls node:util's parseArgs.
// sim-serve's included (src/cli/sim-serve-args.ts; the simulator's types are in sim/server/sim-args.ts). Pure: reads files.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** What makes a file a flag-table home: a row of the table format, its types, or node's parser. */
function flagTableSigns(text: string): string[] {
  const signs: string[] = [];
  if (/\{\s*kind:\s*'(string|boolean|number|list)'/.test(text)) signs.push('FlagSpec row');
  if (/\bFlag(Spec|Table)\b/.test(text)) signs.push('FlagSpec type');
  if (/\bparseArgs\s*\(/.test(text) && /from 'node:util'/.test(text)) signs.push('node parseArgs');
  return signs;
}

describe('flag tables live in src/cli', () => {
  it('no file outside src/cli declares a flag table or calls parseArgs', () => {
    const strays = sources(join(ROOT, 'src'))
      .map((p) => relative(ROOT, p).split('\\').join('/'))
      .filter((f) => !f.startsWith('src/cli/'))
      .flatMap((f) => flagTableSigns(readFileSync(join(ROOT, f), 'utf8')).map((s) => `${f}: ${s}`));
    expect(strays).toEqual([]);
  });

  it('recognises each sign', () => {
    expect(flagTableSigns("const T = { out: { kind: 'string' } };")).toEqual(['FlagSpec row']);
    expect(flagTableSigns("import type { FlagSpec } from './flags.js';")).toEqual(['FlagSpec type']);
    expect(flagTableSigns("import { parseArgs } from 'node:util';\nparseArgs({ args });")).toEqual(['node parseArgs']);
    expect(flagTableSigns('const x = { kind: 1 };')).toEqual([]);
  });
});
