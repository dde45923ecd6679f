// Names that outlived a move (scripts/stale-names.ts): every folder of src/ and src/tune is on the
// map in docs/architecture.md, and no code comment or doc names a repository file that does not
// exist. Pure: reads files, starts nothing.
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { expandBraces, isOurs, nameExists, staleNames, unmappedFolders } from '../../../scripts/stale-names.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('stale names', () => {
  it('every folder of src/ and src/tune is on the map', () => {
    expect(unmappedFolders(ROOT)).toEqual([]);
  });

  it('no comment or doc names a file that does not exist', () => {
    expect(staleNames(ROOT).map((s) => `${s.file}:${s.line}: ${s.name}`)).toEqual([]);
  });

  it('finds a name by path, path tail, basename, braces or .js for .ts', () => {
    const files = ['src/tune/stage/loop.ts', 'src/tune/plan/replica.ts', 'src/tui/App.tsx', 'docs/auto.md'];
    expect(nameExists('src/tune/stage/loop.ts', 'docs', files)).toBe(true);
    expect(nameExists('tune/stage/loop.ts', 'src/x', files)).toBe(true);
    expect(nameExists('replica.ts', 'src', files)).toBe(true);
    expect(nameExists('tune/{stage/loop,plan/replica}.ts', 'src', files)).toBe(true);
    expect(nameExists('../tui/App.js', 'src/tune', files)).toBe(true);
    expect(nameExists('auto.md', 'docs', files)).toBe(true);
    expect(nameExists('replica-plan.ts', 'src', files)).toBe(false);
    expect(nameExists('tune/{stage/loop,plan/gone}.ts', 'src', files)).toBe(false);
    expect(expandBraces('a/{b,c}-{d,e}.ts')).toEqual(['a/b-d.ts', 'a/b-e.ts', 'a/c-d.ts', 'a/c-e.ts']);
  });

  it("tells this repository's names from other projects'", () => {
    const files = ['src/tune/stage/loop.ts', 'docs/auto.md', 'docs/engines/vllm.md'];
    expect(isOurs('tune/old.ts', files)).toBe(true);
    expect(isOurs('docs/model-diagnosis.md', files)).toBe(true);
    expect(isOurs('docs/engines/gone.md', files)).toBe(true);
    expect(isOurs('replica-plan.ts', files)).toBe(true);
    expect(isOurs('docs/serving/data_parallel_deployment.md', files)).toBe(false);
    expect(isOurs('tools/server/README.md', files)).toBe(false);
    expect(isOurs('RELEASE.md', files)).toBe(false);
  });
});
