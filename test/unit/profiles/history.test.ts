// Where replay records go: in place for a user's profile, into a copy in the user's folder for a
// study (reference) profile, whose file is never written. Real files in a temporary folder.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isReferenceProfile, recordReplay, userProfilesDir } from '../../../src/profiles/store/history.js';
import { SHIPPED_PROFILES_DIR } from '../../../src/profiles/store/shipped.js';
import type { Profile, ReplayRecord } from '../../../src/profiles/schema/profile.js';
import { loadProfile, saveProfile, serializeProfile } from '../../../src/profiles/store/store.js';
import { qwen3Study } from '../../../scripts/studies.js';

let dir: string;
let user: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'servelab-history-'));
  user = join(dir, 'user');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function record(p: Profile, at: string, verdict: ReplayRecord['verdict'] = 'ok'): ReplayRecord {
  return { at, servelabVersion: '0.1.0', host: { ...p.host, simulated: true }, simulated: true, verdict, tolerancePct: 5, reasons: [] };
}

function write(name: string, p: Profile): string {
  const f = join(dir, name);
  writeFileSync(f, serializeProfile(p));
  return f;
}

const userDirOf = () => user;

describe('recordReplay', () => {
  it("appends in place to a session's profile and renders its report again", () => {
    const p = { ...qwen3Study(), source: 'session' as const };
    const f = write('mine.json', p);
    writeFileSync(join(dir, 'mine.md'), 'old report');
    let asked = 0;
    const h = recordReplay(f, p, record(p, '2026-01-01T00:00:00.000Z', 'regression'), () => {
      asked++;
      return user;
    });
    expect(h).toMatchObject({ file: f, separate: false, created: false });
    expect(loadProfile(f).replays.map((r) => r.verdict)).toEqual(['regression']);
    expect(readFileSync(join(dir, 'mine.md'), 'utf8')).toMatch(/regression/);
    expect(asked).toBe(0);
    expect(existsSync(user)).toBe(false);
  });

  it('never writes a study profile: the first replay makes a copy in the user folder, later ones append to it', () => {
    const p = qwen3Study();
    const f = write('Qwen3-14B-H100x1.json', p);
    const original = readFileSync(f, 'utf8');
    const first = recordReplay(f, p, record(p, '2026-01-01T00:00:00.000Z'), userDirOf);
    expect(first).toMatchObject({ file: join(user, 'Qwen3-14B-H100x1.json'), separate: true, created: true });
    expect(readdirSync(user).sort()).toEqual(['Qwen3-14B-H100x1.json', 'Qwen3-14B-H100x1.md']);
    const second = recordReplay(f, loadProfile(f), record(p, '2026-01-02T00:00:00.000Z', 'regression'), userDirOf);
    expect(second).toMatchObject({ file: first.file, separate: true, created: false });
    expect(readFileSync(f, 'utf8')).toBe(original);
    expect(readdirSync(dir).sort()).toEqual(['Qwen3-14B-H100x1.json', 'user']);
    const copy = loadProfile(first.file);
    expect(copy.replays.map((r) => r.verdict)).toEqual(['ok', 'regression']);
    // The study's numbers travel with the copy, unchanged.
    expect(serializeProfile({ ...copy, replays: [] })).toBe(original);
    expect(readFileSync(join(user, 'Qwen3-14B-H100x1.md'), 'utf8')).toMatch(/regression/);
  });

  it('replaying the copy itself appends to it', () => {
    const p = qwen3Study();
    const f = write('Qwen3-14B-H100x1.json', p);
    const { file: copy } = recordReplay(f, p, record(p, '2026-01-01T00:00:00.000Z'), userDirOf);
    const h = recordReplay(copy, loadProfile(copy), record(p, '2026-01-02T00:00:00.000Z'), userDirOf);
    expect(h).toMatchObject({ file: copy, separate: false, created: false });
    expect(loadProfile(copy).replays).toHaveLength(2);
    expect(readdirSync(user)).toHaveLength(2);
  });

  it("leaves a user's own profile of the same name alone and makes the copy beside it", () => {
    const study = qwen3Study();
    const mine = saveProfile({ ...study, source: 'session', createdAt: '2026-05-06T07:08:09.000Z' }, user);
    const before = readFileSync(mine, 'utf8');
    const f = write('Qwen3-14B-H100x1.json', study);
    const h = recordReplay(f, study, record(study, '2026-06-01T00:00:00.000Z'), userDirOf);
    expect(h.file.startsWith(join(user, 'Qwen3-14B-H100x1-'))).toBe(true);
    expect(h.file).toMatch(/-\d{8}-\d{4}\.json$/);
    expect(h.file).not.toBe(mine);
    expect(readFileSync(mine, 'utf8')).toBe(before);
    // The next replay finds that copy again by what it records, not by its name.
    const again = recordReplay(f, study, record(study, '2026-06-02T00:00:00.000Z'), userDirOf);
    expect(again.file).toBe(h.file);
    expect(loadProfile(h.file).replays).toHaveLength(2);
  });

  it("refuses servelab's own profiles folder as the user folder", () => {
    const p = qwen3Study();
    const f = write('q.json', p);
    expect(() => recordReplay(f, p, record(p, '2026-01-01T00:00:00.000Z'), () => SHIPPED_PROFILES_DIR)).toThrow(/own profiles folder/);
  });
});

describe('reference profiles and the user folder', () => {
  it('a study, or anything in the shipped folder, is reference data', () => {
    expect(isReferenceProfile(join(dir, 'x.json'), { source: 'study' })).toBe(true);
    expect(isReferenceProfile(join(dir, 'x.json'), { source: 'session' })).toBe(false);
    expect(isReferenceProfile(join(SHIPPED_PROFILES_DIR, 'x.json'), { source: 'session' })).toBe(true);
    expect(isReferenceProfile('profiles/Qwen3-14B-H100x1.json', { source: 'session' })).toBe(true);
  });

  it('the profiles-dir setting, else profiles/ beside the settings file, never the shipped folder', () => {
    const settingsPath = join(dir, 'config', 'settings.json');
    mkdirSync(join(dir, 'mine'));
    expect(userProfilesDir({ profilesDir: join(dir, 'mine'), settingsPath })).toBe(join(dir, 'mine'));
    expect(userProfilesDir({ profilesDir: undefined, settingsPath })).toBe(join(dir, 'config', 'profiles'));
    expect(userProfilesDir({ profilesDir: 'profiles', settingsPath })).toBe(join(dir, 'config', 'profiles'));
  });
});
