// Every relative link in the repository's Markdown points somewhere real: the file (or folder) it
// names exists, and its #anchor is a heading of that file as GitHub spells heading ids. Docs move
// (docs/ -> perf/, model-lab/), and a moved page must not leave dead links behind it. Links to
// other sites are not followed (no network); links inside code spans and fences are not links.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const SKIP_DIRS = new Set(['node_modules', 'dist', 'servelab-runs', 'tmp']);

/** The tracked Markdown files; a tree without git (a copied checkout) is walked instead. */
function markdownFiles(root: string): string[] {
  try {
    const out = execFileSync('git', ['ls-files', '-z', '--', '*.md'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return out
      .split('\0')
      .filter(Boolean)
      .map((f) => join(root, f))
      .filter((f) => existsSync(f));
  } catch {
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((n) => {
        const p = join(dir, n);
        if (statSync(p).isDirectory()) return n.startsWith('.') || SKIP_DIRS.has(n) ? [] : walk(p);
        return n.endsWith('.md') ? [p] : [];
      });
    return walk(root);
  }
}

/** The text with fenced blocks and inline code spans blanked out (their brackets are not links). */
function withoutCode(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's heading id: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2. */
export function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  const seen = new Map<string, number>();
  const body = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const m of body.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const text = m[1]!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    ids.add(n === 0 ? base : `${base}-${n}`);
  }
  return ids;
}

/** Every relative link of one file that does not resolve, as "file: target (why)". */
export function brokenLinks(file: string, root: string): string[] {
  const text = withoutCode(readFileSync(file, 'utf8'));
  const targets = [
    ...[...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!),
    ...[...text.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]!),
  ];
  const broken: string[] = [];
  for (const target of targets) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const [pathPart = '', anchor] = target.split('#', 2) as [string, string | undefined];
    const dest = pathPart ? resolve(dirname(file), decodeURIComponent(pathPart)) : file;
    const where = `${relative(root, file)}: ${target}`;
    if (!existsSync(dest)) {
      broken.push(`${where} (no such file)`);
      continue;
    }
    if (
      anchor &&
      statSync(dest).isFile() &&
      dest.endsWith('.md') &&
      !headingIds(readFileSync(dest, 'utf8')).has(decodeURIComponent(anchor))
    ) {
      broken.push(`${where} (no heading #${anchor})`);
    }
  }
  return broken;
}

describe('Markdown links', () => {
  it('every relative link in a tracked .md file points to a file that exists, and to a heading in it', () => {
    const files = markdownFiles(ROOT);
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap((f) => brokenLinks(f, ROOT))).toEqual([]);
  });

  it('finds a missing file, a missing heading, and ignores code and other sites', () => {
    const dir = mkdtempSync(join(tmpdir(), 'doc-links-'));
    writeFileSync(join(dir, 'b.md'), "# Ceiling (`npm run bench -- client-ceiling`)\n\n## Against vLLM's client\n");
    writeFileSync(
      join(dir, 'a.md'),
      [
        '[ok](b.md#ceiling-npm-run-bench----client-ceiling) [ok2](b.md#against-vllms-client) [site](https://example.com/x.md)',
        '[gone](missing.md) [bad anchor](b.md#nowhere) `[code](nope.md)`',
        '```',
        '[fenced](nope-either.md)',
        '```',
        '[self](#top-heading)',
      ].join('\n'),
    );
    const found = brokenLinks(join(dir, 'a.md'), dir);
    rmSync(dir, { recursive: true, force: true });
    expect(found).toEqual([
      'a.md: missing.md (no such file)',
      'a.md: b.md#nowhere (no heading #nowhere)',
      'a.md: #top-heading (no heading #top-heading)',
    ]);
  });
});
