// host sits below engines: launchServer's callers pass the engine's failure rules and image check
// in. dependency-cruiser (rule host-not-engines) sees runtime imports only; this also catches a
// type-only import, so the launch contract (host/launch-spec.ts) stays host's own.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const HOST = fileURLToPath(new URL('../../../src/host', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) =>
    statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : /\.tsx?$/.test(n) ? [join(dir, n)] : [],
  );
}

describe('host layer', () => {
  it('no file in src/host imports from src/engines, not even a type', () => {
    const found = files(HOST).filter((f) => /from\s+'(\.\.\/)+engines\//.test(readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });
});
