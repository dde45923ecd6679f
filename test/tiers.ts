// The two test tiers of `npm test`. The process tier is every file that starts a process, a
// server, a worker or a pseudo-terminal (directly or through a helper that does); the unit tier is
// the rest, pure functions and in-process renders, and runs in seconds (`npm run test:unit`).
// A file's tier follows from what it does, read from its text, so a new test needs no list entry.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Calls and helpers that start something outside the test's own event loop. */
const STARTS_PROCESS =
  /\b(spawn|spawnSync|execa|execFile|execFileSync|fork)\(|\bnew Worker\(|\.listen\(|createServer\(|runSession\(|runVariantScenarios\(|from '[./]+(e2e\/cli|sim\/helpers|bench\/helpers|host\/helpers|slurm\/helpers|slurm\/cluster|llamacpp-fixture|fixtures\/bench\/(scripted|spawn)-server)\.js'|from '\.\/(cli|helpers|cluster)\.js'/;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

/** Test files of the process tier, relative to `root`. */
export function processTierFiles(root: string): string[] {
  return walk(join(root, 'test'))
    .filter((f) => STARTS_PROCESS.test(readFileSync(f, 'utf8')))
    .map((f) => relative(root, f).split('\\').join('/'));
}
