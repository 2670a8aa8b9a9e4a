// A client certificate whose CN and O are T61Strings, against a real plat over TLS on loopback
// (--client-ca-file). Go 1.23's crypto/x509 reads a T61String as string(value), the bytes as they
// are, so T61 bytes "jos" C3 A9 are the user "josé" upstream, the same name a UTF8String CN gives
// and the same text plat's signer writes into certificates. Plat read them as Latin-1 ("josÃ©").
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { parseCertificate } from '../../core/authn/x509/certificate.js';
import { oid, seq, setOf, tlv } from '../../core/crypto/der-write.js';
import { makeCa, type TestCredential } from '../helpers/certs.js';
import { opensslSignCsr } from '../helpers/openssl.js';
import { platTrustingClientCa, selfReviewAs } from './self-review.js';
import { craftCsr } from '../crypto/csr-craft.js';

const CN = '2.5.4.3';
const O = '2.5.4.10';

const t61 = (b: number[]): Uint8Array => tlv(0x14, Uint8Array.from(b));
const ascii = (s: string): number[] => [...Buffer.from(s, 'ascii')];

/** A client certificate from `ca` whose subject is exactly `subject` (openssl copies the CSR's Name). */
function leafWithSubject(ca: TestCredential, subject: Uint8Array): { certificatePem: string; keyPem: string } {
  const key = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const keyPem = key.export({ type: 'pkcs8', format: 'pem' }) as string;
  const certificatePem = opensslSignCsr(ca, craftCsr({ key, subject }), ['keyUsage = critical, digitalSignature', 'extendedKeyUsage = clientAuth'], 9);
  return { certificatePem, keyPem };
}

describe('client certificates with T61String names (Go 1.23: the bytes, no character set)', () => {
  const root = makeCa({ commonName: 't61-client-ca' });
  const plat = platTrustingClientCa(root);

  const review = (certificatePem: string, keyPem: string) => selfReviewAs(plat(), certificatePem, keyPem);

  // [why, CN bytes, O bytes, the username, the group from O]
  const CASES: [string, number[], number[], string, string][] = [
    ['UTF-8 bytes in a T61String CN and O', [...ascii('jos'), 0xc3, 0xa9], [...ascii('dev-'), 0xe2, 0x9c, 0x93], 'jos\u00e9', 'dev-\u2713'],
    ['a node name', [...ascii('system:node:w'), 0xc3, 0xbc, ...ascii('rfel')], ascii('system:nodes'), 'system:node:w\u00fcrfel', 'system:nodes'],
    // Go keeps the raw byte E9, a name no UTF-8 username equals; plat's U+DCE9 keeps it that way (not "café").
    ['a byte that is not UTF-8', [...ascii('caf'), 0xe9], ascii('o'), 'caf\udce9', 'o'],
  ];

  for (const [why, cn, o, username, group] of CASES) {
    it(`${why}: authenticated as ${JSON.stringify(username)}`, async () => {
      const subject = seq(setOf(seq(oid(O), t61(o))), setOf(seq(oid(CN), t61(cn))));
      const leaf = leafWithSubject(root, subject);
      // The issued certificate still carries T61Strings (openssl copies the request's Name).
      const der = Buffer.from(leaf.certificatePem.replace(/-----[^-]+-----|\s/g, ''), 'base64');
      assert.ok(der.includes(Buffer.from(subject)), 'the subject is the T61 Name');
      assert.equal(parseCertificate(der).commonName, username);
      const r = await review(leaf.certificatePem, leaf.keyPem);
      assert.equal(r.status, 201);
      assert.equal(r.user?.username, username);
      assert.ok(r.user?.groups.includes(group), `groups ${JSON.stringify(r.user?.groups)}`);
    });
  }
});
