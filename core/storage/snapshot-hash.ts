// A snapshot's integrity, as etcd's: the server appends the SHA-256 of the copy to the stream (the
// maintenance Snapshot RPC), `etcdctl snapshot save` checks it came, `etcdutl snapshot restore`
// verifies it (a file without one only with --skip-hash-check) and strips it, and a status of a
// file whose digest does not match fails. A copy is whole LMDB pages, so a file of whole pages plus
// 32 bytes carries the digest (etcd's hasChecksum, with bbolt's 512-byte unit).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { Transform } from 'node:stream';

export const SNAPSHOT_HASH_BYTES = 32;
/** LMDB's page size here (lmdb-js takes the OS page); a copy's size is a multiple of it. */
const PAGE_BYTES = 4096;

/** Passes the copy through and appends its SHA-256. */
export function appendSnapshotHash(): Transform {
  const hash = createHash('sha256');
  return new Transform({
    transform(chunk: Buffer, _encoding, done) { hash.update(chunk); done(null, chunk); },
    flush(done) { done(null, hash.digest()); },
  });
}

export const hasSnapshotHash = (size: number): boolean => size % PAGE_BYTES === SNAPSHOT_HASH_BYTES;

export interface SnapshotHashCheck {
  /** Bytes of the store itself (the file less its digest). */
  readonly dataSize: number;
  readonly hashed: boolean;
}

/** The file's digest checked when it has one; throws when it does not match. */
export async function checkSnapshotHash(file: string, verify = true): Promise<SnapshotHashCheck> {
  const size = fs.statSync(file).size;
  if (!hasSnapshotHash(size)) return { dataSize: size, hashed: false };
  const dataSize = size - SNAPSHOT_HASH_BYTES;
  if (!verify) return { dataSize, hashed: true };
  const hash = createHash('sha256');
  if (dataSize > 0) for await (const chunk of fs.createReadStream(file, { start: 0, end: dataSize - 1 })) hash.update(chunk as Buffer);
  const want = Buffer.alloc(SNAPSHOT_HASH_BYTES);
  const fd = fs.openSync(file, 'r');
  try { fs.readSync(fd, want, 0, SNAPSHOT_HASH_BYTES, dataSize); } finally { fs.closeSync(fd); }
  const got = hash.digest();
  if (!got.equals(want)) throw new Error(`${file}: snapshot file integrity check failed: expected sha256 ${want.toString('hex')}, got ${got.toString('hex')}`);
  return { dataSize, hashed: true };
}
