// Client certificates whose keys or signatures Go refuses and OpenSSL takes, against a real plat all
// over TLS on loopback (--client-ca-file). Go's RSA verifiers run checkPublicKey (odd modulus,
// 2 <= e <= 2^31-1, e odd) and, since Go 1.24, refuse keys under 1024 bits; crypto/x509 knows RSA-PSS
// only as SHA-256/384/512 with MGF1 of the same hash and a salt of the hash's length. OpenSSL checks
// none of that. With e = 1 a "signature" is the padded digest itself: a certificate carrying such a
// key (the CA signed it, say before its CSR signer checked keys) is anyone's to use, and an
// intermediate carrying one lets anyone mint leaves under it.
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { createCertificate } from '../../core/crypto/index.js';
import { authenticateCertificateChain } from '../../core/authn/x509/index.js';
import { parseCertificate } from '../../core/authn/x509/certificate.js';
import { makeCa, makeClientCert, type TestCredential } from '../helpers/certs.js';
import { openssl } from '../helpers/openssl.js';
import { platTrustingClientCa, seenAs as seenAsCert, selfReviewAs } from './self-review.js';
import { tempDir } from '../helpers/plat.js';

const DAY = 24 * 3600e3;

/** An RSA private key with e = d = 1: what anyone holding a certificate for an e = 1 key can sign with. */
function exponentOneKey(): { privateKey: KeyObject; publicKey: KeyObject } {
  const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
  const one = Buffer.from([1]).toString('base64url');
  const privateKey = createPrivateKey({ key: { ...jwk, e: one, d: one, dp: one, dq: one }, format: 'jwk' });
  return { privateKey, publicKey: createPublicKey(privateKey) };
}

function pem(key: KeyObject): string {
  return key.export({ type: 'pkcs8', format: 'pem' }) as string;
}

function leaf(issuer: TestCredential, commonName: string, publicKey: KeyObject): string {
  const now = Date.now();
  return createCertificate({
    template: {
      subject: { commonName, organizations: [] }, notBefore: new Date(now - 60_000), notAfter: new Date(now + DAY),
      keyUsage: ['digital signature', 'key encipherment'], extKeyUsage: ['client auth'],
    },
    publicKey, issuer: { certificatePem: issuer.certificatePem, privateKey: issuer.keyObject }, signer: issuer.keyObject,
  }).certificatePem;
}

describe('client certificates with keys or signatures Go refuses', () => {
  const dir = tempDir();
  const root = makeCa({ commonName: 'client-ca', keyType: 'rsa-2048' });
  const plat = platTrustingClientCa(root);

  // Security level 0: this client's OpenSSL would not present a 512-bit key or a SHA-1 chain.
  const seenAs = (certificatePem: string, keyPem: string) => seenAsCert(plat(), certificatePem, keyPem, { ciphers: 'DEFAULT@SECLEVEL=0' });

  it('authenticates a good certificate of the same CA', async () => {
    const good = makeClientCert(root, 'alice');
    assert.equal(await seenAs(good.certificatePem, good.privateKeyPem), 'alice');
  });

  it('keeps a leading U+FEFF in subject values, as Go does (O=\\uFEFFsystem:masters is not system:masters)', async () => {
    const bom = makeClientCert(root, '\uFEFFalice', ['\uFEFFsystem:masters']);
    const seen = (await selfReviewAs(plat(), bom.certificatePem, bom.privateKeyPem)).user!;
    assert.equal(seen.username, '\uFEFFalice');
    assert.deepEqual(seen.groups, ['\uFEFFsystem:masters', 'system:authenticated']);
  });

  it('refuses a leaf whose RSA key has e = 1 (its proof of possession is forgeable)', async () => {
    const key = exponentOneKey();
    assert.equal(await seenAs(leaf(root, 'forged-e1', key.publicKey), pem(key.privateKey)), 401);
  });

  it('refuses a leaf signed by an intermediate whose RSA key has e = 1', async () => {
    const key = exponentOneKey();
    const now = Date.now();
    const intermediatePem = createCertificate({
      template: {
        subject: { commonName: 'e1-intermediate' }, notBefore: new Date(now - 60_000), notAfter: new Date(now + DAY),
        isCA: true, keyUsage: ['digital signature', 'cert sign', 'crl sign'],
      },
      publicKey: key.publicKey, issuer: { certificatePem: root.certificatePem, privateKey: root.keyObject }, signer: root.keyObject,
    }).certificatePem;
    // Signed with d = 1: the signature is the padded digest, which anyone can write.
    const intermediate: TestCredential = { certificatePem: intermediatePem, privateKeyPem: pem(key.privateKey), keyObject: key.privateKey, der: new Uint8Array() };
    const mallory = makeClientCert(intermediate, 'mallory-under-e1');
    assert.equal(await seenAs(mallory.certificatePem + intermediatePem, mallory.privateKeyPem), 401);
  });

  it('refuses a leaf signed with RSA-PSS over SHA-1 (not a PSS profile Go knows)', async () => {
    const rootKey = path.join(dir, 'root.key');
    const rootCrt = path.join(dir, 'root.crt');
    writeFileSync(rootKey, root.privateKeyPem);
    writeFileSync(rootCrt, root.certificatePem);
    const leafKey = path.join(dir, 'pss.key');
    const csr = path.join(dir, 'pss.csr');
    const ext = path.join(dir, 'pss.ext');
    writeFileSync(ext, 'extendedKeyUsage = clientAuth\n');
    openssl(['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', leafKey, '-subj', '/CN=pss-sha1', '-out', csr]);
    const crt = openssl(['x509', '-req', '-in', csr, '-CA', rootCrt, '-CAkey', rootKey, '-set_serial', '7', '-days', '1', '-extfile', ext,
      '-sha1', '-sigopt', 'rsa_padding_mode:pss', '-sigopt', 'rsa_pss_saltlen:20']);
    assert.match(openssl(['x509', '-noout', '-text'], { input: crt }), /rsassaPss[\s\S]*Hash Algorithm: sha1/);
    assert.equal(await seenAs(crt, readFileSync(leafKey, 'utf8')), 401);
  });
});

// Keys under 1024 bits: plat's TLS server at its default security level drops such a leaf before
// any authenticator sees it (not so with --tls-min-version lowering it), so the verifier is asked
// directly; an intermediate's key is never seen by the TLS layer.
describe('RSA keys under 1024 bits in a presented chain', () => {
  const root = makeCa({ commonName: 'client-ca', keyType: 'rsa-2048' });
  const roots = [parseCertificate(Buffer.from(root.der))];
  const der = (p: string) => Buffer.from(p.replace(/-----[^-]+-----|\s/g, ''), 'base64');
  const weak = generateKeyPairSync('rsa', { modulusLength: 512 });

  it('refuses a 512-bit leaf as Go\'s CertificateVerify check does', () => {
    assert.deepEqual(authenticateCertificateChain([der(leaf(root, 'weak-512', weak.publicKey))], roots, new Date(), true), {
      result: 'reject',
      reason: 'tls: invalid signature by the client certificate: crypto/rsa: 512-bit keys are insecure (see https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_size)',
    });
  });

  it('refuses a leaf under an intermediate with a 512-bit key', () => {
    const now = Date.now();
    const intermediatePem = createCertificate({
      template: {
        subject: { commonName: 'weak-intermediate' }, notBefore: new Date(now - 60_000), notAfter: new Date(now + DAY),
        isCA: true, keyUsage: ['digital signature', 'cert sign', 'crl sign'],
      },
      publicKey: weak.publicKey, issuer: { certificatePem: root.certificatePem, privateKey: root.keyObject }, signer: root.keyObject,
    }).certificatePem;
    const intermediate: TestCredential = { certificatePem: intermediatePem, privateKeyPem: pem(weak.privateKey), keyObject: weak.privateKey, der: new Uint8Array() };
    const under = makeClientCert(intermediate, 'under-weak');
    const outcome = authenticateCertificateChain([der(under.certificatePem), der(intermediatePem)], roots, new Date());
    assert.deepEqual(outcome, {
      result: 'reject',
      reason: 'x509: certificate signed by unknown authority (possibly because of "crypto/rsa: 512-bit keys are insecure (see https://go.dev/pkg/crypto/rsa#hdr-Minimum_key_size)" while trying to verify candidate authority certificate "weak-intermediate")',
    });
  });
});

// Subject strings as Go's parseASN1String reads them: a BMPString is UCS-2, so surrogates (a pair
// would decode to one character outside the BMP) and noncharacters make the certificate unreadable.
describe('BMPString subject values', () => {
  const root = makeCa({ commonName: 'client-ca' });
  /** A client certificate whose CN "abcd" (PrintableString) is turned into a BMPString of the same 4 bytes. */
  const withBmpCn = (units: number[]): Buffer => {
    const der = Buffer.from(makeClientCert(root, 'abcd').der);
    const at = der.indexOf(Buffer.from([0x13, 0x04, ...Buffer.from('abcd')]));
    assert.ok(at > 0, 'the CN is where the test expects it');
    der[at] = 0x1e;
    units.forEach((u, i) => der.writeUInt16BE(u, at + 2 + 2 * i));
    return der;
  };

  it('reads plain UCS-2', () => {
    assert.equal(parseCertificate(withBmpCn([0x00e9, 0x4e2d])).commonName, '\u00e9\u4e2d');
  });

  for (const [what, units] of [['a surrogate pair', [0xd83d, 0xde00]], ['a lone surrogate', [0x0041, 0xdc00]], ['U+FFFE', [0xfffe, 0x0041]], ['U+FDD0', [0x0041, 0xfdd0]]] as const) {
    it(`refuses ${what}`, () => {
      assert.throws(() => parseCertificate(withBmpCn([...units])), { message: 'x509: malformed certificate: invalid BMPString' });
    });
  }
});
