// Write src/engines/data/flags/llamacpp-<version>.json, the reference flag list of a llama-server
// build, from its own `--help` (generated there from common/arg.cpp): every option with its
// aliases, whether it takes a value, and the choices its help names ([a|b], {a,b}, "allowed
// values: ..."). Run: npx tsx scripts/llamacpp-flags.ts [PATH-TO-llama-server]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findLlamaServer, parseLlamaVersion } from '../src/engines/llamacpp/detect.js';

interface Entry {
  aliases?: string[];
  choices?: string[];
  bool?: boolean;
}

const exe = findLlamaServer(process.argv[2])?.path;
if (!exe) throw new Error('no llama-server: give its path, or run `servelab engines build llamacpp`');
/** stdout and stderr of one run (--version prints on stderr). */
const run = (args: string[]) => {
  const r = spawnSync(exe, args, { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`;
};
const version = parseLlamaVersion(run(['--version']));
const help = run(['--help']);

/** The option column of a help line: names ("-fa,   --flash-attn") and the value word after them. */
function optionColumn(line: string): { names: string[]; value: string } {
  const names: string[] = [];
  let value = '';
  let comma = true;
  let gap = '';
  for (const m of line.matchAll(/(\S+)(\s*)/g)) {
    const w = m[1]!;
    if (comma && w.startsWith('-')) {
      names.push(w.replace(/,$/, ''));
      comma = w.endsWith(',');
    } else if (!comma && gap === ' ' && !w.startsWith('-')) {
      value = w;
      break;
    } else break;
    gap = m[2]!;
    if (!comma && gap.length > 1) break;
  }
  return { names, value };
}

const flags: Record<string, Entry> = {};
let last: Entry | undefined;
for (const line of help.split('\n')) {
  if (!line.startsWith('-')) {
    const allowed = /allowed values: ([\w, ]+)/.exec(line);
    if (allowed && last)
      last.choices = allowed[1]!
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    continue;
  }
  const { names, value } = optionColumn(line);
  const primary = names.find((n) => n.startsWith('--')) ?? names[0]!;
  const e: Entry = {};
  const aliases = names.filter((n) => n !== primary);
  if (aliases.length) e.aliases = aliases;
  if (!value) e.bool = true;
  const choice = /^\[([\w|-]+)\]$|^\{([\w,-]+)\}$|^([\w-]+(?:,[\w-]+){2,})$/.exec(value);
  if (choice) e.choices = (choice[1] ?? choice[2] ?? choice[3])!.split(/[|,]/);
  flags[primary] = e;
  last = e;
}

const out = {
  engine: 'llamacpp',
  version: version?.version ?? 'unknown',
  source: {
    files: [
      `\`${path.basename(exe)} --help\` of llama.cpp ${version?.version ?? '?'} (build ${version?.build ?? '?'}, commit ${version?.commit ?? '?'}), generated there from common/arg.cpp`,
    ],
    how: 'scripts/llamacpp-flags.ts parses the help text: names and aliases from the option column, bool when no value is named, choices from [a|b], {a,b} or "allowed values:"',
  },
  flags,
};
const file = path.join(import.meta.dirname, '..', 'src', 'engines', 'data', 'flags', `llamacpp-${out.version}.json`);
fs.writeFileSync(file, JSON.stringify(out, null, 1) + '\n');
process.stdout.write(`${file}: ${Object.keys(flags).length} flags\n`);
