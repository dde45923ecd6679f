// One server's output: every chunk goes to the log file (best effort), complete lines go to a
// bounded in-memory tail and to the caller, and the first line that alone proves a start-up
// failure is noted (the fatal-line watch, on until the server is ready).
import { createWriteStream, type WriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { log } from '../core/logger.js';
import { asStorageError } from '../core/storage.js';
import type { Classify } from './server-handle.js';

type Stream = 'stdout' | 'stderr';

/** Longer lines are cut: one runaway line must not fill the tail's memory. */
const MAX_LINE = 4000;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export interface OutputOptions {
  maxTail: number;
  classify: Classify;
  onLine?: (line: string, stream: Stream) => void;
}

export class ServerOutput {
  private readonly lines: string[] = [];
  private readonly logFile: WriteStream;
  private logBroken = false;
  private readonly ends: Promise<void>[] = [];
  private watchFatal = true;
  /** When (Date.now()) the first fatal line arrived, while the watch was on. */
  fatalAt: number | undefined;

  constructor(
    readonly logPath: string,
    private readonly opts: OutputOptions,
  ) {
    this.logFile = createWriteStream(logPath, { flags: 'a' });
    // A full or read-only disk must not crash servelab with an unhandled stream error: said once, the
    // server goes on (its output stays in the in-memory tail) and the journal's own write reports it.
    this.logFile.on('error', (e) => {
      if (!this.logBroken) log.warn(asStorageError(e, logPath, 'the server log')?.message ?? `server log ${logPath}: ${e.message}`);
      this.logBroken = true;
    });
  }

  /** Follow the child's stdout and stderr until they close. */
  attach(streams: { stdout: Readable | null; stderr: Readable | null }): void {
    for (const name of ['stdout', 'stderr'] as const) this.follow(streams[name]!, name);
  }

  private follow(s: Readable, stream: Stream): void {
    let partial = '';
    this.ends.push(new Promise<void>((r) => s.once('close', () => r())));
    s.setEncoding('utf8');
    s.on('data', (chunk: string) => {
      if (!this.logBroken) this.logFile.write(chunk);
      const parts = (partial + chunk).split(/\r?\n|\r/);
      partial = parts.pop() ?? '';
      for (const p of parts) this.push(p, stream);
    });
    s.on('end', () => {
      if (partial) this.push(partial, stream);
      partial = '';
    });
  }

  private push(line: string, stream: Stream): void {
    const l = line.length > MAX_LINE ? line.slice(0, MAX_LINE) + '…' : line;
    this.lines.push(l);
    if (this.watchFatal && this.fatalAt === undefined && this.provesFailure(l)) this.fatalAt = Date.now();
    if (this.lines.length > this.opts.maxTail) this.lines.splice(0, this.lines.length - this.opts.maxTail);
    try {
      this.opts.onLine?.(l, stream);
    } catch (e) {
      log.warn(`server line callback failed: ${(e as Error).message}`);
    }
  }

  /** A line the classifier names a cause for on its own (not the generic crash or time-out). */
  private provesFailure(line: string): boolean {
    return !['crash', 'startup-timeout'].includes(this.opts.classify([line], { code: null, signal: null }).kind);
  }

  /** The server is ready: later error lines are the benchmark's business, not a failed start. */
  stopWatchingFatal(): void {
    this.watchFatal = false;
  }

  tail(n?: number): string[] {
    return n === undefined ? this.lines.slice() : this.lines.slice(-n);
  }

  /**
   * After the exit: wait for output still in the pipes (the classifier needs it; a process that left
   * our group could hold them open, hence the bound), then close the log (a broken one may never
   * call back).
   */
  async close(): Promise<void> {
    await Promise.race([Promise.all(this.ends), sleep(2000)]);
    await Promise.race([new Promise<void>((r) => this.logFile.end(r)), sleep(1000)]);
  }

  /** The process never started: just close the log. */
  abandon(): void {
    this.logFile.end();
  }
}
