import { PartonfitError } from './partonfit-error.js';

const marker = 'partonfit.error.FileSystemError';
const markerSymbol = Symbol.for(marker);

/** What each system error code means for a user, in words. */
const CAUSES: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exceeded',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'it is a folder, not a file',
  EEXIST: 'it already exists',
  ENOENT: 'no such file or folder',
  ENOTEMPTY: 'the folder is not empty',
  EMFILE: 'too many open files',
  ENAMETOOLONG: 'the name is too long',
  EIO: 'an input/output error of the device',
  EBUSY: 'it is busy',
  ELOOP: 'too many symbolic links',
  EXDEV: 'it is on another device',
};

/** The operation of a system call, in words. */
const OPERATIONS: Readonly<Record<string, string>> = {
  mkdir: 'create the folder',
  open: 'open',
  write: 'write',
  read: 'read',
  rename: 'move a file to',
  unlink: 'delete',
  rmdir: 'delete the folder',
  rm: 'delete',
  scandir: 'list the folder',
  stat: 'look up',
  lstat: 'look up',
  access: 'access',
  copyfile: 'copy to',
  fsync: 'flush to disk',
};

/** A Node.js system error as the file system raises it. */
interface SystemError {
  readonly code: string;
  readonly syscall?: string;
  readonly path?: string;
  readonly dest?: string;
  readonly message: string;
}

function isSystemError(error: unknown): error is SystemError {
  if (!(error instanceof Error)) return false;
  const { code, syscall, path } = error as Partial<SystemError>;
  return (
    typeof code === 'string' &&
    /^E[A-Z]+$/.test(code) &&
    (typeof syscall === 'string' || typeof path === 'string')
  );
}

/**
 * A file or folder that could not be created, written, read or moved (a full disk, a read-only
 * file system, a missing permission, a file where a folder belongs). Names the path, what was
 * being done and the cause in words; `code` is the system's (`ENOSPC`, `EROFS`, …).
 */
export class FileSystemError extends PartonfitError {
  readonly [markerSymbol] = true;
  /** The file or folder. */
  readonly path: string;
  /** The system error code, e.g. `ENOSPC`. */
  readonly code: string;

  constructor(options: { path: string; code: string; operation?: string; cause?: unknown }) {
    const cause = CAUSES[options.code] ?? options.code;
    const operation =
      options.operation === undefined
        ? ''
        : `cannot ${OPERATIONS[options.operation] ?? options.operation} `;
    super({
      message: `${operation}${options.path}: ${cause} (${options.code})`,
      cause: options.cause,
    });
    this.name = 'FileSystemError';
    this.path = options.path;
    this.code = options.code;
  }

  /**
   * The error as a FileSystemError when it is a Node.js file-system error (it has a system
   * `code` and a `syscall` or `path`), else undefined.
   *
   * @param fallbackPath - the path to name when the error does not carry one
   */
  static fromSystemError(error: unknown, fallbackPath?: string): FileSystemError | undefined {
    if (FileSystemError.isInstance(error)) return error;
    if (!isSystemError(error)) return undefined;
    const path = error.dest ?? error.path ?? fallbackPath ?? '(unknown path)';
    return new FileSystemError({
      path,
      code: error.code,
      ...(error.syscall === undefined ? {} : { operation: error.syscall }),
      cause: error,
    });
  }

  static override isInstance(error: unknown): error is FileSystemError {
    return PartonfitError.hasMarker(error, marker);
  }
}
