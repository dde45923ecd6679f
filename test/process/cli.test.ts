import { describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN as bin } from '../helpers/bin.js';

describe('cli entry', () => {
  it('prints usage with the command list', () => {
    const out = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(out).toContain('Usage: servelab');
    expect(out).toContain('sim-serve');
  });

  it("the command list names every format that 'export --help' offers", () => {
    const list = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    const row = list.split('\n').find((l) => /^\s+export\s/.test(l)) ?? '';
    const usage = execFileSync(process.execPath, [bin, 'export', '--help'], { encoding: 'utf8' });
    const formats = /--format (\S+)/.exec(usage)?.[1]?.split('|') ?? [];
    expect(formats.length).toBeGreaterThan(3);
    for (const f of formats) expect(row).toContain(f);
  });

  it('the usage fits an 80-column terminal', () => {
    const out = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(out.split('\n').filter((l) => l.length > 80)).toEqual([]);
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

describe('cli entry: lazy loading', () => {
  it('--auto --help answers without opening the settings store (a broken settings file does not matter)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'servelab-cli-'));
    try {
      writeFileSync(join(dir, 'settings.json'), '{ broken');
      const env = { ...process.env, SERVELAB_CONFIG_DIR: dir };
      const help = spawnSync(process.execPath, [bin, '--auto', '--help'], { encoding: 'utf8', env });
      expect(help.status).toBe(0);
      expect(help.stdout).toContain('Usage: servelab --auto --model MODEL');
      // The same store is read as soon as a run needs it: the broken file is then reported.
      const run = spawnSync(process.execPath, [bin, '--auto', '--dry-run', '--sim', '--model', 'Qwen/Qwen3-14B'], {
        encoding: 'utf8',
        env,
      });
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/settings file .* is not valid JSON/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
