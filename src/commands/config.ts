// `servelab config get|set|unset|list|path`: the settings that become default flags of --auto.
import { UserError } from '../core/errors.js';
import { SETTINGS, isSettingKey, openSettings } from '../core/settings.js';

const USAGE = `Usage: servelab config list              show saved settings
       servelab config get KEY           print one setting
       servelab config set KEY VALUE     save a setting (checked first)
       servelab config unset KEY         forget a setting
       servelab config path              print the settings file's path

Settings (stored with conf; SERVELAB_CONFIG_DIR moves the folder):
${Object.entries(SETTINGS)
  .filter(([, d]) => !d.internal)
  .map(([k, d]) => `  ${k.padEnd(16)} ${d.help}`)
  .join('\n')}`;

function show(value: unknown): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.join(',');
  return String(value);
}

export default async function main(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h' || sub === 'help') {
    process.stdout.write(USAGE + '\n');
    return sub ? 0 : 2;
  }
  const settings = openSettings();
  const needKey = (n: number) => {
    if (rest.length !== n) throw new UserError(`config ${sub}: expected ${n === 1 ? 'KEY' : 'KEY VALUE'}; run 'servelab config --help'`);
    return rest[0]!;
  };
  switch (sub) {
    case 'list': {
      const all = settings.all() as Record<string, unknown>;
      const json = rest.includes('--json');
      if (json) {
        process.stdout.write(JSON.stringify(all, null, 2) + '\n');
        return 0;
      }
      for (const key of Object.keys(SETTINGS)) {
        if (all[key] !== undefined) process.stdout.write(`${key}=${show(all[key])}\n`);
      }
      return 0;
    }
    case 'get': {
      const key = needKey(1);
      if (!isSettingKey(key)) throw new UserError(`unknown setting '${key}': use one of ${Object.keys(SETTINGS).join(', ')}`);
      const value = settings.get(key);
      if (value === undefined) return 1;
      process.stdout.write(show(value) + '\n');
      return 0;
    }
    case 'set': {
      const key = needKey(2);
      const value = settings.set(key, rest[1]!);
      process.stdout.write(`${key}=${show(value)}\n`);
      return 0;
    }
    case 'unset': {
      settings.unset(needKey(1));
      return 0;
    }
    case 'path':
      process.stdout.write(settings.path + '\n');
      return 0;
    default:
      throw new UserError(`unknown config command '${sub}': use list, get, set, unset or path`);
  }
}
