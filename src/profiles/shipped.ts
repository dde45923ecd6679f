// servelab's own profiles/ folder: the study profiles that ship with it (tracked in git, listed by
// tests). A user's results never go there (see xdg.ts for where they go).
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const SHIPPED_PROFILES_DIR = fileURLToPath(new URL('../../profiles', import.meta.url));

function real(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** Is `dir` servelab's own profiles folder? */
export function isShippedDir(dir: string): boolean {
  return real(dir) === real(SHIPPED_PROFILES_DIR);
}
