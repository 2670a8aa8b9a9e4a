// How the CA files are watched, with the every-minute re-read pushed out of the way (an hour) so
// that only the watches can see a change: a Kubernetes Secret or ConfigMap volume (the files are
// symlinks through `..data`, swapped to a new directory and the old one removed, as the kubelet's
// AtomicWriter does), files that are symlinks into another directory rewritten in place, and
// files deleted and written again. Upstream watches the files themselves (fsnotify follows the
// symlink) and re-adds the watch after a remove or rename; plat does too.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { CaProvider } from '../../plugins/csrsigning/index.js';
import { makeCa, type TestCredential } from '../helpers/certs.js';
import { tempDir } from '../helpers/plat.js';
import { Logs, until } from './support.js';

const HOUR = 3_600_000;

describe('CA file watches', () => {
  const cas = ['ca-one', 'ca-two', 'ca-three'].map((commonName) => makeCa({ commonName }));
  let provider: CaProvider | undefined;
  afterEach(() => provider?.stop());

  function watch(certFile: string, keyFile: string): CaProvider {
    provider = new CaProvider(certFile, keyFile, new Logs().logger, { reloadIntervalMs: HOUR });
    provider.start();
    return provider;
  }
  const signsWith = (p: CaProvider, ca: TestCredential, what: string) =>
    until(() => p.current().certBytes.toString() === ca.certificatePem, what);

  it('follows a Secret volume\'s ..data swap, twice', async () => {
    const dir = tempDir();
    const version = (n: number, ca: TestCredential) => {
      mkdirSync(path.join(dir, `..v${n}`));
      writeFileSync(path.join(dir, `..v${n}`, 'tls.crt'), ca.certificatePem);
      writeFileSync(path.join(dir, `..v${n}`, 'tls.key'), ca.privateKeyPem);
    };
    const swap = (from: number, to: number, ca: TestCredential) => {
      version(to, ca);
      symlinkSync(`..v${to}`, path.join(dir, '..data_tmp'));
      renameSync(path.join(dir, '..data_tmp'), path.join(dir, '..data'));
      rmSync(path.join(dir, `..v${from}`), { recursive: true });
    };
    version(1, cas[0]!);
    symlinkSync('..v1', path.join(dir, '..data'));
    symlinkSync('..data/tls.crt', path.join(dir, 'tls.crt'));
    symlinkSync('..data/tls.key', path.join(dir, 'tls.key'));
    const p = watch(path.join(dir, 'tls.crt'), path.join(dir, 'tls.key'));

    swap(1, 2, cas[1]!);
    await signsWith(p, cas[1]!, 'the first swap to be seen');
    swap(2, 3, cas[2]!);
    await signsWith(p, cas[2]!, 'the second swap to be seen');
  });

  it('sees files that are symlinks into another directory rewritten in place', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'real'));
    mkdirSync(path.join(dir, 'etc'));
    const real = (name: string) => path.join(dir, 'real', name);
    writeFileSync(real('ca.crt'), cas[0]!.certificatePem);
    writeFileSync(real('ca.key'), cas[0]!.privateKeyPem);
    symlinkSync(real('ca.crt'), path.join(dir, 'etc', 'ca.crt'));
    symlinkSync(real('ca.key'), path.join(dir, 'etc', 'ca.key'));
    const p = watch(path.join(dir, 'etc', 'ca.crt'), path.join(dir, 'etc', 'ca.key'));

    writeFileSync(real('ca.key'), cas[1]!.privateKeyPem);
    writeFileSync(real('ca.crt'), cas[1]!.certificatePem);
    await signsWith(p, cas[1]!, 'the rewritten target to be seen');
  });

  it('sees files deleted and written again, and keeps the current CA while they are missing', async () => {
    const dir = tempDir();
    const certFile = path.join(dir, 'ca.crt');
    const keyFile = path.join(dir, 'ca.key');
    writeFileSync(certFile, cas[0]!.certificatePem);
    writeFileSync(keyFile, cas[0]!.privateKeyPem);
    const p = watch(certFile, keyFile);

    unlinkSync(certFile);
    unlinkSync(keyFile);
    writeFileSync(keyFile, cas[1]!.privateKeyPem);
    writeFileSync(certFile, cas[1]!.certificatePem);
    await signsWith(p, cas[1]!, 'the new files to be seen');
    // Written in place after that: the watches are on the new files.
    writeFileSync(keyFile, cas[2]!.privateKeyPem);
    writeFileSync(certFile, cas[2]!.certificatePem);
    await signsWith(p, cas[2]!, 'the rewrite to be seen');
    assert.equal(p.current().certFile, certFile);
  });

  it('logs a removed file as upstream\'s loader does at each retry: the watch it cannot add, then the read that fails', async () => {
    const dir = tempDir();
    const certFile = path.join(dir, 'ca.crt');
    const keyFile = path.join(dir, 'ca.key');
    writeFileSync(certFile, cas[0]!.certificatePem);
    writeFileSync(keyFile, cas[0]!.privateKeyPem);
    const logs = new Logs();
    provider = new CaProvider(certFile, keyFile, logs.logger, { reloadIntervalMs: HOUR });
    provider.start();
    unlinkSync(certFile);
    await provider.reload();
    const watchLine = `Failed to watch cert and key file, will retry later err="error adding watch for file ${certFile}: no such file or directory"`;
    await until(() => logs.has(watchLine), 'the watch failure');
    assert.ok(logs.lines.find((l) => l.includes(watchLine))!.startsWith('E'));
    assert.ok(logs.has(`Unhandled Error err="key failed with : open ${certFile}: no such file or directory"`), logs.lines.join('\n'));
    assert.equal(provider.current().certBytes.toString(), cas[0]!.certificatePem, 'the current CA stays');
  });

  it('warns, at start-up and at a new pair, when the key file is readable by group or others (and still signs, as upstream)', async () => {
    const dir = tempDir();
    const certFile = path.join(dir, 'ca.crt');
    const keyFile = path.join(dir, 'ca.key');
    writeFileSync(certFile, cas[0]!.certificatePem);
    writeFileSync(keyFile, cas[0]!.privateKeyPem, { mode: 0o600 });
    chmodSync(keyFile, 0o644);
    const warning = (mode: string) => `CA key file "${keyFile}" is accessible by group or others (mode ${mode}); the signing key should be readable by its owner only (0600)`;
    const logs = new Logs();
    const p = new CaProvider(certFile, keyFile, logs.logger, { reloadIntervalMs: HOUR });
    assert.equal(logs.count(warning('0644')), 1);
    assert.equal(p.current().certBytes.toString(), cas[0]!.certificatePem);

    chmodSync(keyFile, 0o600);
    const quiet = new Logs();
    new CaProvider(certFile, keyFile, quiet.logger, { reloadIntervalMs: HOUR });
    assert.ok(!quiet.has('is accessible by group or others'), quiet.lines.join('\n'));

    writeFileSync(certFile, cas[1]!.certificatePem);
    writeFileSync(keyFile, cas[1]!.privateKeyPem);
    chmodSync(keyFile, 0o640);
    await p.reload();
    assert.equal(p.current().certBytes.toString(), cas[1]!.certificatePem);
    assert.equal(logs.count(warning('0640')), 1);
    await p.reload();
    assert.equal(logs.count(warning('0640')), 1, 'an unchanged pair is not warned about again');
  });
});
