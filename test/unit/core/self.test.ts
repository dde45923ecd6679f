import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_WORKER_ENTRY, PACKAGE_ROOT, SELF_SCRIPT } from '../../../src/core/self.js';

describe('self: how servelab re-invokes itself', () => {
  it('from the sources it finds the clone and re-invokes the sources through tsx, never dist/', () => {
    expect(JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')).name).toBe('servelab');
    expect(SELF_SCRIPT).toBe(join(PACKAGE_ROOT, 'bin', 'servelab.js'));
    expect(fileURLToPath(BENCH_WORKER_ENTRY)).toBe(join(PACKAGE_ROOT, 'src', 'bench', 'workers', 'worker-boot.mjs'));
    expect(existsSync(SELF_SCRIPT) && existsSync(BENCH_WORKER_ENTRY)).toBe(true);
  });
});
