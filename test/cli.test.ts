import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/servelab.js', import.meta.url));

describe('cli entry', () => {
  it('prints usage with the command list', () => {
    const out = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(out).toContain('Usage: servelab');
    expect(out).toContain('sim-serve');
  });

  it('rejects an unknown command with one line and exit 2', () => {
    const r = spawnSync(process.execPath, [bin, 'frobnicate'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain("unknown command 'frobnicate'");
  });

  it('refuses the interactive mode without a TTY', () => {
    const r = spawnSync(process.execPath, [bin], { encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--auto');
  });
});
