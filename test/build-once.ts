// Vitest's global setup: the bundle the process tests start (test/helpers/bin.ts), built from the
// current sources by `npm run build`'s own script. A fingerprint of what goes into the bundle (the
// sources, the build scripts, the locked dependencies) is kept beside it, so an unchanged tree
// reuses the bundle (a second test run, or one file run alone) and any edit rebuilds it.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILT_BIN, fromSources } from './helpers/bin.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const INPUTS = ['src', 'scripts/build.mjs', 'scripts/esbuild-node.mjs', 'package.json', 'package-lock.json'];
const STAMP = join(ROOT, 'dist', '.test-sources');

function files(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

function fingerprint(): string {
  const h = createHash('sha256');
  for (const f of INPUTS.flatMap((p) => files(join(ROOT, p))))
    h.update(relative(ROOT, f)).update('\0').update(readFileSync(f)).update('\0');
  return h.digest('hex');
}

export default function setup(): void {
  if (fromSources()) return;
  const want = fingerprint();
  const have = existsSync(STAMP) && existsSync(BUILT_BIN) ? readFileSync(STAMP, 'utf8') : '';
  if (have === want) return;
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  writeFileSync(STAMP, want);
}
