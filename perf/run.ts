// `npm run bench [-- NAME...]`: run every perf/*.bench.ts (or those whose name contains NAME),
// each in its own process so one benchmark's CPU use and memory do not skew the next.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const all = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort();
const chosen = wanted.length ? all.filter((f) => wanted.some((w) => f.replace(/\.bench\.ts$/, '').includes(w))) : all;
if (chosen.length === 0) {
  process.stderr.write(`no benchmark matches ${wanted.join(', ')}; have: ${all.map((f) => f.replace(/\.bench\.ts$/, '')).join(', ')}\n`);
  process.exit(2);
}

let failed = 0;
for (const file of chosen) {
  process.stdout.write(`\n## ${file.replace(/\.bench\.ts$/, '')}\n\n`);
  const t0 = Date.now();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(here, file)], { stdio: 'inherit' });
    const forward = (sig: NodeJS.Signals) => child.kill(sig);
    process.once('SIGINT', forward);
    child.on('exit', (c, sig) => {
      process.removeListener('SIGINT', forward);
      resolve(c ?? (sig ? 128 : 1));
    });
  });
  process.stdout.write(`\n(${file}: ${code === 0 ? 'ok' : `failed, exit ${code}`}, ${((Date.now() - t0) / 1000).toFixed(1)} s)\n`);
  if (code !== 0) failed++;
}
process.exit(failed ? 1 : 0);
