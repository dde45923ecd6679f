// Writes that never leave a half-written file under the final name (a crash, Ctrl-C or a full
// disk mid-write leaves the old file or the new one): the run journal and the settings file.
import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';

let tmpCounter = 0;

/** Write `text` to `file` atomically: temp file in the same folder, fsync, rename. */
export function writeFileAtomic(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.${++tmpCounter}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}
