// Exports from src/ that nothing uses: no file in src, test, perf, model-lab or scripts imports
// them (an import from a test counts as a use), and their own file does not use them either.
// Read from the TypeScript syntax tree, with re-exports (`export … from`, `export *`) followed to
// the file that declares the name, and a dynamic `import()` or `import * as` counted as using every
// export of its file. Not counted: a folder's index.ts re-exports (its front door) and names that
// start with '_' (compile-time type assertions). Prints one line per export; exit 1 when there is any.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';

const SCANNED = ['src', 'test', 'perf', 'model-lab', 'scripts'];
const CODE = /\.(ts|tsx|mts|mjs|js)$/;

export interface UnusedExport {
  file: string;
  name: string;
  line: number;
}

interface Export {
  name: string;
  line: number;
  /** The name is used in its own file beyond its declaration. */
  usedLocally: boolean;
  /** `export { a } from './x.js'` in a folder's index.ts: the folder's front door lists what it offers. */
  barrel?: boolean;
}

interface Module {
  exports: Export[];
  /** `export { a as b } from './x.js'`: b here is a in x. */
  reexports: { name: string; from: string; as: string }[];
  /** `export * from './x.js'`. */
  starFrom: string[];
  /** Names this file imports, per file imported from; '*' for every export. */
  imports: Map<string, Set<string>>;
}

function walk(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (CODE.test(name) && !name.endsWith('.d.ts') && !name.endsWith('.d.mts')) out.push(p);
  }
  return out;
}

/** The scanned file a relative specifier names, from `importer` (paths relative to the root). */
function resolve(importer: string, spec: string, files: Set<string>): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = posix.normalize(posix.join(posix.dirname(importer), spec));
  const stem = base.replace(/\.(js|jsx|mjs|ts|tsx)$/, '');
  return [base, stem + '.ts', stem + '.tsx', stem + '.mts', base + '.ts', base + '.tsx', base + '/index.ts'].find((c) => files.has(c));
}

const isExported = (n: ts.Node) => ts.canHaveModifiers(n) && (ts.getModifiers(n) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

/** Identifier uses of each name in the file, its declarations and export lists aside. */
function identifierCounts(sf: ts.SourceFile): Map<string, number> {
  const counts = new Map<string, number>();
  const visit = (n: ts.Node): void => {
    if (ts.isExportDeclaration(n) || ts.isImportDeclaration(n)) return;
    if (ts.isIdentifier(n)) {
      const p = n.parent;
      const isDecl = p && (p as { name?: ts.Node }).name === n && (ts.isDeclarationStatement(p) || ts.isVariableDeclaration(p));
      if (!isDecl) counts.set(n.text, (counts.get(n.text) ?? 0) + 1);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return counts;
}

function declaredExports(sf: ts.SourceFile, counts: Map<string, number>): Export[] {
  const out: Export[] = [];
  const add = (name: string, node: ts.Node) =>
    out.push({ name, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, usedLocally: (counts.get(name) ?? 0) > 0 });
  for (const st of sf.statements) {
    if (ts.isExportAssignment(st)) add('default', st);
    if (!isExported(st)) continue;
    const isDefault = (ts.getModifiers(st as ts.HasModifiers) ?? []).some((m) => m.kind === ts.SyntaxKind.DefaultKeyword);
    if (ts.isVariableStatement(st)) {
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name)) add(d.name.text, d);
    } else if (isDefault) add('default', st);
    else {
      const name = (st as { name?: ts.Identifier }).name;
      if (name && ts.isIdentifier(name)) add(name.text, st);
    }
  }
  return out;
}

function readModule(file: string, text: string, files: Set<string>): Module {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const m: Module = { exports: declaredExports(sf, identifierCounts(sf)), reexports: [], starFrom: [], imports: new Map() };
  const use = (target: string | undefined, name: string) => {
    if (!target) return;
    if (!m.imports.has(target)) m.imports.set(target, new Set());
    m.imports.get(target)!.add(name);
  };
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st) && ts.isStringLiteral(st.moduleSpecifier)) {
      const target = resolve(file, st.moduleSpecifier.text, files);
      const c = st.importClause;
      if (!c) continue;
      if (c.name) use(target, 'default');
      const b = c.namedBindings;
      if (b && ts.isNamespaceImport(b)) use(target, '*');
      if (b && ts.isNamedImports(b)) for (const e of b.elements) use(target, (e.propertyName ?? e.name).text);
    }
    if (ts.isExportDeclaration(st)) {
      const from = st.moduleSpecifier && ts.isStringLiteral(st.moduleSpecifier) ? resolve(file, st.moduleSpecifier.text, files) : undefined;
      const clause = st.exportClause;
      if (!clause) {
        if (from) m.starFrom.push(from);
      } else if (ts.isNamedExports(clause)) {
        for (const e of clause.elements) {
          const local = (e.propertyName ?? e.name).text;
          const line = sf.getLineAndCharacterOfPosition(e.getStart(sf)).line + 1;
          if (from) m.reexports.push({ name: local, from, as: e.name.text });
          m.exports.push({ name: e.name.text, line, usedLocally: false, barrel: !!from && /(^|\/)index\.ts$/.test(file) });
        }
      }
    }
  }
  const dynamic = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const a = n.arguments[0];
      if (a && ts.isStringLiteralLike(a)) use(resolve(file, a.text, files), '*');
    }
    ts.forEachChild(n, dynamic);
  };
  dynamic(sf);
  return m;
}

/** Every export of a src/ file that no scanned file imports and its own file does not use. */
export function unusedExports(root: string): UnusedExport[] {
  const paths = SCANNED.flatMap((d) => walk(join(root, d))).map((p) => relative(root, p).split('\\').join('/'));
  const files = new Set(paths);
  const modules = new Map(paths.map((f) => [f, readModule(f, readFileSync(join(root, f), 'utf8'), files)]));
  const used = new Set<string>();
  const pending: [string, string][] = [];
  const mark = (file: string, name: string) => {
    const key = `${file}\0${name}`;
    if (used.has(key)) return;
    used.add(key);
    pending.push([file, name]);
  };
  for (const m of modules.values()) for (const [target, names] of m.imports) for (const n of names) mark(target, n);
  // A use of a name follows re-exports to where it is declared.
  while (pending.length > 0) {
    const [file, name] = pending.pop()!;
    const m = modules.get(file);
    if (!m) continue;
    for (const r of m.reexports) if (name === '*' || r.as === name) mark(r.from, r.name);
    if (name === '*' || !m.exports.some((e) => e.name === name)) for (const s of m.starFrom) mark(s, name);
  }
  const out: UnusedExport[] = [];
  for (const [file, m] of modules) {
    if (!file.startsWith('src/')) continue;
    for (const e of m.exports) {
      if (e.usedLocally || e.barrel || e.name.startsWith('_')) continue;
      if (used.has(`${file}\0${e.name}`) || used.has(`${file}\0*`)) continue;
      out.push({ file, name: e.name, line: e.line });
    }
  }
  return out.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);
}

if (process.argv[1] && /unused-exports\.ts$/.test(process.argv[1])) {
  const found = unusedExports(process.cwd());
  for (const u of found) console.log(`${u.file}:${u.line} ${u.name}`);
  console.log(`${found.length} unused export(s) in src/`);
  process.exitCode = found.length > 0 ? 1 : 0;
}
