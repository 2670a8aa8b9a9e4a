// `plat snapshot save FILE`: etcdctl snapshot save against plat's API server. GET /snapshot (a
// consistent copy the server makes of its own store) is written to FILE.part (0600), synced, read
// back as a plat store (its status printed), and only then renamed to FILE: a FILE that exists is
// a whole snapshot.
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { readSnapshotStatus, type SnapshotStatus } from '../../core/storage/lmdb-snapshot.js';
import { hasSnapshotHash } from '../../core/storage/snapshot-hash.js';
import { SNAPSHOT_PATH } from '../../core/server/snapshot-route.js';
import { sendApiRequest, type Connection } from './api-request.js';
import { CommandError } from './command-error.js';
import { refusedAnswer } from './csr-connection.js';

async function readText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

function syncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
}

export async function saveSnapshot(conn: Connection, file: string): Promise<SnapshotStatus> {
  const part = `${file}.part`;
  const sent = await sendApiRequest(conn, 'GET', SNAPSHOT_PATH, { accept: 'application/octet-stream, application/json' });
  try {
    const res = sent.response;
    if (res.statusCode !== 200) {
      const text = await readText(res);
      let json: unknown;
      try { json = JSON.parse(text); } catch { json = undefined; }
      throw refusedAnswer({ status: res.statusCode ?? 0, contentType: res.headers['content-type'], text, json }, 'GET', SNAPSHOT_PATH);
    }
    const expected = Number(res.headers['content-length']);
    // A new file, never one already there: a FILE.part another user left (or a symlink to elsewhere)
    // would otherwise be written through, and keep its owner.
    fs.rmSync(part, { force: true });
    const fd = fs.openSync(part, 'wx', 0o600);
    try {
      fs.fchmodSync(fd, 0o600);
      await pipeline(res, fs.createWriteStream('', { fd, autoClose: false }));
      fs.fsyncSync(fd);
      const got = fs.fstatSync(fd).size;
      if (Number.isSafeInteger(expected) && got !== expected) throw new CommandError(`snapshot cut short: received ${got} of ${expected} bytes`);
    } finally {
      fs.closeSync(fd);
    }
    // etcdctl's check that the digest came; then it is verified with the store's status.
    const size = fs.statSync(part).size;
    if (!hasSnapshotHash(size)) throw new CommandError(`sha256 checksum not found [bytes: ${size}]`);
    const status = await readSnapshotStatus(part).catch((e: Error) => { throw new CommandError(`the snapshot received is no plat store: ${e.message}`); });
    fs.renameSync(part, file);
    syncDir(path.dirname(path.resolve(file)));
    return status;
  } catch (e) {
    fs.rmSync(part, { force: true });
    fs.rmSync(`${part}-lock`, { force: true });
    if (e instanceof CommandError) throw e;
    throw new CommandError(`snapshot save: ${(e as Error).message}`);
  } finally {
    sent.done();
  }
}
