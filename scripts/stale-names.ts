// Names that outlived a move: a code comment, a src string citing a doc, or a doc that names a
// repository file which no longer exists (`src/old/name.ts`, `tune/old/name.ts`, a bare
// `name.ts`), and folders of src/ or src/tune that docs/architecture.md does not map. Files move
// often (scripts/move-modules.ts rewrites imports, not prose), and a caption that points at a file
// gone is worse than none.
//   npx tsx scripts/stale-names.ts     lists both; exit 1 when there is any
// test/unit/layout/stale-names.test.ts runs the same functions.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';

/** Folders whose code comments are read. */
export const CODE_DIRS = ['src', 'test', 'perf', 'model-lab', 'scripts', 'bin'];
/** The docs read whole: every .md under docs/, and these. */
export const DOC_FILES = ['README.md', 'perf/README.md', 'model-lab/README.md'];

/**
 * A path-like name with a code or doc extension: `a/b/x.ts`, `x.tsx`, `docs/x.md`. Not after a
 * colon: `OLD:NEW` in a move's example names a file that does not exist yet.
 */
const NAME = /(?<![\w./@:<>-])((?:[\w.{},*-]+\/)*[\w.{},*-]*[\w}*]\.(?:tsx?|mts|mjs|cjs|js|md))(?![\w/-])/g;
/** Names that are not this repository's files: build output, placeholders, templates. */
const FOREIGN = /^(dist\/|node_modules\/|\.\.\/|~\/|\/)|(^|\/)(x|y|a|b|foo|name|file|NAME)\.\w+$|^<|\$\{|\*/;

/**
 * Whether a name is meant as one of this repository's files. Comments cite other projects' files
 * too (vLLM's `docs/serving/...`, llama.cpp's `tools/server/README.md`, `RELEASE.md`), so a name
 * counts as ours when it starts with a folder of this repository (`src/`, `tune/`, `stage/`...), or
 * with `docs/` and a folder that exists there, or is a bare code file name (`name.ts`).
 */
export function isOurs(name: string, files: readonly string[]): boolean {
  const clean = name.replace(/^\.\//, '');
  const dirs = clean.split('/').slice(0, -1);
  if (dirs.length === 0) return /\.(tsx?|mts|mjs|cjs)$/.test(clean);
  if (dirs[0] === 'docs') return dirs.length === 1 || files.some((f) => f.startsWith(`docs/${dirs[1]}/`));
  return ourFolders(files).has(dirs[0]!);
}

/** Names of the folders that hold this repository's code and docs (top level, and any under the code roots). */
function ourFolders(files: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const f of files) {
    const parts = f.split('/').slice(0, -1);
    if (parts.length === 0) continue;
    out.add(parts[0]!);
    if (CODE_DIRS.includes(parts[0]!)) for (const p of parts) out.add(p);
  }
  out.delete('docs');
  return out;
}

/** Every file git tracks (a tree without git is walked), with forward slashes. */
export function repoFiles(root: string): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out.split('\0').filter((f) => f && existsSync(join(root, f)));
  } catch {
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const p = join(dir, n);
        if (statSync(p).isDirectory()) return n.startsWith('.') || n === 'node_modules' || n === 'dist' ? [] : walk(p);
        return [relative(root, p).split('\\').join('/')];
      });
    return walk(root);
  }
}

/** `a/{b,c}.ts` -> `a/b.ts`, `a/c.ts` (one level of braces, as the docs write them). */
export function expandBraces(name: string): string[] {
  const m = /\{([^{}]*)\}/.exec(name);
  if (!m) return [name];
  return m[1]!.split(',').flatMap((alt) => expandBraces(name.slice(0, m.index) + alt + name.slice(m.index + m[0].length)));
}

const tailsCache = new WeakMap<readonly string[], Set<string>>();

/** Every file and every path tail of one (`src/a/b.ts` -> itself, `a/b.ts`, `b.ts`), built once per list. */
function tails(files: readonly string[]): Set<string> {
  let out = tailsCache.get(files);
  if (out) return out;
  out = new Set<string>();
  for (const f of files) {
    const parts = f.split('/');
    for (let i = 0; i < parts.length; i++) out.add(parts.slice(i).join('/'));
  }
  tailsCache.set(files, out);
  return out;
}

/** Whether `name` (from a file in `fromDir`) is a file of the repository: a path, a path tail, or a basename. */
export function nameExists(name: string, fromDir: string, files: readonly string[]): boolean {
  const stems = (n: string) =>
    /\.js$/.test(n) ? [n, n.replace(/\.js$/, '.ts'), n.replace(/\.js$/, '.tsx'), n.replace(/\.js$/, '.mjs')] : [n];
  const known = tails(files);
  return expandBraces(name).every((one) =>
    stems(one).some((n) => known.has(posix.normalize(posix.join(fromDir, n))) || known.has(posix.normalize(n))),
  );
}

export interface StaleName {
  file: string;
  line: number;
  name: string;
}

function namesIn(text: string): { name: string; index: number }[] {
  const clean = text.replace(/https?:\/\/\S+/g, (m) => ' '.repeat(m.length));
  return [...clean.matchAll(NAME)].map((m) => ({ name: m[1]!, index: m.index! })).filter((n) => !FOREIGN.test(n.name));
}

/**
 * The comments of one code file, each with its offset, and its string literals that name a doc
 * (`.md`) when `strings` (src/ only: tests write made-up paths): a `source:` string citing a page
 * is a pointer as much as a comment is.
 */
export function comments(file: string, text: string, strings = file.startsWith('src/')): { text: string; pos: number }[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, /x$/.test(file) ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const seen = new Map<number, string>();
  const add = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) seen.set(r.pos, text.slice(r.pos, r.end));
  };
  const visit = (node: ts.Node): void => {
    if (strings && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && /\.md\b/.test(node.text)) {
      const inImport = ts.isImportDeclaration(node.parent) || ts.isExportDeclaration(node.parent);
      if (!inImport) seen.set(node.getStart(sf), node.getText(sf));
    }
    add(ts.getLeadingCommentRanges(text, node.pos));
    add(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  add(ts.getLeadingCommentRanges(text, 0));
  visit(sf);
  return [...seen].map(([pos, t]) => ({ pos, text: t }));
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** Every name of a missing file in code comments and in the docs. */
export function staleNames(root: string): StaleName[] {
  const files = repoFiles(root);
  const out: StaleName[] = [];
  const check = (file: string, text: string, parts: { text: string; pos: number }[]) => {
    for (const part of parts) {
      for (const { name, index } of namesIn(part.text)) {
        if (isOurs(name, files) && !nameExists(name, posix.dirname(file), files))
          out.push({ file, line: lineAt(text, part.pos + index), name });
      }
    }
  };
  const code = files.filter((f) => CODE_DIRS.some((d) => f.startsWith(`${d}/`)) && /\.(tsx?|mts|mjs|cjs)$/.test(f) && !f.endsWith('.d.ts'));
  for (const file of code) {
    const text = readFileSync(join(root, file), 'utf8');
    check(file, text, comments(file, text));
  }
  const docs = files.filter((f) => (f.startsWith('docs/') && f.endsWith('.md')) || DOC_FILES.includes(f));
  for (const file of docs) {
    const text = readFileSync(join(root, file), 'utf8');
    check(file, text, [{ text, pos: 0 }]);
  }
  return out;
}

/** Folders of src/ and src/tune that docs/architecture.md never names as `src/<folder>`. */
export function unmappedFolders(root: string): string[] {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const dirs = (d: string) =>
    existsSync(join(root, d))
      ? readdirSync(join(root, d))
          .filter((n) => statSync(join(root, d, n)).isDirectory())
          .map((n) => `${d}/${n}`)
      : [];
  return [...dirs('src'), ...dirs('src/tune')].filter((d) => !new RegExp(`\`${d}(/[^\`]*)?\``).test(doc));
}

if (process.argv[1] && /stale-names\.ts$/.test(process.argv[1])) {
  const root = process.cwd();
  const stale = staleNames(root);
  const unmapped = unmappedFolders(root);
  for (const s of stale) console.log(`${s.file}:${s.line}: ${s.name} does not exist`);
  for (const d of unmapped) console.log(`docs/architecture.md: ${d} is not on the map`);
  process.exitCode = stale.length || unmapped.length ? 1 : 0;
}
