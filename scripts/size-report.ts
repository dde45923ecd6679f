// Files over 300 lines and functions over 80 lines in src/ (the house's size budget: past it a
// file or function is hard to read whole), measured on the TypeScript syntax tree. Data tables are
// exempt by name (DATA_FILES). Prints one line per offender; exit 1 when there is any.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export const MAX_FILE_LINES = 300;
export const MAX_FUNCTION_LINES = 80;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.(tsx?|mjs)$/.test(name)) out.push(p);
  }
  return out;
}

/**
 * Data, not code, named one by one (a new file is never exempt by its folder or name): each is a
 * table whose rows belong together, and splitting it would only scatter one source's facts.
 */
export const DATA_FILES: ReadonlySet<string> = new Set([
  // Published benchmark rows held out from the fit, one source page after another.
  'src/model/data/published-wider.ts',
]);

const isData = (file: string) => DATA_FILES.has(file.split('\\').join('/'));

export interface Offender {
  file: string;
  what: string;
  lines: number;
}

function functionName(node: ts.Node): string {
  const n = (node as { name?: ts.Node }).name;
  if (n && ts.isIdentifier(n)) return n.text;
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isPropertyAssignment(parent) && ts.isIdentifier(parent.name)) return parent.name.text;
  return '(anonymous)';
}

export function sizeOffenders(root: string): Offender[] {
  const out: Offender[] = [];
  for (const path of walk(join(root, 'src'))) {
    const file = relative(root, path);
    if (isData(file)) continue;
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES) out.push({ file, what: 'file', lines });
    const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const visit = (node: ts.Node): void => {
      if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isArrowFunction(node) || ts.isFunctionExpression(node)) {
        const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
        const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
        if (end - start + 1 > MAX_FUNCTION_LINES) out.push({ file, what: `function ${functionName(node)}`, lines: end - start + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(sf);
  }
  return out;
}

if (process.argv[1] && /size-report\.ts$/.test(process.argv[1])) {
  const found = sizeOffenders(process.cwd());
  for (const o of found) console.log(`${o.file}: ${o.what} is ${o.lines} lines`);
  console.log(
    found.length ? `${found.length} over the budget (files ${MAX_FILE_LINES}, functions ${MAX_FUNCTION_LINES} lines)` : 'within the budget',
  );
  process.exitCode = found.length ? 1 : 0;
}
