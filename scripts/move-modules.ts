// Moves source files or folders with `git mv` and rewrites every relative import that names them,
// in the moved files and in every file that imports them, so a reorganisation is one command:
//   npx tsx scripts/move-modules.ts src/bench/http/sse.ts:src/bench/http/sse.ts src/sim/x:src/sim/y/x
// Paths are relative to the repository root; a folder moves with everything git tracks inside it.
// Docs and comments that name a moved path are not rewritten: test/unit/layout catches stale names.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, extname, posix } from 'node:path';

const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const SPEC = /((?:from|import|require|vi\.mock|vi\.importActual|import\.meta\.resolve)\s*\(?\s*)(['"])(\.{1,2}\/[^'"\n]+)\2/g;

function git(...args: string[]): string {
  return execFileSync('git', args, { encoding: 'utf8' });
}

/** old path -> new path for every tracked file the moves cover. */
function expand(pairs: [string, string][], files: Set<string>): Map<string, string> {
  const map = new Map<string, string>();
  for (const [from, to] of pairs) {
    if (files.has(from)) map.set(from, to);
    else {
      const prefix = from.replace(/\/$/, '') + '/';
      const inside = [...files].filter((f) => f.startsWith(prefix));
      if (inside.length === 0) throw new Error(`move-modules: ${from} is neither a tracked file nor a folder with tracked files`);
      for (const f of inside) map.set(f, to.replace(/\/$/, '') + '/' + f.slice(prefix.length));
    }
  }
  return map;
}

/** The tracked file a relative specifier names, from the importer's old location. */
function resolveSpec(importer: string, spec: string, files: Set<string>): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(importer), spec));
  const ext = extname(base);
  const stem = ext ? base.slice(0, -ext.length) : base;
  const candidates = [base];
  if (ext === '.js' || ext === '.jsx') candidates.push(stem + '.ts', stem + '.tsx');
  if (ext === '.mjs') candidates.push(stem + '.mts');
  if (!ext) candidates.push(base + '.ts', base + '.tsx', base + '.js', base + '/index.ts', base + '/index.js');
  return candidates.find((c) => files.has(c));
}

function respell(spec: string, target: string, newTarget: string, newImporter: string): string {
  const specExt = extname(spec);
  let path = newTarget;
  if (!specExt && /\/index\.(ts|js)$/.test(target)) path = posix.dirname(newTarget);
  else if (!specExt) path = newTarget.slice(0, -extname(newTarget).length);
  else if (extname(target) !== specExt) path = newTarget.slice(0, -extname(newTarget).length) + specExt;
  let rel = posix.relative(posix.dirname(newImporter), path);
  if (!rel.startsWith('.')) rel = './' + rel;
  return rel;
}

function main(): void {
  const pairs = process.argv.slice(2).map((a) => {
    const [from, to] = a.split(':');
    if (!from || !to) throw new Error(`move-modules: '${a}' is not OLD:NEW`);
    return [from, to] as [string, string];
  });
  const files = new Set(git('ls-files').split('\n').filter(Boolean));
  const map = expand(pairs, files);
  const rewritten = new Map<string, string>();
  for (const file of files) {
    if (!CODE.test(file) || !existsSync(file)) continue;
    const newFile = map.get(file) ?? file;
    const text = readFileSync(file, 'utf8');
    const out = text.replace(SPEC, (whole, lead: string, q: string, spec: string) => {
      const target = resolveSpec(file, spec, files);
      if (!target) return whole;
      const newTarget = map.get(target) ?? target;
      if (newTarget === target && newFile === file) return whole;
      return `${lead}${q}${respell(spec, target, newTarget, newFile)}${q}`;
    });
    if (out !== text) rewritten.set(file, out);
  }
  for (const [from, to] of map) {
    mkdirSync(dirname(to), { recursive: true });
    git('mv', from, to);
  }
  for (const [file, text] of rewritten) writeFileSync(map.get(file) ?? file, text);
  process.stdout.write(`moved ${map.size} file(s); rewrote imports in ${rewritten.size} file(s)\n`);
}

main();
