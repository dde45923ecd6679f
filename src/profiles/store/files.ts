// Files a recorded command reads (TensorRT-LLM's YAML) live in the profile with their content.
// Wherever the command runs again, they are written to a new folder and the argv points there.
import { basename, posix } from 'node:path';
import type { Profile } from '../schema/profile.js';

export type ProfileFile = Profile['files'][number];

/** The argv and files with every file moved into `dir` (argv elements `P` and `--flag=P` follow). */
export function relocateFiles(
  argv: readonly string[],
  files: readonly ProfileFile[],
  dir: string,
): { argv: string[]; files: ProfileFile[] } {
  const moves = new Map(files.map((f) => [f.path, posix.join(dir, basename(f.path))]));
  const out = argv.map((a) => {
    const direct = moves.get(a);
    if (direct) return direct;
    const eq = a.indexOf('=');
    if (a.startsWith('--') && eq > 0) {
      const moved = moves.get(a.slice(eq + 1));
      if (moved) return `${a.slice(0, eq + 1)}${moved}`;
    }
    return a;
  });
  return { argv: out, files: files.map((f) => ({ path: moves.get(f.path)!, content: f.content })) };
}
