// Client certificates by what their subjectAltName holds, against a real plat all over TLS on
// loopback (--client-ca-file). Go's ParseCertificate parses the SAN (parseSANExtension): a
// malformed entry fails the parse and so crypto/tls's handshake, and a SAN naming no DNS name,
// email, IP or URI is left to the critical-extension check, so a critical one makes Verify fail
// with "x509: unhandled critical extension". Other GeneralName forms are skipped, so a
// non-critical otherName-only SAN is fine. The same parse refuses a subject or authority key
// identifier or authority info access marked critical. OpenSSL, which plat's TLS runs on, checks
// none of this.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { authenticateCertificateChain } from '../../core/authn/x509/index.js';
import { parseCertificate } from '../../core/authn/x509/certificate.js';
import { makeCa, type TestCredential } from '../helpers/certs.js';
import { openssl, opensslKey, opensslSignCsr, tempDir as opensslDir } from '../helpers/openssl.js';
import { platTrustingClientCa, seenAs as seenAsCert } from './self-review.js';

const UPN = '1.3.6.1.4.1.311.20.2.3';

/** A client certificate for CN=`cn` issued by `ca` with `san` as openssl's extension line, and its key. */
function leafWithSan(ca: TestCredential, cn: string, san: string): { certificatePem: string; keyPem: string; der: Buffer } {
  const keyPem = opensslKey('ec-p256');
  const t = opensslDir();
  try {
    const csrPem = openssl(['req', '-new', '-key', t.write('leaf.key', keyPem), '-subj', `/CN=${cn}`]);
    const certificatePem = opensslSignCsr(ca, csrPem, ['keyUsage = critical, digitalSignature, keyEncipherment', 'extendedKeyUsage = clientAuth', san], 7);
    return { certificatePem, keyPem, der: Buffer.from(certificatePem.replace(/-----[^-]+-----|\s/g, ''), 'base64') };
  } finally {
    t.cleanup();
  }
}

describe('client certificates and their subjectAltName (Go parses it, OpenSSL does not)', () => {
  const root = makeCa({ commonName: 'client-ca' });
  const plat = platTrustingClientCa(root);

  const seenAs = (certificatePem: string, keyPem: string) => seenAsCert(plat(), certificatePem, keyPem);

  // [why, the SAN line, the user (accepted) or 401, the reason authenticateCertificateChain gives]
  const unhandled = /^verifying certificate SN=7, SKID=[0-9A-F:]*, AKID=[0-9A-F:]* failed: x509: unhandled critical extension$/;
  const cases: [string, string, string | 401, string | RegExp | undefined][] = [
    ['a normal SAN', 'subjectAltName = DNS:alice.example, IP:10.0.0.1, email:alice@example.com', 'alice', undefined],
    ['a critical SAN with a DNS name', 'subjectAltName = critical, DNS:alice.example', 'alice', undefined],
    ['a non-critical otherName-only SAN (Go skips otherName)', `subjectAltName = otherName:${UPN};UTF8:alice@corp`, 'alice', undefined],
    ['a critical otherName-only SAN (unhandled critical extension)', `subjectAltName = critical, otherName:${UPN};UTF8:alice@corp`, 401, unhandled],
    ['a critical SAN of a directoryName only', 'subjectAltName = critical, dirName:dir\n[dir]\nCN = somewhere', 401, unhandled],
    // SEQUENCE { [7] 01 02 03 04 05 }: an iPAddress of five bytes.
    ['a 5-byte IP address', '2.5.29.17 = DER:300787050102030405', 401, 'x509: cannot parse IP address of length 5'],
    ['a dNSName that is not IA5', '2.5.29.17 = DER:30048202c3a9', 401, 'x509: SAN dNSName is malformed'],
    ['a SAN that is not a SEQUENCE', '2.5.29.17 = DER:0400', 401, 'x509: invalid subject alternative names'],
    // Not the SAN, but refused by the same parse: RFC 5280's never-critical extensions marked critical.
    ['a critical subjectKeyIdentifier', 'subjectKeyIdentifier = critical, hash', 401, 'x509: subject key identifier incorrectly marked critical'],
    ['a critical authorityKeyIdentifier', 'authorityKeyIdentifier = critical, keyid:always', 401, 'x509: authority key identifier incorrectly marked critical'],
    ['a critical authorityInfoAccess', 'authorityInfoAccess = critical, OCSP;URI:http://ocsp.example', 401, 'x509: authority info access incorrectly marked critical'],
    ['a non-critical authorityInfoAccess', 'authorityInfoAccess = OCSP;URI:http://ocsp.example', 'alice', undefined],
  ];

  for (const [why, san, want, reason] of cases) {
    it(`${want === 401 ? 'refuses' : 'accepts'} ${why}`, async () => {
      const leaf = leafWithSan(root, 'alice', san);
      assert.equal(await seenAs(leaf.certificatePem, leaf.keyPem), want);
      const judged = authenticateCertificateChain([leaf.der], [parseCertificate(Buffer.from(root.der))], new Date(), true);
      if (reason === undefined) assert.equal(judged.result, 'user', JSON.stringify(judged));
      else if (typeof reason === 'string') assert.deepEqual(judged, { result: 'reject', reason });
      else assert.match(judged.result === 'reject' ? judged.reason : JSON.stringify(judged), reason);
    });
  }
});
