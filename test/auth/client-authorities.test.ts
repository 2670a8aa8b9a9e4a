// The CAs named in the handshake's CertificateRequest: the union of the client-certificate
// bundles (--client-ca-file, --requestheader-client-ca-file, plugins'), each CA once where it first
// appears, as x509.CertPool.AddCert drops a certificate it already holds.
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import { describe, it } from 'node:test';
import { authoritiesPem, uniqueCertificatesPem } from '../../core/authn/client-authorities.js';
import { fixed } from '../../core/tls/changing.js';
import { makeCa } from '../helpers/certs.js';

const subjects = (pem: string) => (pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? []).map((b) => new X509Certificate(b).subject);

describe('client authorities', () => {
  const [a, b] = [makeCa({ commonName: 'a' }), makeCa({ commonName: 'b' })];
  const x = (c: typeof a) => ({ x509: new X509Certificate(c.certificatePem) });

  it('names a CA present in several bundles once, in first-seen order', () => {
    assert.deepEqual(subjects(authoritiesPem([fixed([x(a), x(b)]), fixed([x(b), x(a)])])), ['CN=a', 'CN=b']);
    assert.deepEqual(subjects(uniqueCertificatesPem([a.certificatePem + b.certificatePem, a.certificatePem])), ['CN=a', 'CN=b']);
    assert.equal(authoritiesPem([]), '');
  });
});
