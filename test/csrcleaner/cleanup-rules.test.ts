// The cleaner's rules as a table (k8s-behaviour §4.4): every case, both sides of every deadline,
// zero timestamps, unreadable certificates, and which reason wins when several hold.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Csr, CsrCondition } from '../../core/certificates/csr-object.js';
import { createCertificate, generateKeyPair } from '../../core/crypto/index.js';
import { cleanupReason } from '../../plugins/csrcleaner/index.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const MIN = 60_000;
const HOUR = 60 * MIN;

const key = generateKeyPair('ecdsa-p256');
const cert = (notAfter: Date, cn = 'leaf') => createCertificate({
  template: { subject: { commonName: cn }, notBefore: new Date(notAfter.getTime() - 48 * HOUR), notAfter },
  publicKey: key.keyObject, signer: key.keyObject,
}).certificatePem;
const VALID = cert(new Date(NOW.getTime() + HOUR));
const EXPIRED = cert(new Date(NOW.getTime() - MIN));
const b64 = (s: string) => Buffer.from(s).toString('base64');

const cond = (type: string, lastUpdateTime: string | null): CsrCondition => ({ type, status: 'True', reason: 'R', message: 'M', lastUpdateTime });
function csr(o: { created?: string | null; conditions?: CsrCondition[]; certificate?: string }): Csr {
  return {
    metadata: { name: 'x', creationTimestamp: o.created === undefined ? ago(30 * MIN) : o.created },
    spec: { request: '', signerName: 'example.com/s' },
    status: { ...(o.conditions ? { conditions: o.conditions } : {}), ...(o.certificate ? { certificate: b64(o.certificate) } : {}) },
  };
}

const APPROVED = 'Cleaning CSR as it is more than approvedExpiration duration old and approved.';
const DENIED = 'Cleaning CSR as it is more than deniedExpiration duration old and denied.';
const FAILED = 'Cleaning CSR as it is more than deniedExpiration duration old and failed.';
const PENDING = 'Cleaning CSR as it is more than pendingExpiration duration old and unhandled.';
const EXPIRED_MSG = 'Cleaning CSR as the associated certificate is expired.';

const cases: { name: string; csr: Csr; want: string | undefined }[] = [
  { name: 'pending 25h', csr: csr({ created: ago(25 * HOUR) }), want: PENDING },
  { name: 'pending 23h', csr: csr({ created: ago(23 * HOUR) }), want: undefined },
  { name: 'pending exactly 24h', csr: csr({ created: ago(24 * HOUR) }), want: undefined },
  { name: 'pending, zero creationTimestamp', csr: csr({ created: null }), want: undefined },
  { name: 'pending, Go zero time', csr: csr({ created: '0001-01-01T00:00:00Z' }), want: undefined },
  { name: 'denied 61m', csr: csr({ conditions: [cond('Denied', ago(61 * MIN))] }), want: DENIED },
  { name: 'denied 59m', csr: csr({ conditions: [cond('Denied', ago(59 * MIN))] }), want: undefined },
  { name: 'denied, zero lastUpdateTime, created 48h ago', csr: csr({ created: ago(48 * HOUR), conditions: [cond('Denied', null)] }), want: undefined },
  { name: 'denied, Go zero lastUpdateTime', csr: csr({ conditions: [cond('Denied', '0001-01-01T00:00:00Z')] }), want: undefined },
  { name: 'failed 2h', csr: csr({ conditions: [cond('Approved', ago(3 * HOUR)), cond('Failed', ago(2 * HOUR))] }), want: FAILED },
  { name: 'failed 30m', csr: csr({ conditions: [cond('Failed', ago(30 * MIN))] }), want: undefined },
  { name: 'issued, approved 2h ago', csr: csr({ conditions: [cond('Approved', ago(2 * HOUR))], certificate: VALID }), want: APPROVED },
  { name: 'issued, approved 30m ago', csr: csr({ conditions: [cond('Approved', ago(30 * MIN))], certificate: VALID }), want: undefined },
  { name: 'issued, approval time zero', csr: csr({ conditions: [cond('Approved', null)], certificate: VALID }), want: undefined },
  { name: 'approved, never issued, 48h', csr: csr({ created: ago(48 * HOUR), conditions: [cond('Approved', ago(48 * HOUR))] }), want: undefined },
  { name: 'issued and expired, approved 30m ago', csr: csr({ conditions: [cond('Approved', ago(30 * MIN))], certificate: EXPIRED }), want: EXPIRED_MSG },
  { name: 'issued and expired, zero approval time', csr: csr({ conditions: [cond('Approved', null)], certificate: EXPIRED }), want: EXPIRED_MSG },
  { name: 'first certificate expired, second valid', csr: csr({ conditions: [cond('Approved', ago(30 * MIN))], certificate: EXPIRED + VALID }), want: EXPIRED_MSG },
  { name: 'first certificate valid, second expired', csr: csr({ conditions: [cond('Approved', ago(30 * MIN))], certificate: VALID + EXPIRED }), want: undefined },
  { name: 'certificate not PEM', csr: csr({ conditions: [cond('Approved', ago(30 * MIN))], certificate: 'not a certificate' }), want: undefined },
  { name: 'PEM block that is not a certificate', csr: csr({ conditions: [cond('Approved', ago(30 * MIN))], certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' }), want: undefined },
  { name: 'expired certificate without Approved', csr: csr({ conditions: [cond('Failed', ago(30 * MIN))], certificate: EXPIRED }), want: undefined },
  { name: 'issued 2h and expired: the deadline is reported first', csr: csr({ conditions: [cond('Approved', ago(2 * HOUR))], certificate: EXPIRED }), want: APPROVED },
  { name: 'denied 2h and pending-old creation: denied', csr: csr({ created: ago(48 * HOUR), conditions: [cond('Denied', ago(2 * HOUR))] }), want: DENIED },
  { name: 'unknown condition type only, created 48h ago', csr: csr({ created: ago(48 * HOUR), conditions: [cond('Example', ago(48 * HOUR))] }), want: undefined },
];

describe('csrcleaner rules', () => {
  for (const c of cases) {
    it(c.name, () => {
      assert.equal(cleanupReason(c.csr, NOW)?.message, c.want);
    });
  }

  it('names the deadline it applied', () => {
    assert.deepEqual(cleanupReason(cases[0]!.csr, NOW)?.fields, { pendingExpiration: '24h0m0s' });
    assert.deepEqual(cleanupReason(cases[5]!.csr, NOW)?.fields, { deniedExpiration: '1h0m0s' });
    assert.deepEqual(cleanupReason(cases[11]!.csr, NOW)?.fields, { approvedExpiration: '1h0m0s' });
  });
});
