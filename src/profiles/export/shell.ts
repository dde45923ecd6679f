// `export --format shell`: a profile's winning server as a bash launch script: its env, its
// files written beside the script, then the recorded argv unchanged (extra arguments go to it).
import { shellQuote } from '../../core/shell-quote.js';
import type { Profile } from '../schema/profile.js';
import { relocateFiles } from '../store/files.js';
import { DIR_MARK, filesPreamble, header, shellWords } from './common.js';

export function exportShell(p: Profile, file: string): string {
  const lines = [
    '#!/usr/bin/env bash',
    ...header(p, file, '#'),
    '# Extra arguments to this script are passed to the server.',
    'set -euo pipefail',
  ];
  for (const [k, v] of Object.entries(p.env)) lines.push(`export ${k}=${shellQuote(v)}`);
  lines.push(...filesPreamble(p));
  const { argv } = relocateFiles(p.engineArgv, p.files, DIR_MARK);
  lines.push(`exec ${shellWords(argv)} "$@"`, '');
  return lines.join('\n');
}
