// Follow a job's output file line by line, like a child's stdout: the file lives on the shared
// filesystem and appears only once the job starts, so it is polled (inotify does not see writes
// made on another node over NFS or Lustre).
import { open, type FileHandle } from 'node:fs/promises';

export interface FileFollower {
  /** Every complete line so far (bounded to the last `keep`). */
  tail(n?: number): string[];
  /** Read what is left, emit a final unterminated line, and stop polling. */
  stop(): Promise<void>;
}

export interface FollowOptions {
  onLine: (line: string) => void;
  /** Poll period; default 200 ms. */
  pollMs?: number;
  /** Lines kept for tail(); default 400. */
  keep?: number;
}

export function followFile(path: string, opts: FollowOptions): FileFollower {
  const pollMs = opts.pollMs ?? 200;
  const keep = opts.keep ?? 400;
  const lines: string[] = [];
  let fh: FileHandle | undefined;
  let offset = 0;
  let partial = '';
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const decoder = new TextDecoder();
  const buf = Buffer.alloc(64 * 1024);

  const emit = (line: string) => {
    lines.push(line);
    if (lines.length > keep) lines.splice(0, lines.length - keep);
    opts.onLine(line);
  };

  const readMore = async () => {
    if (!fh) {
      try {
        fh = await open(path, 'r');
      } catch {
        return; // not created yet: the job has not started
      }
    }
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      partial += decoder.decode(buf.subarray(0, bytesRead), { stream: true });
      const parts = partial.split('\n');
      partial = parts.pop()!;
      for (const p of parts) emit(p.replace(/\r$/, ''));
    }
  };

  const timer = setInterval(() => {
    running = running.then(readMore).catch(() => undefined);
  }, pollMs);

  return {
    tail: (n = keep) => lines.slice(-n),
    async stop() {
      if (stopped) return running;
      stopped = true;
      clearInterval(timer);
      running = running
        .then(readMore)
        .catch(() => undefined)
        .then(async () => {
          if (partial) emit(partial);
          partial = '';
          await fh?.close();
        });
      return running;
    },
  };
}
