// How long `servelab capacity` takes to answer on a simulated H100, and what it answers:
// `npx tsx perf/capacity-h100.ts [--bin PATH/bin/servelab.js] [--limit SECONDS]`.
// Starts sim-serve (vLLM, Qwen3-14B, one H100, --speed 3), runs `servelab capacity --base-url`
// with the random 1024/128 workload and `--slo ttft:p99<3000` (the case a user tried: nothing
// printed for 150 s, no answer in 15 minutes), and prints the wall time, the stderr lines as they
// came (with their time), and the answer. --bin points at another checkout's CLI (the "before").
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { relative } from 'node:path';

const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : dflt;
};
const BIN = arg('bin', fileURLToPath(new URL('../bin/servelab.js', import.meta.url)));
const LIMIT_S = Number(arg('limit', '900'));
const PORT = arg('port', '18931');

const sim = spawn(
  process.execPath,
  [
    fileURLToPath(new URL('../bin/servelab.js', import.meta.url)),
    'sim-serve',
    '--engine',
    'vllm',
    '--model',
    'Qwen/Qwen3-14B',
    '--gpu',
    'H100',
    '--speed',
    '3',
    '--port',
    PORT,
    '--load-time',
    '0',
  ],
  { stdio: 'ignore', detached: true },
);
const stopSim = () => {
  try {
    process.kill(-sim.pid!, 'SIGTERM');
  } catch {
    /* already gone */
  }
};
process.on('exit', stopSim);

async function ready(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/v1/models`)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('sim-serve did not come up');
}

const url = `http://127.0.0.1:${PORT}`;
await ready(url);
const t0 = Date.now();
const at = () => `${((Date.now() - t0) / 1000).toFixed(0).padStart(4)} s`;
const args = ['capacity', '--base-url', url, '--random-input-len', '1024', '--random-output-len', '128', '--slo', 'ttft:p99<3000'];
console.log(`bin: ${relative(process.cwd(), BIN)}\ncommand: servelab ${args.join(' ')}\nlimit: ${LIMIT_S} s`);
const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
createInterface({ input: child.stderr! }).on('line', (l) => console.log(`${at()}  ${l}`));
let stdout = '';
child.stdout!.on('data', (d) => (stdout += String(d)));
const timer = setTimeout(() => child.kill('SIGINT'), LIMIT_S * 1000);
const code: number = await new Promise((r) => child.on('close', (c) => r(c ?? -1)));
clearTimeout(timer);
const wall = (Date.now() - t0) / 1000;
const answer = stdout.split('\n').filter((l) => /^(answer|goodput|requests):/.test(l));
console.log(`exit ${code} after ${wall.toFixed(0)} s${wall >= LIMIT_S ? ` (stopped at the ${LIMIT_S} s limit: no answer)` : ''}`);
for (const l of answer) console.log(l);
stopSim();
