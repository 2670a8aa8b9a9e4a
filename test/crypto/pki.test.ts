// PKI files: made once, reused byte-for-byte, regenerated only when they no longer fit; keys 0600.
import test from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { parseCertificate, validateCertificatePem } from '../../core/crypto/index.js';
import { ensureCa, ensureClientCertificate, ensureSelfSignedServing, ensureServingFromCa, PkiError, writeFileAtomic, writeFilesAtomic } from '../../core/pki/index.js';
import { opensslServingPair, writeOperatorPair } from '../helpers/operator-pair.js';
import { opensslVerify, tempDir } from '../helpers/openssl.js';

const mode = (f: string): number => statSync(f).mode & 0o777;
const DAY = 86_400_000;

test('writeFileAtomic: exact mode, replaces content, leaves no temp files', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const f = d.file('secret.key');
  await writeFileAtomic(f, 'one', 0o600);
  assert.equal(readFileSync(f, 'utf8'), 'one');
  assert.equal(mode(f), 0o600);
  await writeFileAtomic(f, new Uint8Array([0x74, 0x77, 0x6f]), 0o644);
  assert.equal(readFileSync(f, 'utf8'), 'two');
  assert.equal(mode(f), 0o644);
  assert.deepEqual(readdirSync(d.dir), ['secret.key']);
  await assert.rejects(writeFileAtomic(f, 'x', 0o1777), RangeError);
  await assert.rejects(writeFileAtomic(d.file('missing-dir/x'), 'x', 0o600), { code: 'ENOENT' });
  assert.deepEqual(readdirSync(d.dir), ['secret.key']);
});

test('writeFileAtomic: replaces a symlink instead of writing through it; exclusive never replaces anything', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const victim = d.file('victim.txt');
  writeFileSync(victim, 'victim', { mode: 0o644 });
  symlinkSync(victim, d.file('a.key'));
  await writeFileAtomic(d.file('a.key'), 'key', 0o600);
  assert.equal(readFileSync(victim, 'utf8'), 'victim');
  assert.ok(lstatSync(d.file('a.key')).isFile());
  assert.equal(mode(d.file('a.key')), 0o600);

  symlinkSync(d.file('nowhere'), d.file('b.key'));
  await assert.rejects(writeFileAtomic(d.file('b.key'), 'key', 0o600, { exclusive: true }), { code: 'EEXIST' });
  await assert.rejects(writeFileAtomic(d.file('a.key'), 'other', 0o600, { exclusive: true }), { code: 'EEXIST' });
  assert.equal(readFileSync(d.file('a.key'), 'utf8'), 'key');
  await writeFileAtomic(d.file('c.key'), 'new', 0o600, { exclusive: true });
  assert.equal(readFileSync(d.file('c.key'), 'utf8'), 'new');
  assert.equal(mode(d.file('c.key')), 0o600);
  assert.deepEqual(readdirSync(d.dir).sort(), ['a.key', 'b.key', 'c.key', 'victim.txt'], 'no temp files left');
});

test('writeFilesAtomic: both or neither, so a key is never left without its certificate', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const pair = (cert: string) => [{ file: d.file('a.key'), data: 'key', mode: 0o600 }, { file: cert, data: 'cert', mode: 0o644 }];
  mkdirSync(d.file('a.crt'));
  await assert.rejects(writeFilesAtomic(pair(d.file('a.crt'))), { code: 'EISDIR' });
  assert.deepEqual(readdirSync(d.dir), ['a.crt']);
  await assert.rejects(writeFilesAtomic(pair(d.file('missing-dir/a.crt'))), { code: 'ENOENT' });
  assert.deepEqual(readdirSync(d.dir), ['a.crt']);
  // A key already there, replaced and then put back when its certificate cannot be written.
  writeFileSync(d.file('a.key'), 'old key', { mode: 0o600 });
  await assert.rejects(writeFilesAtomic(pair(d.file('a.crt'))), { code: 'EISDIR' });
  assert.equal(readFileSync(d.file('a.key'), 'utf8'), 'old key');
  assert.equal(mode(d.file('a.key')), 0o600);
  assert.deepEqual(readdirSync(d.dir).sort(), ['a.crt', 'a.key'], 'no temp or kept files left');
  // Success replaces both and leaves nothing else behind.
  writeFileSync(d.file('b.crt'), 'old cert', { mode: 0o644 });
  await writeFilesAtomic(pair(d.file('b.crt')));
  assert.deepEqual([readFileSync(d.file('a.key'), 'utf8'), readFileSync(d.file('b.crt'), 'utf8')], ['key', 'cert']);
  assert.deepEqual(readdirSync(d.dir).sort(), ['a.crt', 'a.key', 'b.crt']);
});

test('ensureSelfSignedServing: created once, reused with the same bytes, key 0600', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const dir = path.join(d.dir, 'certs');
  const first = await ensureSelfSignedServing(dir, { hosts: ['api.example.com', '10.0.0.7', ''] });
  assert.equal(first.certFile, path.join(dir, 'apiserver.crt'));
  assert.equal(first.keyFile, path.join(dir, 'apiserver.key'));
  assert.equal(mode(first.keyFile), 0o600);
  assert.equal(mode(first.certFile), 0o644);
  assert.equal(mode(dir), 0o700);
  assert.equal(readFileSync(first.certFile, 'utf8'), first.certificatePem);
  assert.equal(readFileSync(first.keyFile, 'utf8'), first.privateKeyPem);

  // Leaf then the throw-away CA; the file works as a CA bundle for the leaf.
  const v = validateCertificatePem(first.certificatePem);
  assert.ok(v.ok && v.certificates.length === 2);
  const leaf = parseCertificate(first.certificatePem);
  assert.deepEqual(leaf.dnsNames, ['api.example.com', 'localhost']);
  assert.deepEqual(leaf.ipAddresses, ['10.0.0.7', '127.0.0.1']);
  assert.deepEqual(leaf.extKeyUsage, ['server auth']);
  assert.match(leaf.commonName, /^api\.example\.com@\d+$/);
  assert.equal(opensslVerify(first.certificatePem, first.certificatePem, { purpose: 'sslserver' }).status, 0);
  // As client-go's GenerateSelfSignedCertKey through Go's CreateCertificate: serials 2 (leaf) and 1
  // (CA); an SKI on the CA only, and no AKI on it (self-signed); the leaf's AKI is the CA's SKI.
  const ca = parseCertificate(first.certificatePem.slice(first.certificatePem.indexOf('-----END CERTIFICATE-----') + 26));
  assert.deepEqual([leaf.serialNumber, ca.serialNumber], ['02', '01']);
  assert.equal(leaf.subjectKeyId, undefined);
  assert.equal(ca.authorityKeyId, undefined);
  assert.equal(ca.subjectKeyId?.length, 20);
  assert.deepEqual(leaf.authorityKeyId, ca.subjectKeyId);

  assert.equal(first.generated, true);
  const again = await ensureSelfSignedServing(dir, { hosts: ['api.example.com', '10.0.0.7'] });
  const kept = { ...first, generated: false, outcome: { made: 'kept', subject: `CN=${leaf.commonName}` } };
  assert.deepEqual(again, kept);
  // A subset of hosts is still covered.
  assert.deepEqual(await ensureSelfSignedServing(dir, { hosts: ['localhost'] }), kept);
  assert.equal(readFileSync(first.certFile, 'utf8'), first.certificatePem);
});

test('ensureSelfSignedServing replaces only its own pair: when hosts grow or it expires within a day', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const first = await ensureSelfSignedServing(d.dir, { hosts: ['a.example'], baseName: 'srv' });
  assert.equal(path.basename(first.certFile), 'srv.crt');

  const grown = await ensureSelfSignedServing(d.dir, { hosts: ['a.example', 'b.example'], baseName: 'srv' });
  assert.notEqual(grown.certificatePem, first.certificatePem);
  assert.equal(grown.generated, true);
  assert.equal(grown.outcome.made, 'renewed');
  assert.ok(parseCertificate(grown.certificatePem).dnsNames.includes('b.example'));

  const later = new Date(Date.now() + 400 * DAY);
  const renewed = await ensureSelfSignedServing(d.dir, { hosts: ['a.example'], baseName: 'srv', now: later });
  assert.notEqual(renewed.certificatePem, grown.certificatePem);
  assert.match(renewed.outcome.made === 'renewed' ? renewed.outcome.reason : '', /^a\.example@\d+ expires /);
  assert.ok(parseCertificate(renewed.certificatePem).notAfter.getTime() > later.getTime());
  assert.equal(mode(renewed.keyFile), 0o600);
});

test('ensureCa: 10-year CA, reused; unusable files are an error, never replaced', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const ca = await ensureCa(d.dir, 'plat-ca');
  assert.equal(ca.certFile, path.join(d.dir, 'ca.crt'));
  assert.equal(mode(ca.keyFile), 0o600);
  const p = parseCertificate(ca.certificatePem);
  assert.equal(p.isCA, true);
  assert.equal(p.commonName, 'plat-ca');
  assert.deepEqual(p.keyUsage, ['digital signature', 'key encipherment', 'cert sign']);
  assert.equal(Math.round((p.notAfter.getTime() - p.notBefore.getTime()) / DAY), 3650);
  assert.deepEqual(await ensureCa(d.dir, 'plat-ca'), ca);

  await assert.rejects(ensureCa(d.dir, 'plat-ca', { now: new Date(Date.now() + 3651 * DAY) }), PkiError);
  writeFileSync(ca.keyFile, (await ensureCa(path.join(d.dir, 'other'), 'other')).privateKeyPem);
  await assert.rejects(ensureCa(d.dir, 'plat-ca'), (e: unknown) => e instanceof PkiError && /does not match/.test(e.message));
  unlinkSync(ca.keyFile);
  await assert.rejects(ensureCa(d.dir, 'plat-ca'), PkiError);
  assert.equal(readFileSync(ca.certFile, 'utf8'), ca.certificatePem);
  // A key without its certificate may be the CA's only copy: refused and kept, never replaced.
  const d2 = tempDir();
  t.after(() => d2.cleanup());
  const lone = (await ensureCa(path.join(d2.dir, 'elsewhere'), 'lost')).privateKeyPem;
  writeFileSync(d2.file('ca.key'), lone, { mode: 0o600 });
  await assert.rejects(ensureCa(d2.dir, 'fresh'), (e: unknown) => e instanceof PkiError
    && e.message === `${d2.file('ca.key')} exists without ${d2.file('ca.crt')}; restore ${d2.file('ca.crt')}, or remove ${d2.file('ca.key')} to make a new CA`);
  assert.equal(readFileSync(d2.file('ca.key'), 'utf8'), lone);
  assert.equal(existsSync(d2.file('ca.crt')), false);
  unlinkSync(d2.file('ca.key'));
  assert.equal(parseCertificate((await ensureCa(d2.dir, 'fresh')).certificatePem).commonName, 'fresh');
});

test('ensureServingFromCa: issued by the CA for the hosts, reused, reissued when the CA changes', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const ca = await ensureCa(d.dir, 'plat-ca');
  const opts = { hosts: ['localhost', '127.0.0.1', '::1', 'node.example'], baseName: 'apiserver' };
  const s = await ensureServingFromCa(ca, d.dir, opts);
  assert.equal(mode(s.keyFile), 0o600);
  assert.equal(opensslVerify(ca.certificatePem, s.certificatePem, { purpose: 'sslserver' }).status, 0);
  const p = parseCertificate(s.certificatePem);
  assert.deepEqual(p.dnsNames, ['localhost', 'node.example']);
  assert.deepEqual(p.ipAddresses, ['127.0.0.1', '::1']);
  assert.deepEqual(await ensureServingFromCa(ca, d.dir, opts), s);

  // A new CA of plat's name (its pki made again): the pair the old one issued is plat's, reissued.
  const otherCa = await ensureCa(path.join(d.dir, 'other'), 'plat-ca');
  const reissued = await ensureServingFromCa(otherCa, d.dir, opts);
  assert.notEqual(reissued.certificatePem, s.certificatePem);
  assert.equal(opensslVerify(otherCa.certificatePem, reissued.certificatePem).status, 0);
});

test("ensureServingFromCa: an operator's pair (another issuer) is served as it is; one that does not load is an error, never replaced", async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const ca = await ensureCa(d.dir, 'plat-ca');
  const opts = { hosts: ['localhost', '127.0.0.1', 'not-in-the-operator-cert.example'], baseName: 'apiserver' };
  const own = opensslServingPair('operator.example');
  writeOperatorPair(d.dir, 'apiserver', own);
  const kept = await ensureServingFromCa(ca, d.dir, opts);
  assert.equal(kept.certificatePem, own.cert);
  assert.equal(readFileSync(d.file('apiserver.crt'), 'utf8'), own.cert, 'the file is left as it was');

  writeOperatorPair(d.dir, 'apiserver', { cert: own.cert, key: opensslServingPair('other.example').key });
  await assert.rejects(ensureServingFromCa(ca, d.dir, opts), (e: unknown) => e instanceof PkiError
    && e.message.includes(`${d.file('apiserver.crt')} and ${d.file('apiserver.key')}`) && e.message.includes('never replaced'));
  assert.equal(readFileSync(d.file('apiserver.crt'), 'utf8'), own.cert);
});

test('ensureClientCertificate: CN and groups, clientAuth, reused until the subject changes', async (t) => {
  const d = tempDir();
  t.after(() => d.cleanup());
  const ca = await ensureCa(d.dir, 'plat-ca');
  const opts = { commonName: 'plat-admin', organizations: ['system:masters'], baseName: 'admin', validityDays: 30 };
  const c = await ensureClientCertificate(ca, d.dir, opts);
  assert.equal(path.basename(c.certFile), 'admin.crt');
  assert.equal(mode(c.keyFile), 0o600);
  assert.equal(opensslVerify(ca.certificatePem, c.certificatePem, { purpose: 'sslclient' }).status, 0);
  const p = parseCertificate(c.certificatePem);
  assert.equal(p.commonName, 'plat-admin');
  assert.deepEqual(p.organizations, ['system:masters']);
  assert.deepEqual(p.extKeyUsage, ['client auth']);
  assert.equal(Math.round((p.notAfter.getTime() - Date.now()) / DAY), 30);
  assert.deepEqual(await ensureClientCertificate(ca, d.dir, opts), c);
  const changed = await ensureClientCertificate(ca, d.dir, { ...opts, organizations: ['system:masters', 'extra'] });
  // Go's multi-valued RDN sorts the groups; the asked order is not a change of subject.
  assert.deepEqual(parseCertificate(changed.certificatePem).organizations, ['extra', 'system:masters']);
  assert.deepEqual(await ensureClientCertificate(ca, d.dir, { ...opts, organizations: ['system:masters', 'extra'] }), changed);
  assert.deepEqual(await ensureClientCertificate(ca, d.dir, { ...opts, organizations: ['extra', 'system:masters'] }), changed);
  assert.notDeepEqual(await ensureClientCertificate(ca, d.dir, { ...opts, organizations: ['extra', 'system:masters', 'extra'] }), changed);
});
