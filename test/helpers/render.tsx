// The project's wrapper over ink-testing-library: press keys by name, wait for what the user
// would see (ANSI-stripped frames), resize the terminal. No fixed sleeps: waits end when the
// frame matches, or fail with the last frame after a timeout.
import { EventEmitter } from 'node:events';
import { stripVTControlCharacters } from 'node:util';
import type { ReactElement } from 'react';
import { render as inkRender } from 'ink-testing-library';

const KEYS: Record<string, string> = {
  enter: '\r',
  escape: '\x1b',
  up: '\x1b[A',
  down: '\x1b[B',
  right: '\x1b[C',
  left: '\x1b[D',
  tab: '\t',
  'shift+tab': '\x1b[Z',
  space: ' ',
  backspace: '\x7f',
  'ctrl+c': '\x03',
  'ctrl+r': '\x12',
  'ctrl+a': '\x01',
  'ctrl+e': '\x05',
  'ctrl+u': '\x15',
  'ctrl+w': '\x17',
  'ctrl+k': '\x0b',
  'ctrl+d': '\x04',
};

export type FrameMatcher = string | RegExp | ((frame: string) => boolean);

export interface Rendered {
  /** The last frame, ANSI-stripped (in test mode it holds <Static> output too). */
  frame(): string;
  /** The last frame as written, with its escape codes. */
  rawFrame(): string;
  /** Every frame written so far, ANSI-stripped. */
  frames(): string[];
  /** Every frame written so far, as written (escape codes kept). */
  rawFrames(): string[];
  /** Press a key by name ('enter', 'up', 'ctrl+c', 'space', 's'...) once the app listens. */
  press(key: string): Promise<void>;
  /** Type text as one paste. */
  type(text: string): Promise<void>;
  waitForFrame(match: FrameMatcher, timeoutMs?: number): Promise<string>;
  /** Change the terminal size and tell Ink, as a real terminal's SIGWINCH would. */
  resize(columns: number, rows: number): void;
  unmount(): void;
}

function matches(frame: string, m: FrameMatcher): boolean {
  if (typeof m === 'string') return frame.includes(m);
  if (m instanceof RegExp) return m.test(frame);
  return m(frame);
}

/** Let pending effects and Ink's input subscription settle. */
export const tick = () => new Promise<void>((r) => setImmediate(r));

export function render(tree: ReactElement, size: { columns?: number; rows?: number } = {}): Rendered {
  // With a size given, the tree mounts only once the terminal has it, so no first frame is drawn
  // at the library's default 100 columns.
  const inst = inkRender(size.columns || size.rows ? <></> : tree);
  const writes = new EventEmitter();
  const stdout = inst.stdout as unknown as { write: (f: string) => void; columns: number; rows: number } & EventEmitter;
  const origWrite = stdout.write;
  stdout.write = (f: string) => {
    origWrite(f);
    writes.emit('frame');
  };
  let cols = size.columns ?? 100;
  let rows = size.rows ?? 40;
  Object.defineProperty(stdout, 'columns', { get: () => cols, configurable: true });
  Object.defineProperty(stdout, 'rows', { get: () => rows, configurable: true });
  if (size.columns || size.rows) {
    stdout.emit('resize');
    inst.rerender(tree);
  }

  const frame = () => stripVTControlCharacters(inst.lastFrame() ?? '');

  const api: Rendered = {
    frame,
    rawFrame: () => inst.lastFrame() ?? '',
    frames: () => inst.frames.map((f) => stripVTControlCharacters(f)),
    rawFrames: () => [...inst.frames],
    async press(key) {
      await tick();
      inst.stdin.write(KEYS[key] ?? key);
      await tick();
    },
    async type(text) {
      await tick();
      inst.stdin.write(text);
      await tick();
    },
    waitForFrame(match, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        if (matches(frame(), match)) return resolve(frame());
        const onFrame = () => {
          if (matches(frame(), match)) {
            cleanup();
            resolve(frame());
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out after ${timeoutMs} ms waiting for ${String(match)}; last frame:\n${frame()}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          writes.off('frame', onFrame);
        };
        writes.on('frame', onFrame);
      });
    },
    resize(c, r) {
      cols = c;
      rows = r;
      stdout.emit('resize');
    },
    unmount() {
      inst.unmount();
      inst.cleanup();
    },
  };
  return api;
}

/** Lines of a frame that are wider than `columns` (nothing may overflow the terminal). */
export function overflowingLines(frame: string, columns: number): string[] {
  return frame.split('\n').filter((l) => [...l].length > columns);
}
