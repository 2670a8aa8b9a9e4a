// Directories and key files plat makes at start-up: a path that cannot be made is refused plainly
// (Node's own recursive mkdir spins forever under /proc), and a CA key without its certificate is
// kept, never replaced by a new CA.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { makeDir, makeDirSync } from '../../core/make-dir.js';
import { freePort, tempDir } from '../helpers/plat.js';
import { runPlat } from '../helpers/run-plat.js';
import { generateKeyPair } from '../../core/crypto/index.js';

const procfs = existsSync('/proc/self/stat');
const noStack = (stderr: string) => assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');

describe('makeDir and makeDirSync', () => {
  const cases: { name: string; setup: (d: string) => string; error?: string; message?: (d: string) => string }[] = [
    { name: 'nested missing levels', setup: (d) => path.join(d, 'a', 'b', 'c') },
    { name: 'an existing directory', setup: (d) => d },
    { name: 'a relative path', setup: (d) => path.relative(process.cwd(), path.join(d, 'rel', 'x')) },
    // os.MkdirAll's words: the file in the way is named, whichever level it is.
    { name: 'an existing file', setup: (d) => { writeFileSync(path.join(d, 'f'), ''); return path.join(d, 'f'); }, error: 'ENOTDIR', message: (d) => `mkdir ${path.join(d, 'f')}: not a directory` },
    { name: 'a file as a parent', setup: (d) => { writeFileSync(path.join(d, 'f'), ''); return path.join(d, 'f', 'x', 'y'); }, error: 'ENOTDIR', message: (d) => `mkdir ${path.join(d, 'f')}: not a directory` },
    ...(procfs ? [{ name: 'a path under /proc (mkdir answers ENOENT below an existing parent)', setup: () => '/proc/plat-no-such-dir/x', error: 'ENOENT' }] : []),
  ];
  for (const t of cases) {
    for (const [kind, make] of [['async', makeDir], ['sync', async (d: string, m: number) => makeDirSync(d, m)]] as const) {
      // A regression here is a hang, not a wrong answer: the timeout turns it into a failure.
      it(`${kind}: ${t.name}`, { timeout: 10_000 }, async () => {
        const d = tempDir();
        const target = t.setup(d);
        if (t.error) {
          await assert.rejects(make(target, 0o700), { code: t.error, ...(t.message ? { message: t.message(d) } : {}) });
          return;
        }
        await make(target, 0o700);
        assert.ok(statSync(target).isDirectory());
        if (target !== d) assert.equal(statSync(target).mode & 0o777, 0o700);
        await make(target, 0o700); // again: already there
      });
    }
  }
});

describe('start-up refusals for paths that cannot be made', { skip: !procfs && 'needs /proc' }, () => {
  const refusals: { name: string; args: (d: string, port: number) => string[]; code: number; message: RegExp }[] = [
    { name: 'plat all --data-dir', args: () => ['all', '--data-dir', '/proc/plat-no-such-dir', '--secure-port', '0'], code: 1,
      message: /^plat all: --data-dir \/proc\/plat-no-such-dir: mkdir \/proc\/plat-no-such-dir: no such file or directory\n$/ },
    { name: 'plat apiserver --cert-dir', args: (d) => ['apiserver', '--data-dir', d, '--cert-dir', '/proc/plat-no-such-dir', '--secure-port', '0'], code: 1,
      message: /\nplat apiserver: --cert-dir \/proc\/plat-no-such-dir: mkdir \/proc\/plat-no-such-dir: no such file or directory\n$/ },
    // --secure-port 0 turns its serving off; the pair is made before anything listens.
    { name: 'plat controller-manager --cert-dir', args: (_d, port) => ['controller-manager', '--master', 'https://127.0.0.1:1', '--controllers', 'csrcleaner',
      '--leader-elect=false', '--cert-dir', '/proc/plat-no-such-dir', '--secure-port', String(port)], code: 1,
      message: /\nplat controller-manager: --cert-dir \/proc\/plat-no-such-dir: mkdir \/proc\/plat-no-such-dir: no such file or directory\n$/ },
    { name: 'plat apiserver --data-dir naming a file, without a warning calling it a directory', args: (d) => {
      writeFileSync(path.join(d, 'file'), '');
      return ['apiserver', '--data-dir', path.join(d, 'file'), '--secure-port', '0'];
    }, code: 1, message: /\nplat apiserver: --data-dir \/.*\/file: mkdir \/.*\/file: not a directory\n$/ },
    { name: 'plat all with a file where <data-dir>/store should be', args: (d) => {
      writeFileSync(path.join(d, 'store'), '');
      return ['all', '--data-dir', d, '--secure-port', '0'];
    }, code: 1, message: /\nplat all: --data-dir \/[^\n]*: mkdir \/[^\n]*\/store: not a directory\n$/ },
    { name: 'plat ca init --dir', args: () => ['ca', 'init', '--dir', '/proc/plat-no-such-dir'], code: 1,
      message: /^plat ca init: --dir \/proc\/plat-no-such-dir: mkdir \/proc\/plat-no-such-dir: no such file or directory\n$/ },
  ];
  for (const t of refusals) {
    it(t.name, async () => {
      const r = runPlat(t.args(tempDir(), await freePort()));
      assert.equal(r.code, t.code, r.stderr);
      assert.match(r.stderr, t.message);
      assert.doesNotMatch(r.stderr, /check file permission/);
      noStack(r.stderr);
    });
  }
});

describe('plat all with a CA key but no CA certificate', () => {
  it('refuses to start and keeps the key', () => {
    const d = tempDir();
    const pki = path.join(d, 'pki');
    mkdirSync(pki, { mode: 0o700 });
    const key = generateKeyPair('ecdsa-p256').privateKeyPem;
    writeFileSync(path.join(pki, 'ca.key'), key, { mode: 0o600 });
    const r = runPlat(['all', '--data-dir', d, '--secure-port', '0']);
    assert.equal(r.code, 1, r.stderr);
    const [crt, k] = [path.join(pki, 'ca.crt'), path.join(pki, 'ca.key')];
    assert.equal(r.stderr, `plat all: ${k} exists without ${crt}; restore ${crt}, or remove ${k} to make a new CA\n`);
    assert.equal(readFileSync(k, 'utf8'), key);
    assert.equal(existsSync(crt), false);
  });
});
