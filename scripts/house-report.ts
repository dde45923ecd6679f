// The house figures in one print, so a round of refactoring can say what it changed: engine-name
// branches outside src/engines, import cycles (file, folder and top-level folder, type imports
// included), flag tables and their formats, dead exports, rules with more than one owner, and
// test files by tier. Figures another script of scripts/ owns (engine branches, unused exports,
// owners) are read from it when it is there, and said to be missing when not.
//   npx tsx scripts/house-report.ts [ROOT]     (ROOT: a checkout to measure; default the current one)
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { collapse, conceptOf, cycles, folderOf, importGraph } from './import-graph.js';

const ENGINES = new Set(['vllm', 'sglang', 'trtllm', 'llamacpp', 'sim']);

function walk(dir: string, test: (name: string) => boolean, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, test, out);
    else if (test(name)) out.push(p);
  }
  return out;
}

const parse = (path: string) =>
  ts.createSourceFile(
    path,
    readFileSync(path, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );

function eachNode(sf: ts.SourceFile, fn: (node: ts.Node) => void): void {
  const visit = (node: ts.Node): void => {
    fn(node);
    ts.forEachChild(node, visit);
  };
  visit(sf);
}

/** A figure from a sibling script: its first function among `names`, called with the root; undefined when the script is missing. */
async function sibling(root: string, file: string, names: string[]): Promise<string | undefined> {
  // This checkout's counters, run over ROOT: an older checkout is measured by today's rules.
  const path = join(import.meta.dirname, file);
  if (!existsSync(path)) return undefined;
  try {
    const mod = (await import(pathToFileURL(path).href)) as Record<string, unknown>;
    const fn = names.map((n) => mod[n]).find((f): f is (root: string) => unknown => typeof f === 'function');
    if (!fn) return `n/a (${file} exports none of ${names.join(', ')})`;
    const value = await fn(root);
    if (Array.isArray(value)) return String(value.length);
    if (value && typeof value === 'object' && 'length' in value) return String((value as { length: number }).length);
    if (value && typeof value === 'object' && 'total' in value) {
      const v = value as { total: number; byFile: Record<string, number> | Map<string, number> };
      const files = v.byFile instanceof Map ? v.byFile.size : Object.keys(v.byFile ?? {}).length;
      return `${v.total} in ${files} files`;
    }
    return String(value);
  } catch (err) {
    return `n/a (${file} failed: ${(err as Error).message.split('\n')[0]})`;
  }
}

/** `x === 'vllm'`, `'llamacpp' !== e`, `case 'sglang':` in src outside src/engines. */
function engineBranchesByAst(root: string): { count: number; files: number } {
  let count = 0;
  const files = new Set<string>();
  const isEngine = (n: ts.Node) => ts.isStringLiteral(n) && ENGINES.has(n.text);
  const EQ = [
    ts.SyntaxKind.EqualsEqualsEqualsToken,
    ts.SyntaxKind.ExclamationEqualsEqualsToken,
    ts.SyntaxKind.EqualsEqualsToken,
    ts.SyntaxKind.ExclamationEqualsToken,
  ];
  for (const path of walk(join(root, 'src'), (n) => /\.tsx?$/.test(n))) {
    if (relative(root, path).split('\\').join('/').startsWith('src/engines/')) continue;
    eachNode(parse(path), (node) => {
      const hit =
        (ts.isBinaryExpression(node) && EQ.includes(node.operatorToken.kind) && (isEngine(node.left) || isEngine(node.right))) ||
        (ts.isCaseClause(node) && isEngine(node.expression));
      if (hit) {
        count++;
        files.add(path);
      }
    });
  }
  return { count, files: files.size };
}

/** Files that declare a flag table, by format: node parseArgs options (`{type: 'string'|'boolean'}`) or `{kind, help}` / `{kind, set}` rows (sim/args). */
function flagTables(root: string): { parseArgs: number; kindHelp: number; folders: Set<string> } {
  const out = { parseArgs: 0, kindHelp: 0, folders: new Set<string>() };
  for (const path of walk(join(root, 'src'), (n) => /\.tsx?$/.test(n))) {
    let parseArgs = false;
    let kindHelp = false;
    eachNode(parse(path), (node) => {
      if (!ts.isObjectLiteralExpression(node)) return;
      const props = new Map(node.properties.filter(ts.isPropertyAssignment).map((p) => [p.name.getText(), p.initializer] as const));
      const type = props.get('type');
      if (type && ts.isStringLiteral(type) && (type.text === 'string' || type.text === 'boolean') && ts.isPropertyAssignment(node.parent)) {
        parseArgs = true;
      }
      const kind = props.get('kind');
      // A flag row is the value of its flag's name in a table (the TUI's form fields are array items).
      const row = ts.isPropertyAssignment(node.parent);
      if (row && kind && ts.isStringLiteral(kind) && ['string', 'boolean', 'number', 'list'].includes(kind.text)) kindHelp = true;
    });
    if (parseArgs) out.parseArgs++;
    if (kindHelp) out.kindHelp++;
    if (parseArgs || kindHelp) out.folders.add(relative(root, dirname(path)).split('\\').join('/'));
  }
  return out;
}

/** Test files per tier folder (test/unit, test/process, test/timing). */
async function testTiers(root: string): Promise<string> {
  const all = walk(join(root, 'test'), (n) => /\.test\.tsx?$/.test(n)).map((p) => relative(join(root, 'test'), p).split('\\').join('/'));
  const tierDirs = ['unit', 'process', 'integration', 'e2e', 'timing'].filter((d) => all.some((f) => f.startsWith(`${d}/`)));
  if (tierDirs.includes('unit')) {
    const counts = tierDirs.map((d) => `${d} ${all.filter((f) => f.startsWith(`${d}/`)).length}`);
    const rest = all.filter((f) => !tierDirs.some((d) => f.startsWith(`${d}/`))).length;
    return `${counts.join(', ')}${rest ? `, elsewhere ${rest}` : ''} (by folder)`;
  }
  // Before the tier folders, the tier was read from each file's text; an older checkout says so.
  return `${all.length} files, no tier folders`;
}

const cycleLine = (found: string[][]) =>
  `${found.length}${found.length ? `: ${found.map((c) => (c.length > 4 ? `${c.slice(0, 4).join(' ')} ... (${c.length})` : c.join(' <-> '))).join('; ')}` : ''}`;

async function main(): Promise<void> {
  const root = resolve(process.argv[2] ?? process.cwd());
  const graph = importGraph(root);
  const edges = [...graph.edges.values()].reduce((n, s) => n + s.size, 0);
  const own = engineBranchesByAst(root);
  const branches =
    (await sibling(root, 'engine-branches.ts', ['engineBranches'])) ??
    `${own.count} in ${own.files} files (own AST count: ==/!= or case on an engine name; scripts/engine-branches.ts missing)`;
  const flags = flagTables(root);
  const rows: [string, string][] = [
    ['engine-name branches outside src/engines', branches],
    ['files a new engine needs', (await sibling(root, 'engine-branches.ts', ['newEngineFiles'])) ?? 'n/a (script missing)'],
    ['import graph (src)', `${graph.files.length} files, ${edges} edges, type imports included`],
    ['cycles: files', cycleLine(cycles(graph.edges))],
    ['cycles: folders (sub-folders apart)', cycleLine(cycles(collapse(graph, folderOf)))],
    ['cycles: top-level folders', cycleLine(cycles(collapse(graph, conceptOf)))],
    [
      'flag-table files',
      `${flags.parseArgs + flags.kindHelp}: parseArgs options ${flags.parseArgs}, {kind} rows ${flags.kindHelp}; formats ${[flags.parseArgs, flags.kindHelp].filter(Boolean).length}; in ${[...flags.folders].sort().join(', ')}`,
    ],
    ['dead exports', (await sibling(root, 'unused-exports.ts', ['unusedExports', 'deadExports'])) ?? 'n/a (script missing)'],
    ['pass-through re-exports and aliases', (await sibling(root, 'owners.ts', ['passThroughCount'])) ?? 'n/a (script missing)'],
    ['test files by tier', await testTiers(root)],
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
}

await main();
