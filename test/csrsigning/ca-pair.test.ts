// Which certificate/key files make a signing CA (upstream's loader, tls.X509KeyPair, then its CA
// provider's ParseCertsPEM and ParsePrivateKeyPEM): key types and PEM forms accepted, and the
// message for each refusal.
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { describe, it } from 'node:test';
import { parseSigningCa } from '../../plugins/csrsigning/index.js';
import { opensslCa, openssl, opensslKey, tempDir, type OpensslKeyType } from '../helpers/openssl.js';

const CERT = '/etc/plat/ca.crt';
const KEY = '/etc/plat/ca.key';
const LOADER = `csr-controller::${CERT}::${KEY}`;
const parse = (cert: string, key: string) => parseSigningCa(CERT, Buffer.from(cert), KEY, Buffer.from(key));
const BAD_CERT = '-----BEGIN CERTIFICATE-----\nMAMCAQA=\n-----END CERTIFICATE-----\n';
const relabel = (pem: string, label: string) => pem.replace(/(BEGIN|END) [A-Z ]*PRIVATE KEY/g, `$1 ${label}`);
const reexport = (pem: string, type: 'sec1' | 'pkcs1') => createPrivateKey(pem).export({ type, format: 'pem' }).toString();

describe('signing CA files', () => {
  const accepted: { name: string; keyType: OpensslKeyType; form?: (pem: string) => string }[] = [
    { name: 'ECDSA P-256, PKCS#8', keyType: 'ec-p256' },
    { name: 'ECDSA P-256, SEC1 after an EC PARAMETERS block', keyType: 'ec-p256',
      form: (pem) => openssl(['ecparam', '-name', 'prime256v1']) + reexport(pem, 'sec1') },
    { name: 'ECDSA P-384, SEC1', keyType: 'ec-p384', form: (pem) => reexport(pem, 'sec1') },
    { name: 'ECDSA P-521', keyType: 'ec-p521' },
    { name: 'RSA 2048, PKCS#1', keyType: 'rsa-2048', form: (pem) => reexport(pem, 'pkcs1') },
    { name: 'Ed25519', keyType: 'ed25519' },
  ];
  for (const c of accepted) {
    it(`accepts ${c.name}`, () => {
      const { certPem, keyPem } = opensslCa('/CN=signing-ca', c.keyType);
      const ca = parse(certPem, c.form ? c.form(keyPem) : keyPem);
      assert.equal(ca.certificate.commonName, 'signing-ca');
      assert.match(ca.poolCa.privateKeyPem, /^-----BEGIN PRIVATE KEY-----/);
      assert.match(ca.poolCa.certificatePem, /^-----BEGIN CERTIFICATE-----/);
      assert.match(ca.poolCa.id, /^[0-9a-f]{32}$/);
    });
  }

  const p256 = opensslCa('/CN=p256-ca', 'ec-p256');
  const other = opensslCa('/CN=other-ca', 'ec-p256');
  // Upstream's loader (tls.X509KeyPair) refuses most of these first, naming the cert file whichever
  // file is at fault; its CA provider's own texts (naming the loader) come only after it.
  const refused: { name: string; cert: string; key: string; message: string }[] = [
    { name: 'a key for the certificate', cert: p256.keyPem, key: p256.keyPem,
      message: `error reading CA cert file "${CERT}": tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched` },
    { name: 'two certificates', cert: p256.certPem + other.certPem, key: p256.keyPem,
      message: `error reading CA cert file "${LOADER}": expected 1 certificate, found 2` },
    { name: 'a second certificate that does not parse (X509KeyPair parses the first only)', cert: p256.certPem + BAD_CERT, key: p256.keyPem,
      message: `error reading CA cert file "${LOADER}": x509: malformed tbs certificate` },
    { name: 'a certificate that does not parse', cert: BAD_CERT, key: p256.keyPem,
      message: `error reading CA cert file "${CERT}": x509: malformed tbs certificate` },
    { name: 'the certificate for the key', cert: p256.certPem, key: p256.certPem,
      message: `error reading CA cert file "${CERT}": tls: found a certificate rather than a key in the PEM for the private key` },
    { name: 'an X25519 key', cert: p256.certPem, key: opensslKeyX25519(),
      message: `error reading CA cert file "${CERT}": tls: found unknown private key type in PKCS#8 wrapping` },
    { name: 'a secp256k1 key (a curve Go does not parse)', cert: p256.certPem, key: opensslKey('ec-secp256k1'),
      message: `error reading CA cert file "${CERT}": tls: failed to parse private key` },
    { name: 'an Ed448 key', cert: p256.certPem, key: opensslKey('ed448'),
      message: `error reading CA cert file "${CERT}": tls: failed to parse private key` },
    { name: 'an encrypted PKCS#8 key', cert: p256.certPem, key: openssl(['pkcs8', '-topk8', '-passout', 'pass:secret'], { input: p256.keyPem }),
      message: `error reading CA cert file "${CERT}": tls: failed to parse private key` },
    { name: 'an encrypted SEC1 key (Proc-Type: 4,ENCRYPTED)', cert: p256.certPem, key: openssl(['ec', '-aes256', '-passout', 'pass:secret'], { input: p256.keyPem }),
      message: `error reading CA cert file "${CERT}": tls: failed to parse private key` },
    { name: 'another CA\'s key', cert: p256.certPem, key: other.keyPem,
      message: `error reading CA cert file "${CERT}": tls: private key does not match public key` },
    { name: 'a key block whose type keyutil does not read (tls takes any "… PRIVATE KEY")', cert: p256.certPem, key: relabel(p256.keyPem, 'OPENSSH PRIVATE KEY'),
      message: `error reading CA key file "${LOADER}": data does not contain a valid RSA or ECDSA private key` },
    { name: 'an X25519 key after one only tls reads', cert: p256.certPem, key: relabel(p256.keyPem, 'OPENSSH PRIVATE KEY') + opensslKeyX25519(),
      message: `error reading CA key file "${LOADER}": key did not implement crypto.Signer` },
  ];
  for (const c of refused) {
    it(`refuses ${c.name}`, () => assert.throws(() => parse(c.cert, c.key), { message: c.message }));
  }

  // A certificate that cannot sign certificates (crypto/x509's CheckSignatureFrom rule, which every
  // Go client applies): what it issues verifies nowhere. Upstream signs with it all the same, and so
  // does plat, but the pair carries a warning that the provider logs.
  const key = opensslKey('ec-p256');
  const notCa: { name: string; ext: string[]; warning: string }[] = [
    { name: 'a certificate with CA:FALSE (a serving certificate)', ext: ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature,keyEncipherment'],
      warning: `CA cert file "${CERT}": not a CA certificate (basic constraints CA:FALSE): certificates it signs will not verify` },
    { name: 'a v3 certificate without basic constraints', ext: ['keyUsage=critical,keyCertSign'],
      warning: `CA cert file "${CERT}": not a CA certificate (no basic constraints): certificates it signs will not verify` },
    { name: 'a CA whose key usage leaves out cert sign', ext: ['basicConstraints=critical,CA:TRUE', 'keyUsage=critical,digitalSignature,cRLSign'],
      warning: `CA cert file "${CERT}": the CA certificate's key usage does not include cert sign: certificates it signs will not verify` },
  ];
  for (const c of notCa) {
    it(`uses ${c.name}, with a warning`, () => assert.equal(parse(selfSigned(key, c.ext), key).warning, c.warning));
  }
  it('no warning for a CA without key usage, or a v1 certificate (no extensions), as Go and OpenSSL take them', () => {
    const ca = parse(selfSigned(key, ['basicConstraints=critical,CA:TRUE']), key);
    assert.equal(ca.certificate.isCA, true);
    assert.equal(ca.warning, undefined);
    const v1 = parse(v1Certificate(key), key);
    assert.equal(v1.certificate.version, 1);
    assert.equal(v1.warning, undefined);
  });

  it('skips CERTIFICATE blocks with headers, as ParseCertsPEM does (X509KeyPair checks the first block only, headers or not)', () => {
    const withHeaders = other.certPem.replace('-----BEGIN CERTIFICATE-----\n', '-----BEGIN CERTIFICATE-----\nComment: skipped\n\n');
    assert.equal(parse(p256.certPem + withHeaders, p256.keyPem).certificate.commonName, 'p256-ca');
    assert.throws(() => parse(withHeaders + p256.certPem, p256.keyPem), { message: `error reading CA cert file "${CERT}": tls: private key does not match public key` });
  });

  it('gives a changed pair a new id', () => {
    assert.notEqual(parse(p256.certPem, p256.keyPem).poolCa.id, parse(other.certPem, other.keyPem).poolCa.id);
  });
});

/** A self-signed certificate of `keyPem` with exactly the extensions `ext` (openssl -addext syntax). */
function selfSigned(keyPem: string, ext: string[]): string {
  const t = tempDir();
  try {
    const args = ['req', '-x509', '-new', '-key', t.write('key.pem', keyPem), '-subj', '/CN=signing-ca', '-days', '30'];
    for (const e of ext) args.push('-addext', e);
    return openssl([...args, '-config', t.write('empty.cnf', '[req]\ndistinguished_name=dn\n[dn]\n')]);
  } finally {
    t.cleanup();
  }
}

/** `openssl x509 -req` without extensions: a version 1 certificate. */
function v1Certificate(keyPem: string): string {
  const t = tempDir();
  try {
    const keyFile = t.write('key.pem', keyPem);
    const csr = t.write('req.csr', openssl(['req', '-new', '-key', keyFile, '-subj', '/CN=signing-ca', '-config', t.write('empty.cnf', '[req]\ndistinguished_name=dn\n[dn]\n')]));
    return openssl(['x509', '-req', '-in', csr, '-key', keyFile, '-days', '30']);
  } finally {
    t.cleanup();
  }
}

function opensslKeyX25519(): string {
  return openssl(['genpkey', '-algorithm', 'X25519']);
}
