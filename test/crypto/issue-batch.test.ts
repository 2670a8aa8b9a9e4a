// Batch issuing (issueCertificates, the WASM issueBatch entry point): mixed batches of P-256,
// Ed25519, RSA and P-384 CSRs under P-256 and Ed25519 CAs give, item by item, what
// issueCertificate gives (the same TBSCertificate for the same serial; the same DER wherever both
// signers are deterministic), and a bad request fails alone with issueCertificate's message.
import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync, X509Certificate, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { createCertificate, createCsr, CryptoError, issueCertificate, issueCertificates, parseCsr, type IssueBatchResult, type IssueResult } from '../../core/crypto/index.js';
import { wasmP256Sign } from '../../core/crypto/wasm/p256.js';
import { wasmAssembleCertificate } from '../../core/crypto/wasm/x509.js';

// Read back from PKCS#8: a JWK export of a key straight from generateKeyPairSync can deadlock Node 20
// (core/crypto/keys.ts).
const fresh = (k: KeyObject): KeyObject => createPrivateKey(k.export({ format: 'pem', type: 'pkcs8' }));
const keyOf = (type: string): KeyObject => {
  if (type === 'ed25519') return fresh(generateKeyPairSync('ed25519').privateKey);
  if (type === 'rsa') return fresh(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey);
  return fresh(generateKeyPairSync('ec', { namedCurve: type }).privateKey);
};

/** The DER TLV at `off`: [content start, end]. */
function tlv(der: Uint8Array, off: number): [number, number] {
  let len = der[off + 1]!;
  let p = off + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[p + i]!;
    p += n;
  }
  return [p, p + len];
}
const tbsOf = (der: Uint8Array): Uint8Array => {
  const [inner] = tlv(der, 0);
  return der.subarray(inner, tlv(der, inner)[1]);
};
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const rawKey = (k: KeyObject): Uint8Array => new Uint8Array(Buffer.from(k.export({ format: 'jwk' }).d!, 'base64url'));
const serialOf = (i: number): Uint8Array => {
  const s = new Uint8Array(16);
  s[0] = 0x40;
  s[14] = i >> 8;
  s[15] = (i & 0xff) | 1;
  return s;
};
const isCert = (r: IssueBatchResult): r is IssueResult => !('error' in r);

describe('issueCertificates', () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  const cas = ['P-256', 'ed25519', 'P-384'].map((type) => {
    const key = keyOf(type);
    const { certificatePem } = createCertificate({
      template: { subject: { commonName: `batch-ca-${type}` }, notBefore: new Date(now - 3600_000), notAfter: new Date(now + 86_400_000 * 365), isCA: true, keyUsage: ['cert sign', 'crl sign', 'digital signature'] },
      publicKey: key, signer: key,
    });
    return { type, key, certificatePem, x509: new X509Certificate(certificatePem), issuing: { certificatePem, privateKey: key } };
  });
  const pool: Record<string, KeyObject[]> = {
    'P-256': [0, 1, 2, 3].map(() => keyOf('P-256')),
    ed25519: [0, 1, 2].map(() => keyOf('ed25519')),
    rsa: [keyOf('rsa')],
    'P-384': [keyOf('P-384')],
  };
  const typeOf = (i: number): string => (i % 9 === 4 ? 'rsa' : i % 11 === 7 ? 'P-384' : i % 2 === 0 ? 'P-256' : 'ed25519');
  const csrs = (n: number, tag: string): Array<{ pem: string; type: string; cn: string; dns: string; ip: string }> =>
    Array.from({ length: n }, (_, i) => {
      const type = typeOf(i);
      const keys = pool[type]!;
      const cn = `system:node:${tag}-${i}`;
      const dns = `${tag}-${i}.example`;
      const ip = `10.1.${i % 256}.7`;
      const pem = createCsr({ subject: { commonName: cn, organizations: ['system:nodes'] }, dnsNames: [dns], ipAddresses: [ip], privateKey: keys[i % keys.length]! });
      return { pem, type, cn, dns, ip };
    });
  const policy = { usages: ['digital signature', 'key encipherment', 'client auth', 'server auth'], notBefore: new Date(now - 300_000), notAfter: new Date(now + 7200_000) };

  for (const caType of ['P-256', 'ed25519']) {
    for (const n of [1, 7, 64]) {
      it(`${n} mixed CSRs under a ${caType} CA: verified certificates, the single path's TBS`, () => {
        const ca = cas.find((c) => c.type === caType)!;
        const reqs = csrs(n, `b${n}${caType}`);
        const serials = reqs.map((_, i) => serialOf(i));
        // Mixed input types: strings and PEM bytes.
        const input = reqs.map((r, i) => (i % 3 === 2 ? new Uint8Array(Buffer.from(r.pem)) : r.pem));
        const out = issueCertificates(input, ca.issuing, policy, { serialNumbers: serials });
        assert.equal(out.length, n);
        out.forEach((r, i) => {
          const req = reqs[i]!;
          assert.ok(isCert(r), `item ${i}: ${'error' in r ? r.error.message : ''}`);
          const cert = new X509Certificate(r.certificatePem);
          assert.ok(cert.verify(ca.x509.publicKey), `item ${i} verifies under the ${caType} CA`);
          assert.ok(cert.checkIssued(ca.x509), `item ${i} issued by the CA`);
          assert.equal(cert.subject, `O=system:nodes\nCN=${req.cn}`);
          assert.equal(cert.subjectAltName, `DNS:${req.dns}, IP Address:${req.ip}`);
          assert.equal(Date.parse(cert.validFrom), policy.notBefore.getTime());
          assert.equal(Date.parse(cert.validTo), policy.notAfter.getTime());
          assert.equal(cert.ca, false);
          assert.deepEqual(cert.keyUsage, ['1.3.6.1.5.5.7.3.1', '1.3.6.1.5.5.7.3.2']);
          assert.equal(cert.serialNumber, hex(serials[i]!).toUpperCase());
          assert.equal(hex(new Uint8Array(cert.publicKey.export({ type: 'spki', format: 'der' }))), hex(parseCsr(req.pem).publicKey.spki));
          const inBatch = req.type === 'P-256' || req.type === 'ed25519';
          assert.equal(r.backend.sign, inBatch ? 'wasm' : (issueCertificate(req.pem, ca.issuing, policy).backend.sign), `item ${i} backend`);
          if (!inBatch) assert.equal(r.backend.verify, 'node:crypto');
          // Same content as issuing one by one with the same serial.
          const one = issueCertificate(req.pem, ca.issuing, policy, { serialNumber: serials[i]! });
          assert.equal(hex(tbsOf(r.der)), hex(tbsOf(one.der)), `item ${i}: TBS equal to the single path's`);
          if (caType === 'ed25519') {
            // Ed25519 is deterministic on both sides: the whole certificate is the same.
            assert.equal(hex(r.der), hex(one.der));
          } else if (inBatch) {
            // RFC 6979: the batch's P-256 signature is the single WASM signer's.
            const tbs = tbsOf(r.der);
            assert.equal(hex(r.der), hex(wasmAssembleCertificate(tbs, 'ecdsa-with-SHA256', wasmP256Sign(rawKey(ca.key), tbs))));
          }
        });
      });
    }
  }

  it('a bad request fails alone, with issueCertificate\'s message', () => {
    for (const ca of cas.slice(0, 2)) {
      const reqs = csrs(9, `bad-${ca.type}`).map((r) => r.pem);
      const tamper = (pem: string, at: number): string => {
        const der = new Uint8Array(parseCsr(pem).der);
        der[der.length - at]! ^= 0x40;
        return `-----BEGIN CERTIFICATE REQUEST-----\n${Buffer.from(der).toString('base64')}\n-----END CERTIFICATE REQUEST-----\n`;
      };
      const bad = new Map<number, string>([
        [1, tamper(reqs[1]!, 3)], // Ed25519 signature
        [2, tamper(reqs[2]!, 3)], // P-256 signature
        [3, reqs[3]!.replace(/CERTIFICATE REQUEST/g, 'CERTIFICATE')], // label
        [4, tamper(reqs[4]!, 3)], // RSA signature (fallback path)
        [6, `-----BEGIN CERTIFICATE REQUEST-----\nMAMCAQA=\n-----END CERTIFICATE REQUEST-----\n`], // structure
        [8, 'not a PEM at all'],
      ]);
      const input = reqs.map((r, i) => bad.get(i) ?? r);
      const out = issueCertificates(input, ca.issuing, policy);
      out.forEach((r, i) => {
        if (!bad.has(i)) {
          assert.ok(isCert(r), `item ${i} unaffected`);
          assert.ok(new X509Certificate(r.certificatePem).verify(ca.x509.publicKey));
          return;
        }
        assert.ok('error' in r && r.error instanceof CryptoError, `item ${i} failed`);
        assert.throws(() => issueCertificate(input[i]!, ca.issuing, policy), (e: unknown) => e instanceof CryptoError && e.message === r.error.message,
          `item ${i}: same message as issueCertificate (${r.error.message})`);
      });
    }
  });

  it('policy and CA errors are the single path\'s, per item', () => {
    const ca = cas[0]!;
    const reqs = csrs(3, 'pol').map((r) => r.pem);
    for (const r of issueCertificates(reqs, ca.issuing, { ...policy, usages: ['bogus'] })) {
      assert.ok('error' in r && /unrecognized usage values/.test(r.error.message));
    }
    for (const r of issueCertificates(reqs, { certificatePem: ca.certificatePem, privateKey: cas[1]!.key }, policy)) {
      assert.ok('error' in r && /doesn't match parent's PublicKey/.test(r.error.message));
    }
  });

  it('a CA key the batch does not sign with (P-384) issues every item singly', () => {
    const ca = cas[2]!;
    const reqs = csrs(5, 'p384ca').map((r) => r.pem);
    const out = issueCertificates(reqs, ca.issuing, policy);
    for (const r of out) {
      assert.ok(isCert(r));
      assert.equal(r.backend.sign, 'node:crypto');
      assert.ok(new X509Certificate(r.certificatePem).verify(ca.x509.publicKey));
    }
  });

  it('an empty batch, and argument checks', () => {
    assert.deepEqual(issueCertificates([], cas[0]!.issuing, policy), []);
    assert.throws(() => issueCertificates(['x'], cas[0]!.issuing, policy, { serialNumbers: [] }), RangeError);
    assert.throws(() => issueCertificates(['x'], cas[0]!.issuing, policy, { serialNumbers: [new Uint8Array(8)] }), RangeError);
  });

  it('more than one module call (300 CSRs) keeps order and serials', () => {
    const ca = cas[0]!;
    const base = csrs(4, 'many').filter((r) => r.type === 'P-256' || r.type === 'ed25519').map((r) => r.pem);
    const reqs = Array.from({ length: 300 }, (_, i) => base[i % base.length]!);
    const serials = reqs.map((_, i) => serialOf(i));
    const out = issueCertificates(reqs, ca.issuing, policy, { serialNumbers: serials });
    out.forEach((r, i) => {
      assert.ok(isCert(r));
      assert.equal(new X509Certificate(r.der).serialNumber, hex(serials[i]!).toUpperCase());
    });
  });
});
