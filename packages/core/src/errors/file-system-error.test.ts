import { mkdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { FileSystemError } from './file-system-error.js';
import { PartonfitError } from './partonfit-error.js';

describe('FileSystemError', () => {
  it("should turn Node's file-system errors into words naming the path", async () => {
    const error: unknown = await mkdir('/dev/null/fits').catch((caught: unknown) => caught);
    const failure = FileSystemError.fromSystemError(error);
    expect(PartonfitError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ path: '/dev/null/fits', code: 'ENOTDIR' });
    expect(failure?.message).toBe(
      'cannot create the folder /dev/null/fits: a part of the path is a file, not a folder (ENOTDIR)',
    );
  });

  it('should name the destination of a failed move and keep unknown codes as they are', () => {
    const rename = Object.assign(new Error('EROFS'), {
      code: 'EROFS',
      syscall: 'rename',
      path: '/fits/.tmp',
      dest: '/fits/summary.json',
    });
    expect(FileSystemError.fromSystemError(rename)?.message).toBe(
      'cannot move a file to /fits/summary.json: the file system is read-only (EROFS)',
    );
    const odd = Object.assign(new Error('odd'), { code: 'ESTRANGE', syscall: 'frob', path: '/x' });
    expect(FileSystemError.fromSystemError(odd)?.message).toBe(
      'cannot frob /x: ESTRANGE (ESTRANGE)',
    );
  });

  it('should leave errors that are not system errors alone', () => {
    expect(FileSystemError.fromSystemError(new Error('plain'))).toBeUndefined();
    expect(
      FileSystemError.fromSystemError(Object.assign(new Error('x'), { code: 'ERR_PARSE_ARGS' })),
    ).toBeUndefined();
    expect(FileSystemError.fromSystemError('ENOSPC')).toBeUndefined();
  });
});
