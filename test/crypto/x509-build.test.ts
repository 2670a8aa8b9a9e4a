// createCertificate checked by independent parties: `openssl verify`, `openssl x509 -text` and
// node:crypto's X509Certificate.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createPublicKey, X509Certificate } from 'node:crypto';
import { createCertificate, CryptoError, generateKeyPair, parseCertificate, spkiOf, type KeyType } from '../../core/crypto/index.js';
import { makeCa, makeCert } from '../helpers/certs.js';
import { opensslCa, opensslCertText, opensslVerify } from '../helpers/openssl.js';

const now = new Date();
const DAY = 86_400_000;
const ca = makeCa({ commonName: 'plat test CA' });

test('leaf with every SAN kind, EKU and key usage: openssl verifies and shows them', () => {
  const leaf = makeCert(ca, {
    commonName: 'system:node:n1',
    organizations: ['system:nodes', 'second'],
    keyUsage: ['digital signature', 'key encipherment'],
    extKeyUsage: ['client auth', 'server auth'],
    dnsNames: ['n1.example.com', 'localhost'],
    ipAddresses: ['10.0.0.1', '2001:db8::1'],
    emailAddresses: ['n1@example.com'],
    uris: ['spiffe://cluster.local/n1'],
  });
  for (const purpose of ['sslserver', 'sslclient']) {
    const r = opensslVerify(ca.certificatePem, leaf.certificatePem, { purpose });
    assert.equal(r.status, 0, `${purpose}: ${r.stderr}${r.stdout}`);
  }
  const text = opensslCertText(leaf.certificatePem);
  assert.match(text, /Version: 3 \(0x2\)/);
  assert.match(text, /Signature Algorithm: ecdsa-with-SHA256/);
  assert.match(text, /Issuer: CN = plat test CA/);
  // Go's ToRDNSequence: both O values in one RDN, sorted by their DER (the shorter one first).
  assert.match(text, /Subject: O = second \+ O = system:nodes, CN = system:node:n1/);
  assert.match(text, /X509v3 Key Usage: critical\s+Digital Signature, Key Encipherment/);
  assert.match(text, /X509v3 Extended Key Usage: \s*TLS Web Server Authentication, TLS Web Client Authentication/);
  assert.match(text, /X509v3 Basic Constraints: critical\s+CA:FALSE/);
  // Go writes an SKI for CAs only; the AKI is the CA's SKI.
  assert.doesNotMatch(text, /X509v3 Subject Key Identifier/);
  assert.match(text, /X509v3 Authority Key Identifier: \s*[0-9A-F:]{59}/);
  assert.match(
    text,
    /X509v3 Subject Alternative Name: \s*DNS:n1\.example\.com, DNS:localhost, email:n1@example\.com, IP Address:10\.0\.0\.1, IP Address:2001:DB8:0:0:0:0:0:1, URI:spiffe:\/\/cluster\.local\/n1/,
  );

  const x = new X509Certificate(leaf.certificatePem);
  const caX = new X509Certificate(ca.certificatePem);
  assert.ok(x.checkIssued(caX));
  assert.ok(x.verify(caX.publicKey));
  assert.equal(x.ca, false);
  assert.equal(x.subject, 'O=second + O=system:nodes\nCN=system:node:n1');
  assert.equal(x.issuer, 'CN=plat test CA');
  assert.deepEqual(x.keyUsage, ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
  assert.equal(x.checkHost('n1.example.com'), 'n1.example.com');
  assert.equal(x.checkIP('2001:db8::1'), '2001:db8::1');
  assert.ok(x.checkPrivateKey(leaf.keyObject));
  // Up to 128 random bits, with the sign octet when the top bit is set.
  assert.match(parseCertificate(leaf.der).serialNumber, /^(?:00[89a-f][0-9a-f](?:[0-9a-f]{2}){15}|[0-7][0-9a-f](?:[0-9a-f]{2}){0,15})$/);

  // And our own reader agrees.
  const p = parseCertificate(leaf.certificatePem);
  assert.deepEqual(p.keyUsage, ['digital signature', 'key encipherment']);
  assert.deepEqual(p.extKeyUsage, ['server auth', 'client auth']);
  assert.deepEqual(p.ipAddresses, ['10.0.0.1', '2001:db8::1']);
  assert.deepEqual(p.organizations, ['second', 'system:nodes']);
  assert.deepEqual(p.authorityKeyId, parseCertificate(ca.certificatePem).subjectKeyId);
});

test('a CA\'s SKI is RFC 5280 method 1 (SHA-1 of the public key bits)', () => {
  const leaf = makeCa({ commonName: 'ski' });
  const spki = new Uint8Array(createPublicKey(leaf.keyObject).export({ type: 'spki', format: 'der' }));
  // P-256 SPKI ends with the 65-byte uncompressed point, which is the whole BIT STRING value.
  const expected = createHash('sha1').update(spki.subarray(-65)).digest();
  assert.deepEqual(Buffer.from(parseCertificate(leaf.der).subjectKeyId!), expected);
  const hexColons = expected.toString('hex').toUpperCase().match(/../g)!.join(':');
  assert.match(opensslCertText(leaf.certificatePem), new RegExp(`Subject Key Identifier: \\s*${hexColons}`));
});

const signers: { keyType: KeyType; algorithm: RegExp }[] = [
  { keyType: 'ecdsa-p256', algorithm: /ecdsa-with-SHA256/ },
  { keyType: 'ecdsa-p384', algorithm: /ecdsa-with-SHA384/ },
  { keyType: 'rsa-2048', algorithm: /sha256WithRSAEncryption/ },
  { keyType: 'ed25519', algorithm: /ED25519/i },
];

for (const s of signers) {
  test(`CA with a ${s.keyType} key signs leaves that openssl verifies`, () => {
    const c = makeCa({ keyType: s.keyType, commonName: `ca-${s.keyType}` });
    const leaf = makeCert(c, { commonName: 'leaf', keyType: 'rsa-2048', extKeyUsage: ['server auth'], dnsNames: ['x'] });
    const r = opensslVerify(c.certificatePem, leaf.certificatePem);
    assert.equal(r.status, 0, r.stderr + r.stdout);
    assert.match(opensslCertText(leaf.certificatePem), new RegExp(`Signature Algorithm: ${s.algorithm.source}`, 'i'));
    assert.ok(new X509Certificate(leaf.certificatePem).verify(createPublicKey(c.keyObject)));
  });
}

test('three-level chain with pathLen 0 on the intermediate', () => {
  const root = makeCa({ commonName: 'root', pathLen: 1 });
  const inter = makeCa({ commonName: 'intermediate', pathLen: 0, issuer: root });
  const leaf = makeCert(inter, { commonName: 'leaf', extKeyUsage: ['client auth'] });
  const r = opensslVerify(root.certificatePem, leaf.certificatePem, { untrusted: inter.certificatePem });
  assert.equal(r.status, 0, r.stderr + r.stdout);
  assert.match(opensslCertText(inter.certificatePem), /CA:TRUE, pathlen:0/);
  assert.match(opensslCertText(root.certificatePem), /CA:TRUE, pathlen:1/);
  // A CA under the pathLen-0 intermediate breaks the chain.
  const tooDeep = makeCa({ commonName: 'too deep', issuer: inter });
  const leaf2 = makeCert(tooDeep, { commonName: 'leaf2' });
  assert.notEqual(opensslVerify(root.certificatePem, leaf2.certificatePem, { untrusted: inter.certificatePem + tooDeep.certificatePem }).status, 0);
});

test('issuer DN is copied byte-exact from an openssl CA (UTF-8, multi-valued RDN)', () => {
  for (const ski of ['none', '0102030405']) {
    const { certPem, keyPem } = opensslCa('/CN=Zoë CA+OU=Ünit/O=Örg/C=DE', 'rsa-2048', { utf8: true, ski });
    const key = generateKeyPair();
    const { certificatePem } = createCertificate({
      template: { subject: { commonName: 'leaf' }, notBefore: now, notAfter: new Date(now.getTime() + DAY), extKeyUsage: ['client auth'] },
      publicKey: key.keyObject,
      issuer: { certificatePem: certPem, privateKey: keyPem },
      signer: keyPem,
    });
    const caParsed = parseCertificate(certPem);
    const leafParsed = parseCertificate(certificatePem);
    assert.deepEqual(leafParsed.rawIssuer, caParsed.rawSubject);
    assert.equal(opensslVerify(certPem, certificatePem).status, 0);
    // AKI: the issuer's SKI when it has one, else none (Go copies parent.SubjectKeyId, never computes it).
    assert.equal(caParsed.subjectKeyId === undefined, ski === 'none');
    assert.deepEqual(leafParsed.authorityKeyId, caParsed.subjectKeyId);
    if (ski !== 'none') assert.equal(Buffer.from(leafParsed.authorityKeyId!).toString('hex'), ski);
  }
});

test('self-signed CA: issuer = subject, an SKI and no AKI, openssl trusts it as its own CA', () => {
  const c = makeCa({ commonName: 'self' });
  const p = parseCertificate(c.der);
  assert.deepEqual(p.rawIssuer, p.rawSubject);
  assert.equal(p.subjectKeyId?.length, 20);
  assert.equal(p.authorityKeyId, undefined);
  assert.equal(p.isCA, true);
  assert.equal(opensslVerify(c.certificatePem, c.certificatePem).status, 0);
});

test('serial numbers: leading zero when the top bit is set, limits', () => {
  const key = generateKeyPair();
  const base = { subject: { commonName: 's' }, notBefore: now, notAfter: new Date(now.getTime() + DAY) };
  const make = (serialNumber: Uint8Array) => createCertificate({ template: { ...base, serialNumber }, publicKey: key.keyObject, signer: key.keyObject });
  assert.equal(parseCertificate(make(new Uint8Array([0xff, 0x01])).der).serialNumber, '00ff01');
  assert.equal(parseCertificate(make(new Uint8Array([0x00, 0x00, 0x7f])).der).serialNumber, '7f');
  assert.equal(new X509Certificate(make(new Uint8Array([0xff, 0x01])).certificatePem).serialNumber, 'FF01');
  assert.throws(() => make(new Uint8Array([0, 0])), RangeError);
  assert.throws(() => make(new Uint8Array(21).fill(1)), RangeError);
  assert.throws(() => make(new Uint8Array([0x80, ...new Uint8Array(19)])), RangeError);
});

test('validity: whole seconds, GeneralizedTime from 2050', () => {
  const key = generateKeyPair();
  const notBefore = new Date('2049-12-31T23:59:59.750Z');
  const notAfter = new Date('2050-06-01T12:00:00Z');
  const { der, certificatePem } = createCertificate({ template: { subject: { commonName: 't' }, notBefore, notAfter }, publicKey: key.keyObject, signer: key.keyObject });
  const p = parseCertificate(der);
  assert.equal(p.notBefore.toISOString(), '2049-12-31T23:59:59.000Z');
  assert.equal(p.notAfter.toISOString(), '2050-06-01T12:00:00.000Z');
  assert.ok(Buffer.from(der).includes(Buffer.from('170d3439313233313233353935395a', 'hex')), 'UTCTime 491231235959Z');
  assert.ok(Buffer.from(der).includes(Buffer.from('180f32303530303630313132303030305a', 'hex')), 'GeneralizedTime 20500601120000Z');
  assert.match(opensslCertText(certificatePem), /Not After : Jun  1 12:00:00 2050 GMT/);
});

test('empty subject makes the SAN extension critical', () => {
  const key = generateKeyPair();
  const { certificatePem } = createCertificate({
    template: { subject: {}, notBefore: now, notAfter: new Date(now.getTime() + DAY), dnsNames: ['only.example'] },
    publicKey: spkiOf(key.keyObject),
    signer: key.keyObject,
  });
  assert.match(opensslCertText(certificatePem), /X509v3 Subject Alternative Name: critical\s+DNS:only\.example/);
});

test('publicKey takes every form the README names: a public or private KeyObject, SPKI DER', () => {
  const key = generateKeyPair();
  const signer = generateKeyPair();
  const template = { subject: { commonName: 'forms' }, notBefore: now, notAfter: new Date(now.getTime() + DAY) };
  for (const publicKey of [createPublicKey(key.keyObject), key.keyObject, spkiOf(key.keyObject)]) {
    const { certificatePem } = createCertificate({ template, publicKey, signer: signer.keyObject });
    assert.ok(new X509Certificate(certificatePem).publicKey.equals(createPublicKey(key.keyObject)));
  }
});

test('argument and key errors', () => {
  const key = generateKeyPair();
  const other = generateKeyPair();
  const template = { subject: { commonName: 'x' }, notBefore: now, notAfter: new Date(now.getTime() + DAY) };
  assert.throws(
    () => createCertificate({ template, publicKey: key.keyObject, issuer: { certificatePem: ca.certificatePem, privateKey: other.keyObject }, signer: other.keyObject }),
    (e: unknown) => e instanceof CryptoError && e.message === "x509: provided PrivateKey doesn't match parent's PublicKey",
  );
  assert.throws(
    () => createCertificate({ template, publicKey: key.keyObject, issuer: { certificatePem: ca.certificatePem, privateKey: ca.keyObject }, signer: other.keyObject }),
    CryptoError,
  );
  assert.throws(() => createCertificate({ template: { ...template, notAfter: now }, publicKey: key.keyObject, signer: key.keyObject }), RangeError);
  assert.throws(() => createCertificate({ template: { ...template, keyUsage: ['server auth'] }, publicKey: key.keyObject, signer: key.keyObject }), RangeError);
  assert.throws(() => createCertificate({ template: { ...template, extKeyUsage: ['cert sign'] }, publicKey: key.keyObject, signer: key.keyObject }), RangeError);
  assert.throws(() => createCertificate({ template: { ...template, pathLen: 1 }, publicKey: key.keyObject, signer: key.keyObject }), RangeError);
  assert.throws(() => createCertificate({ template: { ...template, ipAddresses: ['300.1.1.1'] }, publicKey: key.keyObject, signer: key.keyObject }), RangeError);
  assert.throws(() => createCertificate({ template: { ...template, dnsNames: ['bücher.de'] }, publicKey: key.keyObject, signer: key.keyObject }), RangeError);
  assert.throws(() => createCertificate({ template, publicKey: key.keyObject, signer: key.publicKeyPem }), TypeError);
});
