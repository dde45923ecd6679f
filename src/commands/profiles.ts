// `servelab profiles [--json] [--dir DIR]...`: the profiles in ./profiles, the user's profile
// folders (the data folder's profiles/ where tuning sessions save them by default, settings
// `profiles-dir`, else profiles/ beside the settings file, where replays of study profiles are
// recorded; and `out`/profiles) and any --dir, with model, GPU, engine, tok/s and date.
import { join, resolve } from 'node:path';
import { UserError } from '../core/errors.js';
import { openSettings } from '../core/settings.js';
import { dataDir } from '../host/xdg.js';
import { userProfilesDir } from '../profiles/store/history.js';
import { listProfiles, type ProfileRow } from '../profiles/store/list.js';
import { parseProfilesArgs } from '../cli/profiles-args.js';

function userDirs(): string[] {
  try {
    const settings = openSettings();
    const out = settings.get('out');
    const own = userProfilesDir({ profilesDir: settings.get('profiles-dir'), settingsPath: settings.path });
    return [settings.get('profiles-dir'), out ? join(out, 'profiles') : undefined, own].filter((d): d is string => !!d);
  } catch {
    // An unreadable settings file must not hide the profiles in ./profiles.
    return [];
  }
}

function table(rows: ProfileRow[]): string {
  const head = ['profile', 'model', 'GPU', 'engine', 'total tok/s', 'date', 'last replay'];
  const body = rows
    .filter((r) => r.ok)
    .map((r) => [
      r.file,
      r.model!,
      `${r.gpus} x ${r.gpu}${r.simulated ? ' (sim)' : ''}`,
      `${r.engine} ${r.engineVersion}`,
      r.totalTokPerS!.toFixed(2),
      (r.createdAt ?? '').slice(0, 10) + (r.source === 'study' ? ' (study)' : ''),
      r.lastVerdict ?? '–',
    ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 4 ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const out = [line(head), ...body.map(line)];
  for (const r of rows.filter((x) => !x.ok)) out.push(`${r.file}: invalid: ${r.error}`);
  return out.join('\n');
}

export default async function main(argv: string[]): Promise<number> {
  const parsed = parseProfilesArgs(argv);
  if (!parsed) return 0;
  const { values } = parsed;
  const mine = join(dataDir(), 'profiles');
  const dirs = [...new Set(['profiles', mine, ...userDirs(), ...(values.dir ?? [])].map((d) => resolve(d)))];
  const rows = listProfiles(dirs).map((r) => ({ ...r, file: relativeIfInside(r.file) }));
  if (values.json) {
    process.stdout.write(JSON.stringify(rows, null, 2) + '\n');
    return 0;
  }
  if (!rows.length) {
    process.stdout.write(`no profiles found in ${dirs.join(', ')}\n`);
    return 0;
  }
  process.stdout.write(table(rows) + '\n');
  process.stdout.write(`\nsaved by tuning sessions into ${mine} (--out DIR changes it)\n`);
  return 0;
}

function relativeIfInside(file: string): string {
  const cwd = process.cwd() + '/';
  return file.startsWith(cwd) ? file.slice(cwd.length) : file;
}
