import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openSettings } from '../../../src/core/settings.js';
import { realServices } from '../../../src/tui/services/workbench.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('the Model screen offers recent models', () => {
  it('keeps hub ids and local files that exist, drops local files that are gone', () => {
    const dir = mkdtempSync(join(tmpdir(), 'servelab-recent-'));
    dirs.push(dir);
    const kept = join(dir, 'kept.gguf');
    writeFileSync(kept, 'GGUF');
    const settings = openSettings(dir);
    settings.addRecentModel(join(dir, 'gone.gguf'));
    settings.addRecentModel(kept);
    settings.addRecentModel('my-org/my-model');
    const recent = realServices({ flags: {}, settings }).services.recentModels();
    expect(recent).toContain(kept);
    expect(recent).toContain('my-org/my-model');
    expect(recent).not.toContain(join(dir, 'gone.gguf'));
  });
});
