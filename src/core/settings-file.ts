// The settings file: one JSON object, read whole and written whole through an atomic rename.
// It sits where servelab's earlier store (`conf` 15 with projectName 'servelab', projectSuffix ''
// and configName 'settings') kept it, in the same format, so settings saved by older versions
// still load: Linux $XDG_CONFIG_HOME/servelab (default ~/.config/servelab), macOS
// ~/Library/Preferences/servelab, Windows %APPDATA%\servelab\Config; SERVELAB_CONFIG_DIR moves it.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { UserError } from './errors.js';

/** The folder the settings file lives in (the same rules as the env-paths package conf used). */
export function defaultSettingsDir(env: NodeJS.ProcessEnv = process.env, platform = process.platform, home = homedir()): string {
  if (platform === 'darwin') return join(home, 'Library', 'Preferences', 'servelab');
  if (platform === 'win32') return join(env.APPDATA || join(home, 'AppData', 'Roaming'), 'servelab', 'Config');
  return join(env.XDG_CONFIG_HOME || join(home, '.config'), 'servelab');
}

export function settingsPath(dir: string): string {
  return join(dir, 'settings.json');
}

/** The stored object; {} when there is no file yet. A file that is not a JSON object is a UserError. */
export function readSettingsFile(path: string): Record<string, unknown> {
  if (!existsSync(path)) return {};
  const text = readFileSync(path, 'utf8');
  if (text.trim() === '') return {};
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new UserError(`settings file ${path} is not valid JSON (${(e as Error).message}); fix it or delete it`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new UserError(`settings file ${path} does not hold a JSON object; fix it or delete it`);
  }
  return data as Record<string, unknown>;
}

/** Replace the file with `data` (tab-indented, as conf wrote it), creating the folder if needed. */
export function writeSettingsFile(path: string, data: Record<string, unknown>): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileAtomic(path, JSON.stringify(data, undefined, '\t'));
}
