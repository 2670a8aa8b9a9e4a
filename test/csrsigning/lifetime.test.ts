// The cluster CA's lifetime rules (k8s-behaviour §4.3 "Certificate lifetime" and the
// PermissiveSigningPolicy table) and the client-certificate usage rule (with the ML-DSA usage
// rule for ML-DSA keys), as tables.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createCsr, generateKeyPair, parseCsr } from '../../core/crypto/index.js';
import { certificateTtl, goTime, LEGACY_UNKNOWN_SIGNER, validApiServerClientUsages, validityWindow, type CaProvider } from '../../plugins/csrsigning/index.js';
import { caSigner } from '../../plugins/csrsigning/ca-signer.js';
import { fixtures } from '../certificates/fixtures.js';
import { craftMlDsaCsr, mlDsaKeys } from '../crypto/csr-craft.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const YEAR = 8760 * HOUR;
const NOW = new Date('2026-03-01T12:00:00.750Z');
const T = Date.parse('2026-03-01T12:00:00Z'); // NOW to whole seconds

describe('certificate lifetime', () => {
  const ttls: [max: number, expirationSeconds: number | undefined, ttl: number][] = [
    [YEAR, undefined, YEAR],
    [YEAR, 600, 10 * MIN],
    [YEAR, 3600, HOUR],
    [YEAR, 86400, 24 * HOUR],
    [24 * HOUR, 48 * 3600, 24 * HOUR], // above the maximum: the maximum
    [YEAR, 60, 10 * MIN], // below 10 minutes (validation forbids it): 10 minutes
    [5 * MIN, undefined, 5 * MIN], // the maximum is used as given
    [5 * MIN, 600, 5 * MIN],
  ];
  for (const [max, exp, ttl] of ttls) {
    it(`max ${max / MIN}m, expirationSeconds ${exp}: ${ttl / MIN}m`, () => assert.equal(certificateTtl(max, exp), ttl));
  }

  const farCa = new Date(T + 2 * YEAR);
  const windows: { name: string; ttl: number; ca: Date; notBefore: number; notAfter: number }[] = [
    { name: 'default (1 year): notAfter = now + 8760h - 5m', ttl: YEAR, ca: farCa, notBefore: T - 5 * MIN, notAfter: T + YEAR - 5 * MIN },
    { name: '600 s: notAfter = now + 10m, 15 minutes in all', ttl: 10 * MIN, ca: farCa, notBefore: T - 5 * MIN, notAfter: T + 10 * MIN },
    { name: '24 h: notAfter = now + 24h - 5m', ttl: 24 * HOUR, ca: farCa, notBefore: T - 5 * MIN, notAfter: T + 24 * HOUR - 5 * MIN },
    { name: 'just under 8 h is short', ttl: 8 * HOUR - 1000, ca: farCa, notBefore: T - 5 * MIN, notAfter: T + 8 * HOUR - 1000 },
    { name: '8 h is long', ttl: 8 * HOUR, ca: farCa, notBefore: T - 5 * MIN, notAfter: T + 8 * HOUR - 5 * MIN },
    { name: 'clamped to the CA\'s notAfter', ttl: 24 * HOUR, ca: new Date(T + HOUR), notBefore: T - 5 * MIN, notAfter: T + HOUR },
    { name: 'a CA ending between notBefore and now still signs (notAfter = the CA\'s)', ttl: HOUR, ca: new Date(T + 1000), notBefore: T - 5 * MIN, notAfter: T + 1000 },
  ];
  for (const w of windows) {
    it(w.name, () => {
      const got = validityWindow(NOW, w.ttl, w.ca);
      assert.deepEqual([got.notBefore.toISOString(), got.notAfter.toISOString()], [new Date(w.notBefore).toISOString(), new Date(w.notAfter).toISOString()]);
    });
  }

  it('refuses to sign under a CA that expired before notBefore', () => {
    const ca = new Date(T - 5 * MIN);
    assert.throws(() => validityWindow(NOW, HOUR, ca), { message: 'the signer has expired: NotAfter=2026-03-01 11:55:00 +0000 UTC' });
  });
  it('refuses to sign under a CA that expired between notBefore and now', () => {
    const ca = new Date(T - MIN);
    assert.throws(() => validityWindow(NOW, HOUR, ca), { message: 'refusing to sign a certificate that expired in the past: NotAfter=2026-03-01 11:59:00 +0000 UTC' });
  });
  it('checks the usages before the window, as PermissiveSigningPolicy.apply: unknown usages under an expired CA', async () => {
    const expired = { certificate: { notAfter: new Date(T - HOUR) }, poolCa: undefined };
    const sign = caSigner({
      signer: LEGACY_UNKNOWN_SIGNER, provider: () => ({ current: () => expired }) as unknown as CaProvider, maxTtlMs: YEAR,
      pool: () => { throw new Error('no certificate is issued'); },
    });
    const req = (usages: string[]) => ({
      signerName: LEGACY_UNKNOWN_SIGNER, csr: { metadata: { name: 'legacy' } }, requestPem: fixtures().ecCsrPem,
      usages, now: NOW, signal: new AbortController().signal,
    });
    await assert.rejects(sign(req(['digital signature', 'foo', 'bar'])), { message: 'unrecognized usage values: ["foo" "bar"]' });
    await assert.rejects(sign(req(['digital signature'])), { message: 'the signer has expired: NotAfter=2026-03-01 11:00:00 +0000 UTC' });
  });
  it('prints times as Go\'s %v does', () => {
    assert.equal(goTime(new Date('2027-01-02T03:04:05Z')), '2027-01-02 03:04:05 +0000 UTC');
    assert.equal(goTime(new Date('2027-01-02T03:04:05.120Z')), '2027-01-02 03:04:05.12 +0000 UTC');
  });
});

describe('apiserver-client usages', () => {
  const ecCsr = parseCsr(createCsr({ subject: { commonName: 'alice' }, privateKey: generateKeyPair('ecdsa-p256').keyObject }));
  const cases: [usages: string[], problem: string | undefined][] = [
    [['client auth'], undefined],
    [['digital signature', 'key encipherment', 'client auth'], undefined],
    [['client auth', 'client auth', 'digital signature'], undefined],
    [['digital signature', 'key encipherment'], 'missing required usage for client certificate: client auth'],
    [[], 'missing required usage for client certificate: client auth'],
    [['client auth', 'server auth'], 'invalid usage for client certificate: server auth'],
    [['signing', 'client auth'], 'invalid usage for client certificate: signing'],
    [['cert sign'], 'invalid usage for client certificate: cert sign'], // the first bad usage, before the missing one
  ];
  for (const [usages, problem] of cases) {
    it(`[${usages.join(', ')}]: ${problem ?? 'accepted'}`, () => assert.equal(validApiServerClientUsages(ecCsr, usages), problem));
  }

  // signer.go: the client rules first, then ValidateMLDSAKeyUsages for an ML-DSA key.
  const mlDsaCsr = parseCsr(craftMlDsaCsr({ keys: mlDsaKeys('ML-DSA-65') }));
  const SIGNING = 'usages must contain at least one of [cert sign content commitment crl sign digital signature]';
  const KE = 'usage key encipherment cannot be used with an ML-DSA signed certificate request';
  const mlDsaCases: [usages: string[], problem: string | undefined][] = [
    [['digital signature', 'client auth'], undefined],
    [['client auth'], `validating usages for ml-dsa key: ${SIGNING}`],
    [['digital signature', 'key encipherment', 'client auth'], `validating usages for ml-dsa key: ${KE}`],
    [['key encipherment', 'client auth'], `validating usages for ml-dsa key: ${KE}\n${SIGNING}`],
    [['client auth', 'server auth'], 'invalid usage for client certificate: server auth'], // the client rules come first
    [['digital signature'], 'missing required usage for client certificate: client auth'],
  ];
  for (const [usages, problem] of mlDsaCases) {
    it(`ML-DSA key, [${usages.join(', ')}]: ${problem ?? 'accepted'}`, () => assert.equal(validApiServerClientUsages(mlDsaCsr, usages), problem));
  }
});
