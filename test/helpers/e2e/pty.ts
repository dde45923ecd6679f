// servelab in a pseudo-terminal, as a user runs it: util-linux `script` gives the child a tty of a
// chosen size, keys go to its stdin, and everything it drew comes back as text with the escape
// sequences taken out (every frame, in order, so a figure shown for a moment is still there).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { shellQuote } from '../../../src/core/shell-quote.js';
import { BIN } from './cli.js';

/** Why the terminal tests cannot run here, or undefined when they can. */
export const PTY_SKIP =
  spawnSync('script', ['--version']).status === 0 ? undefined : "no util-linux 'script' on PATH: the pseudo-terminal tests need it";

/** The drawn text without colours, cursor moves and charset switches, with \n line ends. */
export const stripAnsi = (s: string) =>
  s
    .replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '')
    .replace(/\x1b\][^\x07]*\x07/g, '')
    .replace(/\x1b[()][A-Z0-9]/g, '')
    .replace(/\r\n?/g, '\n');

export const KEY = { enter: '\r', left: '\x1b[D', right: '\x1b[C', up: '\x1b[A', down: '\x1b[B', esc: '\x1b' } as const;

export interface PtyRun {
  child: ChildProcess;
  /** Everything drawn so far, escapes removed. */
  text(): string;
  /** Resolves with the text once `re` matches what was drawn after `from` (an offset into text()). */
  waitFor(re: RegExp, ms: number, from?: number): Promise<string>;
  press(keys: string): void;
  /** The exit code of servelab (script -e passes it on). */
  closed: Promise<number | null>;
}

export interface PtyOptions {
  cwd: string;
  cols: number;
  rows: number;
  env?: Record<string, string>;
}

/** `servelab ARGS` in a terminal of cols x rows, its settings in cwd/.config. */
export function servelabInPty(args: readonly string[], o: PtyOptions): PtyRun {
  const cmd = `stty cols ${o.cols} rows ${o.rows}; exec ${shellQuote(process.execPath)} ${shellQuote(BIN)} ${args.map(shellQuote).join(' ')}`;
  const env: NodeJS.ProcessEnv = { ...process.env, SERVELAB_CONFIG_DIR: join(o.cwd, '.config'), ...o.env };
  // Under CI, Ink draws only the last frame: the user's terminal is not CI.
  delete env.CI;
  delete env.CONTINUOUS_INTEGRATION;
  const child = spawn('script', ['-qfec', cmd, '/dev/null'], { cwd: o.cwd, stdio: ['pipe', 'pipe', 'pipe'], env });
  let raw = '';
  child.stdout!.on('data', (d: Buffer) => (raw += d.toString('utf8')));
  child.stderr!.on('data', (d: Buffer) => (raw += d.toString('utf8')));
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const text = () => stripAnsi(raw);
  return {
    child,
    text,
    closed,
    press: (keys) => void child.stdin!.write(keys),
    async waitFor(re, ms, from = 0) {
      const deadline = Date.now() + ms;
      for (;;) {
        const t = text().slice(from);
        if (re.test(t)) return t;
        if (Date.now() > deadline || child.exitCode !== null)
          throw new Error(`no ${re} on the terminal in ${ms} ms; it shows:\n${t.slice(-3000)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
