// The floors are written once (scripts/floors.cjs, from which .dependency-cruiser.cjs makes its
// rules); the tables in docs/architecture.md must say the same, and the import graph of src/ must
// have no cycle between top-level folders (a folder's sub-folders counted as the folder itself,
// which dependency-cruiser's folder scope does not do).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cycleReport } from '../../../scripts/import-graph.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
type Floors = { floor: number; folders: string[] }[];
const { FLOORS, TUNE_FLOORS } = createRequire(import.meta.url)('../../../scripts/floors.cjs') as { FLOORS: Floors; TUNE_FLOORS: Floors };

/** The first Markdown table after `marker` whose header starts with "| floor |", as floor -> code-span names. */
function floorsTable(markdown: string, marker: string): Floors {
  const from = markdown.indexOf(marker);
  if (from < 0) throw new Error(`no "${marker}" in the doc`);
  const lines = markdown.slice(from).split('\n');
  const head = lines.findIndex((l) => /^\|\s*floor\s*\|/.test(l));
  const rows: Floors = [];
  for (const line of lines.slice(head + 2)) {
    if (!line.startsWith('|')) break;
    const [floor, folders] = line
      .split('|')
      .slice(1, 3)
      .map((c) => c.trim());
    rows.push({ floor: Number(floor), folders: [...folders!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!) });
  }
  return rows;
}

const normal = (f: Floors) => f.map((r) => ({ floor: r.floor, folders: [...r.folders].sort() }));

describe('floors', () => {
  const doc = readFileSync(`${ROOT}/docs/architecture.md`, 'utf8');

  it('the floors table of docs/architecture.md matches scripts/floors.cjs', () => {
    expect(normal(floorsTable(doc, '## The floors'))).toEqual(normal(FLOORS));
  });

  it('the tune floors table matches scripts/floors.cjs', () => {
    expect(normal(floorsTable(doc, 'Inside `src/tune`'))).toEqual(normal(TUNE_FLOORS));
  });

  it('reads a table as floor -> folder names', () => {
    const md = '## The floors\n\n| floor | folders | what |\n|---|---|---|\n| 0 | `core` | x |\n| 1 | `a`, `b` | y |\n\nafter';
    expect(floorsTable(md, '## The floors')).toEqual([
      { floor: 0, folders: ['core'] },
      { floor: 1, folders: ['a', 'b'] },
    ]);
  });

  it('no cycle between top-level folders of src/, type imports included', () => {
    expect(cycleReport(ROOT).concept).toEqual([]);
  });

  // dependency-cruiser's folder-scope rule let two folder cycles through (src/model <-> src/model/data,
  // src/engines <-> its engine folders), so the house counter is the check.
  it('no cycle between folders of src/, each sub-folder counted apart', () => {
    expect(cycleReport(ROOT).folder).toEqual([]);
  });
});
