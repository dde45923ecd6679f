// Write src/engines/data/flags/llamacpp-<version>.json, the reference flag list of a llama-server
// build, from its own `--help` (parsed by src/engines/llamacpp/help-flags.ts). Run: npx tsx scripts/llamacpp-flags.ts [PATH-TO-llama-server]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findLlamaServer, parseLlamaVersion } from '../src/engines/llamacpp/detect.js';
import { parseLlamaHelp } from '../src/engines/llamacpp/help-flags.js';

const exe = findLlamaServer(process.argv[2])?.path;
if (!exe) throw new Error('no llama-server: give its path, or run `servelab engines build llamacpp`');
/** stdout and stderr of one run (--version prints on stderr). */
const run = (args: string[]) => {
  const r = spawnSync(exe, args, { encoding: 'utf8' });
  return `${r.stdout}${r.stderr}`;
};
const version = parseLlamaVersion(run(['--version']));
const help = run(['--help']);

const flags = parseLlamaHelp(help);

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
