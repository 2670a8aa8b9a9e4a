// Go's *os.PathError text for a failed file operation (`open /x: no such file or directory`), so
// that a file plat cannot read is said as the upstream component says it, not in Node's words
// (`ENOENT: no such file or directory, open '/x'`).

import os from 'node:os';

/** Go's syscall.Errno texts (Linux) for the errors a file read or write (or a bind) meets. */
export const ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EFBIG: 'file too large',
  EADDRINUSE: 'address already in use',
  EADDRNOTAVAIL: 'cannot assign requested address',
};

const ERRNO_NAMES = new Map(Object.entries(os.constants.errno).map(([name, n]) => [n, name]));

/** The errno name (EACCES) of a native library's positive errno number, as Node names it. */
export const errnoName = (n: number): string | undefined => ERRNO_NAMES.get(n);

/**
 * `op file: reason`. Opening a directory to read succeeds in Go and reading it fails, so EISDIR is
 * a `read` error whatever `op` was, unless `exactOp` (an open for writing, a write), where `op`
 * itself failed; an errno Go's table above lacks keeps Node's message.
 */
export function osErrorText(op: string, file: string, e: unknown, exactOp = false): string {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  const reason = ERRNO_TEXT[code] ?? (e as Error).message;
  return `${code === 'EISDIR' && !exactOp ? 'read' : op} ${file}: ${reason}`;
}

/** osErrorText for an error that names its own operation and path (Node's mkdir, open), else its message. */
export function syscallErrorText(e: unknown): string {
  const { syscall, path } = e as NodeJS.ErrnoException;
  return syscall && path && ERRNO_TEXT[(e as NodeJS.ErrnoException).code ?? ''] ? osErrorText(syscall, path, e) : (e as Error).message;
}

/** True when `e` says the file does not exist (Go's os.IsNotExist). */
export const isNotExist = (e: unknown): boolean => (e as NodeJS.ErrnoException).code === 'ENOENT';
