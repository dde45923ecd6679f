// Resolve an executable from PATH without a shell (tests put fake tools first on PATH). In the core:
// engines (detect) and host (gpus, procs, spawn-guarded) both look tools up, and host sits below
// engines (it never imports them), so the lookup lives below both.
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

export function findOnPath(name: string, envPath: string | undefined = process.env.PATH): string | undefined {
  if (name.includes('/')) return isExecutable(name) ? name : undefined;
  for (const dir of (envPath ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const full = path.join(dir, name);
    if (isExecutable(full)) return full;
  }
  return undefined;
}

function isExecutable(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
