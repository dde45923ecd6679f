// servelab's own profiles/ folder: the study profiles that ship with it (tracked in git, listed by
// tests). A user's results never go there (see xdg.ts for where they go).
import { realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PACKAGE_ROOT } from '../../core/self.js';

// From the package root, not import.meta.url: the build bundles this file elsewhere (core/self.ts).
export const SHIPPED_PROFILES_DIR = join(PACKAGE_ROOT, 'profiles');

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
