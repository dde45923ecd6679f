// The import graph of src/, read with the TypeScript compiler's pre-processor (type imports,
// re-exports and dynamic imports included), and its cycles (strongly connected components of more
// than one node) at three levels: file, folder, and concept (the top-level folder of src/, its
// sub-folders counted as itself). dependency-cruiser checks files and folders but treats
// `model/gguf` and `model/calibration` as two folders, so a cycle between two concepts through
// different sub-folders slipped past it; the house report and test/unit/layout read the concept level here.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative } from 'node:path';
import ts from 'typescript';

export interface ImportGraph {
  /** Files, relative to the root, with forward slashes. */
  files: string[];
  /** importer -> imported files inside the graph. */
  edges: Map<string, Set<string>>;
}

const CODE = /\.(tsx?|mts|mjs|cjs|js)$/;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (CODE.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** The file a relative specifier names (`./x.js` may be `./x.ts`), or undefined outside the graph. */
function resolveSpec(importer: string, spec: string, files: Set<string>): string | undefined {
  const base = posix.normalize(posix.join(posix.dirname(importer), spec));
  const stem = base.replace(/\.(js|jsx|mjs)$/, '');
  const tries = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`];
  return tries.find((t) => files.has(t));
}

/** Every import edge among the code files under `root/dir` (default src). */
export function importGraph(root: string, dir = 'src'): ImportGraph {
  const abs = join(root, dir);
  const files = existsSync(abs) ? walk(abs).map((p) => relative(root, p).split('\\').join('/')) : [];
  const known = new Set(files);
  const edges = new Map<string, Set<string>>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const out = new Set<string>();
    for (const ref of info.importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      const to = resolveSpec(file, ref.fileName, known);
      if (to && to !== file) out.add(to);
    }
    edges.set(file, out);
  }
  return { files, edges };
}

/** The graph with each node replaced by `key(node)`; self-edges dropped. */
export function collapse(graph: ImportGraph, key: (file: string) => string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const f of graph.files) if (!out.has(key(f))) out.set(key(f), new Set());
  for (const [from, tos] of graph.edges) {
    for (const to of tos) if (key(from) !== key(to)) out.get(key(from))!.add(key(to));
  }
  return out;
}

/** Strongly connected components with more than one node (Tarjan), each sorted. */
export function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) !== idx.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) found.push(scc.sort());
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

/** `src/model/calibration/fit.ts` -> `src/model/calibration`. */
export const folderOf = (file: string): string => posix.dirname(file);

/** `src/model/calibration/fit.ts` -> `model`; a file at src's root is its own concept (`cli.tsx`, not the `cli` folder). */
export function conceptOf(file: string): string {
  return file.split('/')[1]!;
}

/** Cycles at file, folder and concept level. */
export function cycleReport(root: string): { file: string[][]; folder: string[][]; concept: string[][] } {
  const g = importGraph(root);
  return { file: cycles(g.edges), folder: cycles(collapse(g, folderOf)), concept: cycles(collapse(g, conceptOf)) };
}
