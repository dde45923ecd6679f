// Where a replay's record goes. A profile's history grows by appending (its recorded numbers are
// never rewritten), but a study profile is reference data that ships with servelab: its file is
// tracked in git, or sits in an installed package. Replaying one records the result in a copy in
// the user's profile folder (the study's numbers plus this host's replays), and later replays of
// the same study append to that copy; the shipped file is never written.
import { existsSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { renderReport } from '../report/report.js';
import type { Profile, ReplayRecord } from '../schema/profile.js';
import { isShippedDir } from './shipped.js';
import { appendReplay, loadProfile, reportPathFor, sameRun, saveProfile } from './store.js';

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** A profile whose file must not be written by a replay: a study, or anything in servelab's own profiles/. */
export function isReferenceProfile(file: string, profile: Pick<Profile, 'source'>): boolean {
  return profile.source === 'study' || isShippedDir(dirname(file));
}

/** The profile in `dir` that records the same run as `profile` (a copy made by an earlier replay), or null. */
export function findSameRun(dir: string, profile: Profile): string | null {
  if (!existsSync(dir)) return null;
  for (const name of readdirSync(dir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const file = join(dir, name);
    try {
      if (sameRun(loadProfile(file), profile)) return file;
    } catch {
      // Not a profile: not the copy either.
    }
  }
  return null;
}

export interface RecordedReplay {
  /** The file the record was appended to. */
  file: string;
  profile: Profile;
  /** True when the record went to a copy in the user's folder, not to the replayed file. */
  separate: boolean;
  /** True when that copy was made by this replay. */
  created: boolean;
}

function writeReport(file: string, p: Profile, always: boolean): void {
  const md = reportPathFor(file);
  if (md !== file && (always || existsSync(md))) writeFileSync(md, renderReport(p));
}

/**
 * Append a replay record to the profile's history. A normal profile gets it in place (and its
 * report beside it, when there is one, is rendered again). A reference profile (see
 * isReferenceProfile) gets it in `userDir`: appended to the copy an earlier replay made there, or
 * to a new copy (with its report). `userDirOf` is asked only then, and must not name servelab's
 * own profiles folder.
 */
export function recordReplay(file: string, profile: Profile, record: ReplayRecord, userDirOf: () => string): RecordedReplay {
  if (!isReferenceProfile(file, profile)) {
    const updated = appendReplay(file, record);
    writeReport(file, updated, false);
    return { file, profile: updated, separate: false, created: false };
  }
  const userDir = userDirOf();
  if (isShippedDir(userDir)) throw new Error(`replay history folder ${userDir} is servelab's own profiles folder`);
  // The replayed file may itself be the copy (replaying it from the user's folder).
  const copy = real(dirname(file)) === real(userDir) ? file : findSameRun(userDir, profile);
  if (copy) {
    const updated = appendReplay(copy, record);
    writeReport(copy, updated, false);
    return { file: copy, profile: updated, separate: copy !== file, created: false };
  }
  const fresh: Profile = { ...structuredClone(profile), replays: [...profile.replays, record] };
  const made = saveProfile(fresh, userDir);
  writeReport(made, fresh, true);
  return { file: made, profile: loadProfile(made), separate: true, created: true };
}

/**
 * The user's profile folder for replay records: the `profiles-dir` setting, else `profiles/`
 * beside the settings file (e.g. ~/.config/servelab/profiles); never servelab's own profiles/.
 */
export function userProfilesDir(settings: { profilesDir?: string | undefined; settingsPath: string }): string {
  const own = settings.profilesDir ? resolve(settings.profilesDir) : undefined;
  if (own && !isShippedDir(own)) return own;
  return join(dirname(settings.settingsPath), 'profiles');
}
