// Parsed client certificates and their signature checks are remembered between requests; what a
// request is judged on must not change: validity at the request's own time, tampered bytes, the
// roots in force. The cache is an LRU bounded by its capacity and never keeps a failed parse.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { authenticateCertificateChain, parseCaBundle } from '../../core/authn/x509/index.js';
import { CertificateCache } from '../../core/authn/x509/certificate-cache.js';
import { CertificateParseError } from '../../core/authn/x509/certificate.js';
import { createPki, daysAfterIssue, type Pki } from './pki.js';

let pki: Pki;
before(() => { pki = createPki(); });
after(() => pki.cleanup());

describe('CertificateCache', () => {
  it('gives the same parse for the same bytes, whatever Buffer holds them', () => {
    const cache = new CertificateCache(4);
    const a = cache.parse(Buffer.from(pki.alice.der));
    assert.equal(cache.parse(Buffer.from(pki.alice.der)), a);
    assert.equal(a.commonName, 'alice');
    assert.notEqual(cache.parse(pki.bob.der), a);
    assert.equal(cache.size, 2);
  });

  it('drops the least recently used parse when full', () => {
    const cache = new CertificateCache(2);
    const alice = cache.parse(pki.alice.der);
    const bob = cache.parse(pki.bob.der);
    assert.equal(cache.parse(pki.alice.der), alice); // alice is now the most recent
    cache.parse(pki.root.der); // evicts bob
    assert.equal(cache.size, 2);
    assert.equal(cache.parse(pki.alice.der), alice);
    assert.notEqual(cache.parse(pki.bob.der), bob);
  });

  it('keeps no failed parse: the same bad bytes fail every time', () => {
    const cache = new CertificateCache(4);
    for (let i = 0; i < 2; i++) assert.throws(() => cache.parse(Buffer.from('not a certificate')), CertificateParseError);
    assert.equal(cache.size, 0);
  });
});

describe('authenticateCertificateChain with remembered parses and signatures', () => {
  const roots = () => parseCaBundle(pki.root.pem, 'root.pem');

  it('checks validity at each request\'s time: a certificate accepted before it expires is refused after', () => {
    const r = roots();
    const first = authenticateCertificateChain([pki.shortLived.der], r, daysAfterIssue(pki.shortLived, 0.5));
    assert.equal(first.result, 'user');
    const later = authenticateCertificateChain([pki.shortLived.der], r, daysAfterIssue(pki.shortLived, 30));
    assert.equal(later.result, 'reject');
    assert.match((later as { reason: string }).reason, /^x509: certificate has expired or is not yet valid/);
  });

  it('refuses a tampered copy every time, and still accepts the genuine certificate', () => {
    const r = roots();
    const now = daysAfterIssue(pki.alice, 10);
    const tampered = Buffer.from(pki.alice.der);
    tampered[tampered.length - 1] = tampered[tampered.length - 1]! ^ 0x01;
    for (let i = 0; i < 2; i++) {
      const out = authenticateCertificateChain([tampered], r, now);
      assert.equal(out.result, 'reject');
      assert.match((out as { reason: string }).reason, /^x509: certificate signed by unknown authority/);
    }
    assert.equal(authenticateCertificateChain([pki.alice.der], r, now).result, 'user');
  });

  it('judges the same certificate against the roots given: a foreign root does not vouch for it', () => {
    const now = daysAfterIssue(pki.alice, 10);
    assert.equal(authenticateCertificateChain([pki.alice.der], roots(), now).result, 'user');
    const foreign = parseCaBundle(pki.foreignRoot.pem, 'foreign.pem');
    assert.equal(authenticateCertificateChain([pki.alice.der], foreign, now).result, 'reject');
  });
});
