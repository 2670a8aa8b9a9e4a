// --debug-socket-path as upstream's DebugSocket: the debugging handlers on a unix socket, without
// credentials, whether --profiling is on or not (here it is off, so the secure port has none); the
// socket owner-only whatever the umask; a stale socket at the path replaced; any other file there
// (a regular file, a symlink, a directory) refused and left alone; gone at shutdown.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createLogger } from '../../core/log.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

interface Answer { status: number; headers: http.IncomingHttpHeaders; text: string }

function overSocket(socketPath: string, method: string, urlPath: string, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ socketPath, method, path: urlPath, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A socket file nothing listens on, as a process that died leaves it. */
async function staleSocket(at: string): Promise<void> {
  const bound = `${at}.tmp`;
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(bound, resolve));
  // Moved away before close, which unlinks only the path it bound.
  fs.renameSync(bound, at);
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

describe('--debug-socket-path', () => {
  const dir = tempDir('plat-debug-socket-');
  const socketPath = path.join(dir, 'debug.sock');
  let plat: RunningPlat | undefined;
  let staleIno = 0;
  before(async () => {
    await staleSocket(socketPath);
    // A second link keeps the stale inode allocated, so the new socket cannot reuse its number.
    fs.linkSync(socketPath, path.join(dir, 'stale.sock'));
    staleIno = fs.lstatSync(socketPath).ino;
    // A group-writable umask, which Go's listener would pass on to the socket.
    const umask = process.umask(0o002);
    try {
      plat = await startInProcess({ args: ['--profiling=false', `--debug-socket-path=${socketPath}`], logger: createLogger({ write: () => {} }) });
    } finally {
      process.umask(umask);
    }
  });
  after(async () => {
    await plat?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('replaces a stale socket with one only its owner may use', () => {
    const st = fs.lstatSync(socketPath);
    assert.ok(st.isSocket());
    assert.notEqual(st.ino, staleIno, 'a new socket');
    assert.equal((st.mode & 0o777).toString(8), '600');
  });

  it('serves /debug/pprof and /debug/flags without credentials, with --profiling off', async () => {
    const index = await overSocket(socketPath, 'GET', '/debug/pprof/');
    assert.equal(index.status, 200, index.text);
    assert.match(index.text, /<title>\/debug\/pprof\/<\/title>/);
    const redirect = await overSocket(socketPath, 'GET', '/debug/pprof');
    assert.deepEqual([redirect.status, redirect.headers.location], [302, '/debug/pprof/']);
    const heap = await overSocket(socketPath, 'GET', '/debug/pprof/heap');
    assert.equal(heap.status, 200);
    assert.ok(JSON.parse(heap.text).head, 'a V8 sampling heap profile');
    const set = await overSocket(socketPath, 'PUT', '/debug/flags/v', '3');
    assert.equal(set.status, 200, set.text);
    assert.equal(set.text, 'successfully set klog.logging.verbosity to 3\n');
    const flags = await overSocket(socketPath, 'GET', '/debug/flags');
    assert.equal(flags.status, 200);
    assert.match(flags.text, /<title>\/debug\/flags\/<\/title>/);
    // Only the debugging handlers: the API is not served there.
    const api = await overSocket(socketPath, 'GET', '/api');
    assert.deepEqual([api.status, api.headers['content-type'], api.text], [404, 'text/plain; charset=utf-8', '404 page not found\n']);
    // The secure port follows --profiling.
    assert.equal((await plat!.admin.get('/debug/pprof/')).status, 404);
  });

  it('closes the socket and removes its file at shutdown', async () => {
    await plat!.stop();
    plat = undefined;
    assert.equal(fs.existsSync(socketPath), false);
    await assert.rejects(overSocket(socketPath, 'GET', '/debug/pprof/'), { code: 'ENOENT' });
  });
});

describe('--debug-socket-path refuses a path it would have to remove something else at', () => {
  const dir = tempDir('plat-debug-socket-');
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  const target = path.join(dir, 'target');
  const cases: { name: string; make: (p: string) => void | Promise<void>; message: RegExp }[] = [
    { name: 'a regular file', make: (p) => fs.writeFileSync(p, 'keep me'), message: /exists and is not a socket: refusing to remove it/ },
    { name: 'a directory', make: (p) => fs.mkdirSync(p), message: /exists and is not a socket: refusing to remove it/ },
    { name: 'a symlink to a file', make: (p) => { fs.writeFileSync(target, 'keep me'); fs.symlinkSync(target, p); }, message: /exists and is not a socket: refusing to remove it/ },
    { name: 'a symlink to a stale socket', make: async (p) => { await staleSocket(`${target}.sock`); fs.symlinkSync(`${target}.sock`, p); }, message: /exists and is not a socket: refusing to remove it/ },
    { name: 'a directory that does not exist', make: () => {}, message: /listen error \(.*\): listen unix .*: bind: no such file or directory/ },
  ];
  for (const [i, c] of cases.entries()) {
    it(c.name, async () => {
      const at = c.name.includes('does not exist') ? path.join(dir, 'missing', 'debug.sock') : path.join(dir, `debug-${i}.sock`);
      await c.make(at);
      const before = fs.existsSync(at) ? fs.lstatSync(at) : undefined;
      const dataDir = tempDir();
      try {
        await assert.rejects(startInProcess({ dataDir, args: [`--debug-socket-path=${at}`] }), (e: Error) => {
          assert.ok(e.message.startsWith(`--debug-socket-path: `), e.message);
          assert.match(e.message, c.message);
          return true;
        });
      } finally {
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
      if (before) {
        const now = fs.lstatSync(at);
        assert.deepEqual([now.ino, now.mode], [before.ino, before.mode], 'left as it was');
      }
      if (c.name.includes('symlink')) assert.ok(fs.existsSync(fs.readlinkSync(at)), 'the link\'s target is kept');
    });
  }
});
