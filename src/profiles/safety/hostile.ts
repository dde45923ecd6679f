// A profile is data from someone else. Beyond the schema, what would let its data escape where it
// is put: env names that are not variable names (they are written as `export NAME=...`), and file
// paths whose name is not a plain file name (the file must land inside the run folder: `..`,
// `.`, empty, or control characters that break out of a comment line in an export).
import { basename } from 'node:path';
import { UserError } from '../../core/errors.js';

/** Same exit code and form as store/store.ts's ProfileError (bad input, exit 2). */
const bad = (m: string) => new UserError(m, 2);

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\x00-\x1f\x7f]/;

export function checkProfileData(
  p: {
    env: Record<string, string>;
    files: { path: string; content: string }[];
    results?: unknown;
    variant?: { knobs: { env?: Record<string, string> } };
  },
  file: string,
): void {
  // The variant's env knob is launched as the recorded env is, so its names are held to the same rule.
  const named: [string, Record<string, string>][] = [
    ['env', p.env],
    ['variant.knobs.env', p.variant?.knobs.env ?? {}],
  ];
  for (const [where, env] of named) {
    for (const k of Object.keys(env)) {
      if (!ENV_NAME.test(k))
        throw bad(`profile ${file}: ${where}: ${JSON.stringify(k)} is not an environment variable name (letters, digits, _)`);
    }
  }
  for (const [i, f] of p.files.entries()) {
    const name = basename(f.path);
    if (!name || name === '.' || name === '..' || CONTROL.test(f.path) || f.path.endsWith('/')) {
      throw bad(`profile ${file}: files[${i}].path: ${JSON.stringify(f.path)} does not end in a plain file name`);
    }
    if (f.content.includes('\0')) throw bad(`profile ${file}: files[${i}].content: holds a NUL byte`);
  }
}

/** One line of text for a comment or a one-line field: control characters shown as '?'. */
export function oneLine(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\x00-\x1f\x7f]/g, '?');
}

/** A here-document delimiter that is no line of `content` (else the rest would run as commands). */
export function heredocDelimiter(content: string): string {
  const lines = new Set(content.split('\n'));
  let d = 'SERVELAB_EOF';
  for (let n = 2; lines.has(d); n++) d = `SERVELAB_EOF_${n}`;
  return d;
}
