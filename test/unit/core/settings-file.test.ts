import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultSettingsDir, readSettingsFile, settingsPath, writeSettingsFile } from '../../../src/core/settings-file.js';
import { openSettings } from '../../../src/core/settings.js';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'servelab-settings-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('settings file', () => {
  it('lives where conf (projectName servelab, no suffix, configName settings) kept it', () => {
    expect(defaultSettingsDir({ XDG_CONFIG_HOME: '/x/cfg' }, 'linux', '/home/u')).toBe('/x/cfg/servelab');
    expect(defaultSettingsDir({}, 'linux', '/home/u')).toBe('/home/u/.config/servelab');
    expect(defaultSettingsDir({}, 'darwin', '/Users/u')).toBe('/Users/u/Library/Preferences/servelab');
    expect(settingsPath('/x/cfg/servelab')).toBe('/x/cfg/servelab/settings.json');
  });

  it('loads a file in the format conf wrote (tab-indented JSON) and keeps that format', () => {
    const dir = tmp();
    writeFileSync(settingsPath(dir), '{\n\t"engines": [\n\t\t"sglang"\n\t],\n\t"margin": 3\n}');
    const s = openSettings(dir);
    expect(s.get('engines')).toEqual(['sglang']);
    expect(s.get('margin')).toBe(3);
    s.set('port', '9000');
    expect(readFileSync(s.path, 'utf8')).toBe('{\n\t"engines": [\n\t\t"sglang"\n\t],\n\t"margin": 3,\n\t"port": 9000\n}');
    expect(readdirSync(dir)).toEqual(['settings.json']); // no temp file left behind
  });

  it('creates the folder on first write; a missing or empty file reads as no settings', () => {
    const path = settingsPath(join(tmp(), 'a', 'b'));
    expect(readSettingsFile(path)).toEqual({});
    writeSettingsFile(path, { margin: 1 });
    expect(readSettingsFile(path)).toEqual({ margin: 1 });
    writeFileSync(path, '');
    expect(readSettingsFile(path)).toEqual({});
  });

  it('a broken file is a one-line error saying to fix or delete it', () => {
    const dir = tmp();
    writeFileSync(settingsPath(dir), '{"engines": [');
    expect(() => openSettings(dir).all()).toThrow(/settings file .*settings\.json is not valid JSON .*fix it or delete it/);
    writeFileSync(settingsPath(dir), '[1]');
    expect(() => openSettings(dir).get('margin')).toThrow(/does not hold a JSON object/);
  });

  it('opening and writing settings installs no signal handlers (a graceful stop stays servelab’s own)', () => {
    const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
    const before = signals.map((s) => process.listenerCount(s));
    const s = openSettings(tmp());
    s.set('margin', '2');
    s.addRecentModel('m');
    expect(signals.map((sig) => process.listenerCount(sig))).toEqual(before);
  });
});
