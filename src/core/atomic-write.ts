// Writes that never leave a half-written file under the final name (a crash, Ctrl-C or a full
// disk mid-write leaves the old file or the new one): the run journal and the settings file.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

let tmpCounter = 0;

/** Write `text` to `file` atomically: temp file in the same folder, fsync, rename. */
export function writeFileAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${++tmpCounter}.tmp`;
  try {
    const fd = openSync(tmp, 'w');
    try {
      // writeSync may write less than asked when the disk fills up: loop, so a short file never
      // gets renamed into place (the next write raises ENOSPC instead).
      const buf = Buffer.from(text);
      for (let off = 0; off < buf.length;) off += writeSync(fd, buf, off);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    // A full disk leaves a short temp file: remove it; the previous file (if any) is untouched.
    rmSync(tmp, { force: true });
    throw e;
  }
}
