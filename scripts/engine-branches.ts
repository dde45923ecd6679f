// Counts the places outside src/engines that branch on an engine's name, read from the syntax tree:
// `x === 'vllm'` / `!==`, `case 'llamacpp':`, and `['vllm', 'sglang'].includes(x)`. The goal is none:
// code outside the adapters asks the adapter what differs, so a new engine is one folder plus a
// registry line. Also counts the files docs/architecture.md says a new engine needs.
// Usage: npx tsx scripts/engine-branches.ts [root]
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Every engine name servelab knows, the simulated one included. */
const ENGINE_NAMES = new Set(['vllm', 'sglang', 'trtllm', 'llamacpp', 'sim']);

export interface EngineBranches {
  total: number;
  /** Path relative to root (forward slashes) -> branches in that file. */
  byFile: Record<string, number>;
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.tsx?$/.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

function isEngineLiteral(node: ts.Node): boolean {
  return (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) && ENGINE_NAMES.has(node.text);
}

const EQUALITY = new Set([
  ts.SyntaxKind.EqualsEqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsEqualsToken,
  ts.SyntaxKind.EqualsEqualsToken,
  ts.SyntaxKind.ExclamationEqualsToken,
]);

/** `[...engine names].includes(x)`: an array literal of engine names whose `includes` is called. */
function isEngineListIncludes(node: ts.CallExpression): boolean {
  const callee = node.expression;
  if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'includes') return false;
  let target: ts.Expression = callee.expression;
  while (ts.isParenthesizedExpression(target) || ts.isAsExpression(target)) target = target.expression;
  return ts.isArrayLiteralExpression(target) && target.elements.length > 0 && target.elements.every(isEngineLiteral);
}

/** Engine-name branches in one file's text. */
export function countBranches(fileName: string, text: string): number {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  let count = 0;
  const visit = (node: ts.Node): void => {
    if (ts.isBinaryExpression(node) && EQUALITY.has(node.operatorToken.kind)) {
      if (isEngineLiteral(node.left) || isEngineLiteral(node.right)) count++;
    } else if (ts.isCaseClause(node) && isEngineLiteral(node.expression)) count++;
    else if (ts.isCallExpression(node) && isEngineListIncludes(node)) count++;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return count;
}

/** Engine-name branches in root/src outside root/src/engines, by file and in total. */
export function engineBranches(root: string): EngineBranches {
  const src = join(root, 'src');
  const engines = join(src, 'engines') + sep;
  const byFile: Record<string, number> = {};
  let total = 0;
  for (const path of sourceFiles(src)) {
    if (path.startsWith(engines)) continue;
    const n = countBranches(path, readFileSync(path, 'utf8'));
    if (n === 0) continue;
    byFile[relative(root, path).split(sep).join('/')] = n;
    total += n;
  }
  return { total, byFile };
}

/** The files docs/architecture.md's "Adding an engine" lists: its bullet lines holding a `path`. */
export function newEngineFiles(root: string): string[] {
  const doc = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
  const section = doc.split(/^## /m).find((s) => s.startsWith('Adding an engine'));
  if (!section) return [];
  return section
    .split('\n')
    .filter((line) => /^- `[^`]+`/.test(line))
    .map((line) => /^- `([^`]+)`/.exec(line)![1]!);
}

function main(): void {
  const root = process.argv[2] ?? join(fileURLToPath(new URL('.', import.meta.url)), '..');
  const { total, byFile } = engineBranches(root);
  for (const [file, n] of Object.entries(byFile).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) {
    console.log(`${String(n).padStart(4)}  ${file}`);
  }
  console.log(`engine-name branches outside src/engines: ${total} in ${Object.keys(byFile).length} files`);
  const files = newEngineFiles(root);
  console.log(`files a new engine needs (docs/architecture.md, Adding an engine): ${files.length}`);
  for (const f of files) console.log(`      ${f}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
