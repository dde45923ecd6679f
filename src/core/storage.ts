// A write that failed because of the storage (full disk, read-only mount, no permission, quota):
// one clear error that names the path and what to do, never a stack trace. The journal adds what
// is already safe on disk (see Journal.storageFailure).
import { accessSync, constants, existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { UserError } from './errors.js';

const WHY: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exceeded',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EIO: 'an I/O error',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EEXIST: 'a file is in the way',
};

/**
 * The errno that says why. A recursive mkdir under a read-only mount reports ENOENT (node 20-24):
 * ask the nearest existing ancestor whether it is writable to find the real cause.
 */
function causeOf(e: NodeJS.ErrnoException | undefined): string | undefined {
  if (e?.code !== 'ENOENT' || e.syscall !== 'mkdir' || !e.path) return e?.code;
  let dir = e.path;
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  try {
    accessSync(dir, constants.W_OK);
    return e.code;
  } catch (a) {
    return (a as NodeJS.ErrnoException).code ?? e.code;
  }
}

export class StorageError extends UserError {
  constructor(
    readonly path: string,
    readonly errno: string,
    message: string,
    code = 1,
  ) {
    super(message, code);
    this.name = 'StorageError';
  }
}

/** A StorageError for `e` when it is a storage failure, else undefined (a programming error stays as it is). */
export function asStorageError(e: unknown, path: string, what: string, code = 1): StorageError | undefined {
  if (e instanceof StorageError) return e;
  const errno = causeOf(e as NodeJS.ErrnoException | undefined);
  if (!errno || !WHY[errno]) return undefined;
  const todo = errno === 'ENOSPC' || errno === 'EDQUOT' ? 'free space or choose another folder' : 'choose another folder';
  return new StorageError(path, errno, `cannot write ${what} ${path}: ${WHY[errno]} (${errno}); ${todo}`, code);
}

/** Run `write`; a storage failure becomes a StorageError naming `path`. */
export function guardWrite<T>(path: string, what: string, write: () => T, code = 1): T {
  try {
    return write();
  } catch (e) {
    throw asStorageError(e, path, what, code) ?? e;
  }
}
