// parseCsr against CSRs made by the real `openssl req`: every field, every supported key type, and the
// Kubernetes ParseCSR error cases.
import test from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { CryptoError, DEFAULT_BACKENDS, decodePemBlocks, encodePem, parseCsr, verifyCsr } from '../../core/crypto/index.js';
import { openssl, opensslBytes, opensslCsr } from '../helpers/openssl.js';

const SANS = ['DNS:node-1.example.com', 'DNS:*.apps.example', 'IP:10.1.2.3', 'IP:2001:db8:0:0:1:0:0:1', 'IP:::ffff:192.168.0.1', 'email:admin@example.com', 'URI:spiffe://cluster.local/ns/a/sa/b'];
const SUBJECT = '/CN=system:node:node-1+OU=nodes/O=system:nodes/O=second org/C=DE';

const der = (csrPem: string): Uint8Array => opensslBytes(['req', '-outform', 'DER'], { input: csrPem });
const spkiOf = (csrPem: string): Uint8Array => {
  const pem = openssl(['req', '-noout', '-pubkey'], { input: csrPem });
  return new Uint8Array(createPublicKey(pem).export({ type: 'spki', format: 'der' }));
};

const cases = [
  { id: 'rsa-2048', keyType: 'rsa-2048', digest: undefined, algorithm: 'rsa', bits: 2048, curve: undefined, sig: 'sha256WithRSAEncryption' },
  { id: 'ec-p256', keyType: 'ec-p256', digest: undefined, algorithm: 'ec', bits: 256, curve: 'P-256', sig: 'ecdsa-with-SHA256' },
  { id: 'ec-p384', keyType: 'ec-p384', digest: 'sha384', algorithm: 'ec', bits: 384, curve: 'P-384', sig: 'ecdsa-with-SHA384' },
  { id: 'ec-p521', keyType: 'ec-p521', digest: 'sha512', algorithm: 'ec', bits: 521, curve: 'P-521', sig: 'ecdsa-with-SHA512' },
  { id: 'ed25519', keyType: 'ed25519', digest: undefined, algorithm: 'ed25519', bits: undefined, curve: undefined, sig: 'Ed25519' },
] as const;

for (const c of cases) {
  test(`openssl ${c.id} CSR: every field`, () => {
    const { csrPem } = opensslCsr({ keyType: c.keyType, subject: SUBJECT, sans: SANS, ...(c.digest ? { digest: c.digest } : {}) });
    // Byte-level DER from openssl itself; round-trip through the facade's PEM code.
    const csr = parseCsr(csrPem);
    assert.deepEqual(csr.der, der(csrPem));
    assert.deepEqual(csr.subject, [
      // DER sorts a multi-valued RDN's members by their encoding: the shorter OU comes first.
      [
        { type: '2.5.4.11', shortName: 'OU', value: 'nodes' },
        { type: '2.5.4.3', shortName: 'CN', value: 'system:node:node-1' },
      ],
      [{ type: '2.5.4.10', shortName: 'O', value: 'system:nodes' }],
      [{ type: '2.5.4.10', shortName: 'O', value: 'second org' }],
      [{ type: '2.5.4.6', shortName: 'C', value: 'DE' }],
    ]);
    assert.equal(csr.commonName, 'system:node:node-1');
    assert.deepEqual(csr.organizations, ['system:nodes', 'second org']);
    assert.deepEqual(csr.dnsNames, ['node-1.example.com', '*.apps.example']);
    // Go's net.IP.String(): RFC 5952 compression, IPv4-mapped printed as IPv4.
    assert.deepEqual(csr.ipAddresses, ['10.1.2.3', '2001:db8::1:0:0:1', '192.168.0.1']);
    assert.deepEqual(csr.emailAddresses, ['admin@example.com']);
    assert.deepEqual(csr.uris, ['spiffe://cluster.local/ns/a/sa/b']);
    assert.equal(csr.extensions.length, 1);
    assert.equal(csr.extensions[0]!.oid, '2.5.29.17');
    assert.equal(csr.extensions[0]!.critical, false);
    assert.equal(csr.publicKey.algorithm, c.algorithm);
    assert.equal(csr.publicKey.bits, c.bits);
    assert.equal(csr.publicKey.curve, c.curve);
    assert.deepEqual(csr.publicKey.spki, spkiOf(csrPem));
    assert.equal(csr.signatureAlgorithm, c.sig);
    // The backend is the default of core/crypto/backend.ts for the key type.
    const wasmVerified = (c.algorithm === 'ed25519' && DEFAULT_BACKENDS.verifyEd25519 === 'wasm')
      || (c.curve === 'P-256' && DEFAULT_BACKENDS.verifyP256 === 'wasm');
    assert.deepEqual(verifyCsr(csr), { backend: wasmVerified ? 'wasm' : 'node:crypto' });
  });
}

for (const digest of ['sha1', 'sha384', 'sha512'] as const) {
  test(`openssl RSA CSR signed with ${digest}`, () => {
    const { csrPem } = opensslCsr({ keyType: 'rsa-2048', subject: '/CN=x', digest });
    const csr = parseCsr(csrPem);
    assert.equal(csr.signatureAlgorithm, `${digest}WithRSAEncryption`);
    // Go allows SHA-1 for CSRs (only certificates refuse it).
    verifyCsr(csr);
  });
}

test('openssl RSA-PSS CSR (salt = hash length) parses and verifies', () => {
  for (const digest of ['sha256', 'sha384', 'sha512']) {
    const { csrPem } = opensslCsr({ keyType: 'rsa-2048', subject: '/CN=pss', digest, sigopt: ['rsa_padding_mode:pss', 'rsa_pss_saltlen:digest', `rsa_mgf1_md:${digest}`] });
    const csr = parseCsr(csrPem);
    assert.equal(csr.signatureAlgorithm, 'rsassa-pss', digest);
    assert.equal(csr.publicKey.algorithm, 'rsa');
    verifyCsr(csr);
  }
});

test('UTF-8 subject, no SANs, several requested extensions', () => {
  const { csrPem } = opensslCsr({
    keyType: 'ec-p256',
    subject: '/CN=Jürgen Groß/O=Straße',
    utf8: true,
    addext: ['keyUsage=critical,digitalSignature', 'basicConstraints=critical,CA:FALSE', 'extendedKeyUsage=clientAuth'],
  });
  const csr = parseCsr(csrPem);
  assert.equal(csr.commonName, 'Jürgen Groß');
  assert.deepEqual(csr.organizations, ['Straße']);
  assert.deepEqual([csr.dnsNames, csr.ipAddresses, csr.emailAddresses, csr.uris], [[], [], [], []]);
  assert.deepEqual(
    csr.extensions.map((e) => [e.oid, e.critical]),
    [['2.5.29.15', true], ['2.5.29.19', true], ['2.5.29.37', false]],
  );
  // keyUsage digitalSignature: BIT STRING 07 80.
  assert.equal(Buffer.from(csr.extensions[0]!.value).toString('hex'), '03020780');
});

test('a CSR with no subject at all', () => {
  const { csrPem } = opensslCsr({ keyType: 'ec-p256', subject: '/', sans: ['DNS:only.example'] });
  const csr = parseCsr(csrPem);
  assert.deepEqual(csr.subject, []);
  assert.equal(csr.commonName, '');
  assert.deepEqual(csr.organizations, []);
  assert.deepEqual(csr.dnsNames, ['only.example']);
});

// --- Kubernetes ParseCSR error cases ---------------------------------------------------------------

const good = opensslCsr({ keyType: 'ec-p256', subject: '/CN=good' }).csrPem;
const goodDer = decodePemBlocks(good)[0]!.der;
const PEM_TYPE = 'PEM block type must be CERTIFICATE REQUEST';

const isCryptoError = (message: string) => (e: unknown): boolean => {
  assert.ok(e instanceof CryptoError, `expected CryptoError, got ${String(e)}`);
  assert.equal(e.message, message);
  return true;
};

test('PEM framing: label, missing block, first block only', () => {
  assert.throws(() => parseCsr(''), isCryptoError(PEM_TYPE));
  assert.throws(() => parseCsr('just text'), isCryptoError(PEM_TYPE));
  assert.throws(() => parseCsr(good.replace(/CERTIFICATE REQUEST/g, 'CERTIFICATE')), isCryptoError(PEM_TYPE));
  assert.throws(() => parseCsr(good.replace(/CERTIFICATE REQUEST/g, 'NEW CERTIFICATE REQUEST')), isCryptoError(PEM_TYPE));
  assert.throws(() => parseCsr(good.replace(/CERTIFICATE REQUEST/g, 'certificate request')), isCryptoError(PEM_TYPE));
  // Only the first block counts: a good CSR after a wrong block does not help.
  assert.throws(() => parseCsr(encodePem('CERTIFICATE', goodDer) + good), isCryptoError(PEM_TYPE));
});

test('PEM framing: junk before, anything after, headers accepted', () => {
  assert.equal(parseCsr(`some junk\n${good}`).commonName, 'good');
  assert.equal(parseCsr(`${good}garbage ${'\u0000'} -----BEGIN X-----\n`).commonName, 'good');
  assert.equal(parseCsr(good + encodePem('CERTIFICATE', new Uint8Array([1, 2]))).commonName, 'good');
  const withHeaders = good.replace('-----\n', '-----\nProc-Type: 4,ENCRYPTED\nX: y\n\n');
  assert.equal(parseCsr(withHeaders).commonName, 'good');
  assert.equal(parseCsr(Buffer.from(good)).commonName, 'good');
});

test('DER errors use Go texts', () => {
  const withTrailing = new Uint8Array([...goodDer, 0x00]);
  assert.throws(() => parseCsr(encodePem('CERTIFICATE REQUEST', withTrailing)), isCryptoError('asn1: syntax error: trailing data'));
  assert.throws(() => parseCsr(encodePem('CERTIFICATE REQUEST', goodDer.subarray(0, goodDer.length - 1))), isCryptoError('asn1: syntax error: data truncated'));
  // Go's asn1.Unmarshal of no bytes at all.
  assert.throws(() => parseCsr(encodePem('CERTIFICATE REQUEST', new Uint8Array(0))), isCryptoError('asn1: syntax error: sequence truncated'));
  assert.throws(
    () => parseCsr(encodePem('CERTIFICATE REQUEST', new Uint8Array([0x02, 0x01, 0x00]))),
    (e: unknown) => e instanceof CryptoError && e.message.startsWith("asn1: structure error: tags don't match (16 vs {class:0 tag:2 length:1 isCompound:false})"),
  );
  // Indefinite length (BER) is refused.
  const ber = new Uint8Array([0x30, 0x80, ...goodDer.subarray(goodDer[1]! & 0x80 ? 2 + (goodDer[1]! & 0x7f) : 2), 0, 0]);
  assert.throws(() => parseCsr(encodePem('CERTIFICATE REQUEST', ber)), isCryptoError('asn1: syntax error: indefinite length found (not DER)'));
});

test('unsupported elliptic curve (secp256k1) is a parse error, as in Go', () => {
  const { csrPem } = opensslCsr({ keyType: 'ec-secp256k1', subject: '/CN=k1' });
  assert.throws(() => parseCsr(csrPem), isCryptoError('x509: unsupported elliptic curve'));
});
