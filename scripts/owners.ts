// Pass-through exports in src/, measured on the TypeScript syntax tree: a name re-exported from
// another file (`export { x } from`, `export * from`, `export { x }` of an imported binding) or an
// alias that gives one value or type a second name (`export const a = b`, `export type A = B`).
// Each rule should have one owner that callers import from, so the house report counts these.
// Barrel files (index.ts) are listed apart: a barrel is a deliberate front door, not an alias.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface PassThrough {
  file: string;
  line: number;
  kind: 're-export' | 'alias';
  text: string;
}

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

const isExported = (node: ts.Node): boolean =>
  (ts.canHaveModifiers(node) ? ts.getModifiers(node) : undefined)?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;

/** Names bound by the file's imports. */
function importedNames(sf: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const st of sf.statements) {
    const clause = ts.isImportDeclaration(st) ? st.importClause : undefined;
    if (!clause) continue;
    if (clause.name) names.add(clause.name.text);
    const b = clause.namedBindings;
    if (b && ts.isNamespaceImport(b)) names.add(b.name.text);
    if (b && ts.isNamedImports(b)) for (const el of b.elements) names.add(el.name.text);
  }
  return names;
}

/** A bare name (or a namespace member, `ns.x`) standing alone as a value or type. */
function aliasTarget(node: ts.Node | undefined): string | undefined {
  if (!node) return undefined;
  if (ts.isIdentifier(node)) return node.text;
  if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) return node.expression.text;
  if (ts.isTypeReferenceNode(node) && !node.typeArguments) {
    const n = node.typeName;
    return ts.isIdentifier(n) ? n.text : ts.isIdentifier(n.left) ? n.left.text : undefined;
  }
  return undefined;
}

/** Pass-through exports of one file. Aliases count whether the target is imported or local. */
export function filePassThroughs(file: string, text: string): PassThrough[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const imported = importedNames(sf);
  const out: PassThrough[] = [];
  const add = (node: ts.Node, kind: PassThrough['kind']) =>
    out.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, kind, text: node.getText(sf).split('\n')[0] });
  for (const st of sf.statements) {
    if (ts.isExportDeclaration(st)) {
      if (st.moduleSpecifier) add(st, 're-export');
      else if (st.exportClause && ts.isNamedExports(st.exportClause)) {
        const through = st.exportClause.elements.some((el) => imported.has((el.propertyName ?? el.name).text));
        if (through) add(st, 're-export');
      }
    } else if (ts.isVariableStatement(st) && isExported(st)) {
      for (const d of st.declarationList.declarations) if (aliasTarget(d.initializer)) add(st, 'alias');
    } else if (ts.isTypeAliasDeclaration(st) && isExported(st) && !st.typeParameters && aliasTarget(st.type)) {
      add(st, 'alias');
    }
  }
  return out;
}

export const isBarrel = (file: string): boolean => /(^|\/)index\.tsx?$/.test(file);

/** Every pass-through export under root/src, barrels included (filter with isBarrel). */
export function passThroughs(root: string): PassThrough[] {
  return walk(join(root, 'src')).flatMap((p) => filePassThroughs(relative(root, p).split('\\').join('/'), readFileSync(p, 'utf8')));
}

/** The figure for the house report: pass-through exports outside barrel files. */
export function passThroughCount(root: string): number {
  return passThroughs(root).filter((p) => !isBarrel(p.file)).length;
}

if (process.argv[1] && /owners\.ts$/.test(process.argv[1])) {
  const all = passThroughs(process.cwd());
  for (const p of all) console.log(`${p.file}:${p.line} ${isBarrel(p.file) ? 'barrel' : p.kind}: ${p.text}`);
  console.log(
    `${all.filter((p) => !isBarrel(p.file)).length} pass-through exports outside barrels, ${all.filter((p) => isBarrel(p.file)).length} in barrels`,
  );
}
