// Startup of the built command (dist/, `npm run build` first), each figure the median of RUNS
// launches and its ratio to a bare `node -e ''` measured in the same rounds (the rows are
// interleaved, so a busy moment on the host hits them alike). Targets: `servelab --help` within
// 1.3x of bare node; the first TUI frame under 0.3 s.
// - first TUI frame: `servelab` with no arguments under `script` (util-linux), which gives it a
//   pseudo-terminal, timed until the first printable text of the Host screen arrives on the pty.
//   `script` adds its own start-up (a shell, the pty), shown on its own row; so is the floor set
//   by Ink itself: a one-line Ink app bundled the way dist/ is (scripts/build.mjs options).
// - sim-serve ready: `servelab sim-serve ... --load-time 0` until it prints vLLM's
//   "Application startup complete." line (what the launch path waits for).
// Wall-clock times: on a shared host they include waiting for a CPU; the load average is printed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { NODE_BUNDLE } from '../scripts/esbuild-node.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = join(ROOT, 'dist', 'cli.js');
const SOURCE_BIN = join(ROOT, 'bin', 'servelab.js');
const RUNS = Number(process.env.STARTUP_RUNS ?? 9);
const NODE = process.execPath;
const home = mkdtempSync(join(tmpdir(), 'servelab-startup-'));
// A clean settings folder and HOME: nothing the user saved changes what starts.
const env = { ...process.env, HOME: home, SERVELAB_CONFIG_DIR: join(home, 'config'), COLUMNS: '100', LINES: '30', TERM: 'xterm-256color' };
const sh = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Seconds until `done(output)` holds (or the process exits, for commands that just print). */
function timeUntil(argv: string[], done?: (out: string) => boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(argv[0]!, argv.slice(1), { env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let out = '';
    let settled = false;
    const finish = (ok: boolean, why = '') => {
      if (settled) return;
      settled = true;
      const s = (performance.now() - t0) / 1000;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
      ok ? resolve(s) : reject(new Error(`${argv.join(' ')}: ${why}\n${out.slice(-400)}`));
    };
    const onData = (d: Buffer) => {
      out += d;
      if (done?.(out)) finish(true);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => (done ? finish(false, `exited ${code} before it was ready`) : finish(code === 0, `exit ${code}`)));
    setTimeout(() => finish(false, 'timed out after 30 s'), 30_000).unref();
  });
}

const printable = (out: string) => /[A-Za-z]{4,}/.test(out.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, ''));
const inPty = (cmd: string) => ['script', '-qfec', cmd, '/dev/null'];
const SIM_READY = /Application startup complete\./;

const ROWS: { name: string; argv: string[]; done?: (out: string) => boolean }[] = [
  { name: "node -e ''", argv: [NODE, '-e', ''] },
  { name: 'servelab --help', argv: [NODE, CLI, '--help'] },
  { name: 'servelab --auto --help', argv: [NODE, CLI, '--auto', '--help'] },
  { name: 'servelab --help, from source (tsx)', argv: [NODE, SOURCE_BIN, '--help'] },
  {
    name: 'script + node printing a line (pty overhead)',
    argv: inPty(`${sh(NODE)} -e ${sh("console.log('ready now')")}`),
    done: printable,
  },
  { name: 'bare Ink app, first frame (in script)', argv: inPty(`${sh(NODE)} ${sh(join(home, 'ink', 'hello.js'))}`), done: printable },
  { name: 'servelab first TUI frame (in script)', argv: inPty(`${sh(NODE)} ${sh(CLI)}`), done: printable },
  {
    name: 'servelab sim-serve ready',
    argv: [NODE, CLI, 'sim-serve', '--engine', 'vllm', '--model', 'Qwen/Qwen3-14B', '--gpu', 'H100', '--port', '0', '--load-time', '0'],
    done: (out) => SIM_READY.test(out),
  },
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main(): Promise<void> {
  if (!existsSync(CLI)) throw new Error(`no build at ${CLI}: run \`npm run build\` first`);
  if (spawnSync('script', ['--version']).status !== 0) throw new Error('`script` (util-linux) is needed for the TUI row');
  await build({
    stdin: {
      contents: "import { render, Text } from 'ink'; import React from 'react'; render(React.createElement(Text, null, 'hello from ink'));",
      resolveDir: ROOT,
      sourcefile: 'hello.js',
    },
    outdir: join(home, 'ink'),
    entryNames: 'hello',
    ...NODE_BUNDLE,
    logLevel: 'error',
  });
  const times = ROWS.map(() => [] as number[]);
  const load0 = loadavg()[0]!;
  for (let r = 0; r < RUNS; r++) {
    for (const [i, row] of ROWS.entries()) times[i]!.push(await timeUntil(row.argv, row.done));
  }
  const base = median(times[0]!);
  process.stdout.write(`median of ${RUNS} runs each, interleaved; ratio = median / median of node -e ''\n\n`);
  process.stdout.write(`| what | median | ratio to node -e '' | min-max |\n|---|---|---|---|\n`);
  for (const [i, row] of ROWS.entries()) {
    const t = times[i]!;
    const m = median(t);
    process.stdout.write(
      `| ${row.name} | ${m.toFixed(3)} s | ${(m / base).toFixed(2)}x | ${Math.min(...t).toFixed(3)}-${Math.max(...t).toFixed(3)} s |\n`,
    );
  }
  process.stdout.write(
    `\nhost load average (1 min): ${load0.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end, on ${cpus().length} CPUs\n`,
  );
}

main()
  .catch((e) => {
    process.stderr.write(`startup: ${(e as Error).message}\n`);
    process.exitCode = 1;
  })
  .finally(() => rmSync(home, { recursive: true, force: true }));
