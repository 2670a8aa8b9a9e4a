// Chain verifications are remembered per presented chain array (one a keep-alive connection) and
// roots; what a request is judged on must not change: every answer equals the one a fresh
// verification at the request's own time and with the roots in force gives, reasons included.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { authenticateCertificateChain, parseCaBundle } from '../../core/authn/x509/index.js';
import type { Certificate } from '../../core/authn/x509/certificate.js';
import { VerifiedChains } from '../../core/authn/x509/verified-chains.js';
import { createPki, daysAfterIssue, type Pki } from './pki.js';

let pki: Pki;
before(() => { pki = createPki(); });
after(() => pki.cleanup());

const bundle = () => parseCaBundle(pki.root.pem + pki.intermediate.pem, 'bundle');

/** The answer with `cache` (the same chain array as every earlier call), checked against a fresh verification. */
function judged(cache: VerifiedChains, chain: readonly Buffer[], roots: readonly Certificate[], now: Date) {
  const answer = authenticateCertificateChain(chain, roots, now, true, cache);
  assert.deepEqual(answer, authenticateCertificateChain(chain, roots, now, true, null), `at ${now.toISOString()}`);
  return answer;
}
const reason = (a: ReturnType<typeof judged>) => (a.result === 'reject' ? a.reason : a.result);

describe('VerifiedChains with authenticateCertificateChain', () => {
  it('answers a remembered chain as a fresh verification does, at every time around its bounds', () => {
    const roots = bundle();
    const issued = [pki.alice, pki.bob, pki.shortLived, pki.underShortIntermediate, pki.noCn, pki.selfSigned, pki.deepLeaf, pki.foreign];
    const chains = [[pki.alice.der], [pki.bob.der], [pki.shortLived.der], [pki.underShortIntermediate.der, pki.shortIntermediate.der],
      [pki.noCn.der], [pki.selfSigned.der], [pki.deepLeaf.der, pki.deepIntermediate.der], [pki.foreign.der]];
    const cache = new VerifiedChains(16);
    let users = 0;
    // Back and forth in time on the same arrays, as an injected clock may go.
    for (const days of [0.5, -1, 0.5, 2, 0.5, 400, 10, 4000, 0.5]) {
      chains.forEach((chain, i) => { if (judged(cache, chain, roots, daysAfterIssue(issued[i]!, days)).result === 'user') users++; });
    }
    assert.ok(users > 10, `remembered answers were exercised (${users} users)`);
  });

  it('serves a success again from memory, and only for the same array and roots', () => {
    const roots = bundle();
    const cache = new VerifiedChains(16);
    const chain = [pki.bob.der, pki.intermediate.der];
    const now = daysAfterIssue(pki.bob, 10);
    assert.equal(judged(cache, chain, roots, now).result, 'user');
    assert.equal(cache.size, 1);
    assert.equal(judged(cache, chain, roots, now).result, 'user');
    assert.equal(cache.size, 1, 'the same connection\'s chain is one entry');
    // Another connection with the same certificate, and the same chain against other roots.
    judged(cache, [...chain], roots, now);
    assert.equal(cache.size, 2);
    assert.equal(judged(cache, chain, parseCaBundle(pki.foreignRoot.pem, 'foreign'), now).result, 'reject');
  });

  it('refuses a certificate that expires while remembered, with the fresh verification\'s reason', () => {
    const roots = bundle();
    const cache = new VerifiedChains(16);
    const chain = [pki.shortLived.der];
    assert.equal(judged(cache, chain, roots, daysAfterIssue(pki.shortLived, 0.5)).result, 'user');
    assert.match(reason(judged(cache, chain, roots, daysAfterIssue(pki.shortLived, 1.5))), /failed: x509: certificate has expired or is not yet valid: current time \S+ is after /);
    // And an intermediate expiring under a leaf that is still valid.
    const under = [pki.underShortIntermediate.der, pki.shortIntermediate.der];
    assert.equal(judged(cache, under, roots, daysAfterIssue(pki.shortIntermediate, 0.5)).result, 'user');
    assert.match(reason(judged(cache, under, roots, daysAfterIssue(pki.shortIntermediate, 1.5))), /x509: certificate signed by unknown authority|has expired/);
    assert.match(reason(judged(cache, under, roots, daysAfterIssue(pki.shortIntermediate, -0.5))), /is before /);
  });

  it('verifies against the new roots once a bundle is reloaded (a new array)', () => {
    const cache = new VerifiedChains(16);
    const chain = [pki.alice.der];
    const now = daysAfterIssue(pki.alice, 10);
    assert.equal(judged(cache, chain, bundle(), now).result, 'user');
    const reloaded = parseCaBundle(pki.intermediate.pem, 'root taken out');
    assert.match(reason(judged(cache, chain, reloaded, now)), /failed: x509: certificate signed by unknown authority$/);
  });

  it('does not serve a chain whose bytes were changed in place', () => {
    const roots = bundle();
    const cache = new VerifiedChains(16);
    const bytes = Buffer.from(pki.alice.der);
    const chain = [bytes];
    const now = daysAfterIssue(pki.alice, 10);
    assert.equal(judged(cache, chain, roots, now).result, 'user');
    bytes[bytes.length - 1]! ^= 0x01;
    assert.match(reason(judged(cache, chain, roots, now)), /x509: certificate signed by unknown authority/);
  });

  it('keeps a failure whose text cannot name the time, and gives it again word for word', () => {
    const roots = bundle();
    const cache = new VerifiedChains(16);
    const now = daysAfterIssue(pki.alice, 10);
    const chains = [[pki.foreign.der], [pki.underNotCa.der, pki.notCa.der], [pki.serverOnly.der], [pki.unknownCritical.der]];
    for (let i = 0; i < 2; i++) {
      for (const chain of chains) assert.equal(judged(cache, chain, roots, now).result, 'reject');
    }
    for (const chain of chains) assert.equal(cache.lookup(chain, roots, now.getTime())?.error !== undefined, true, 'the failure is kept');
    // The request-header authenticator's bare text from the same verdict.
    assert.equal(reason(authenticateCertificateChain(chains[0]!, roots, now, false, cache)), 'x509: certificate signed by unknown authority');
  });

  it('keeps no failure whose text names the request\'s time', () => {
    const roots = bundle();
    const cache = new VerifiedChains(16);
    const expired = [pki.shortLived.der];
    const under = [pki.underShortIntermediate.der, pki.shortIntermediate.der];
    for (let i = 0; i < 2; i++) {
      assert.match(reason(judged(cache, expired, roots, daysAfterIssue(pki.shortLived, 30 + i))), /is after /);
      assert.match(reason(judged(cache, under, roots, daysAfterIssue(pki.shortIntermediate, 30 + i))), /expired or is not yet valid/);
    }
    assert.equal(cache.size, 0);
  });

  it('keeps a chain\'s verdicts for each roots it is tried against (request-header CA, then client CA)', () => {
    const clientCa = bundle();
    const frontProxyCa = parseCaBundle(pki.foreignRoot.pem, 'front-proxy');
    const cache = new VerifiedChains(16);
    const chain = [pki.alice.der];
    const now = daysAfterIssue(pki.alice, 10);
    for (let i = 0; i < 2; i++) {
      assert.equal(judged(cache, chain, frontProxyCa, now).result, 'reject');
      assert.equal(judged(cache, chain, clientCa, now).result, 'user');
    }
    assert.equal(cache.size, 1);
    assert.match(cache.lookup(chain, frontProxyCa, now.getTime())?.error ?? '', /unknown authority/);
    assert.equal(cache.lookup(chain, clientCa, now.getTime())?.error, undefined);
    assert.ok(cache.lookup(chain, clientCa, now.getTime()));
  });

  it('stays within its capacity however many distinct chains succeed, dropping the least recently used', () => {
    const roots = bundle();
    const cache = new VerifiedChains(4);
    const now = daysAfterIssue(pki.alice, 10);
    const first = [pki.alice.der];
    judged(cache, first, roots, now);
    for (let i = 0; i < 200; i++) {
      judged(cache, [pki.alice.der], roots, now);
      if (i < 2) judged(cache, first, roots, now); // still among the recent ones
      assert.ok(cache.size <= 4, `size ${cache.size} after ${i + 1} connections`);
    }
    assert.equal(cache.size, 4);
    const sizeBefore = cache.size;
    assert.equal(cache.lookup(first, roots, now.getTime()), undefined, 'the oldest entry was dropped');
    assert.equal(cache.size, sizeBefore);
    // And a chain's verdicts for many roots arrays (reloads): only the most recent few.
    const chain = [pki.alice.der];
    const reloads = Array.from({ length: 10 }, () => bundle());
    for (const r of reloads) judged(cache, chain, r, now);
    assert.deepEqual(reloads.map((r) => cache.lookup(chain, r, now.getTime()) !== undefined), [...Array(6).fill(false), ...Array(4).fill(true)]);
  });
});
