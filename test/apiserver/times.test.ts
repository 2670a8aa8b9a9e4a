// metav1.Time and metav1.MicroTime over HTTPS: a time is decoded with Go's time.Parse (a value it
// refuses is a 400 with Go's ParseError text) and kept as upstream writes it back: a Time in UTC
// at whole seconds, a MicroTime in UTC with six digits, whichever verb or subresource wrote it.
// The layouts' own cases are in test/api/go-time.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';

const LEASES = '/apis/coordination.platform/v1/namespaces/default/leases';
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const MICRO = '2006-01-02T15:04:05.000000Z07:00';

describe('times as upstream decodes and stores them', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('a Lease keeps a MicroTime in UTC with its microseconds', async () => {
    const r = await plat.admin.post(LEASES, { metadata: { name: 'micro' }, spec: { holderIdentity: 'a', renewTime: '2026-01-01T01:00:00.123456+02:00' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.spec.renewTime, '2025-12-31T23:00:00.123456Z');
    assert.equal((await plat.admin.get(`${LEASES}/micro`)).json.spec.renewTime, '2025-12-31T23:00:00.123456Z');
  });

  it('a MicroTime without exactly six digits is refused with time.Parse\'s words', async () => {
    const cases: Array<[string, string]> = [
      ['2026-01-01T00:00:00Z', 'cannot parse "Z" as ".000000"'],
      ['2026-01-01T00:00:00.5Z', 'cannot parse ".5Z" as ".000000"'],
      ['2026-01-01T00:00:00.123456789Z', 'cannot parse "789Z" as "Z07:00"'],
    ];
    for (const [value, cause] of cases) {
      const r = await plat.admin.post(LEASES, { metadata: { name: 'refused' }, spec: { acquireTime: value } });
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.reason, 'BadRequest');
      assert.equal(r.json.message, `Lease in version "v1" cannot be handled as a Lease: parsing time "${value}" as "${MICRO}": ${cause}`);
    }
  });

  it('every patch type stores the time it sets as upstream does', async () => {
    assert.equal((await plat.admin.post(LEASES, { metadata: { name: 'patched' }, spec: { holderIdentity: 'a' } })).status, 201);
    const patches: Array<[type: string, body: unknown, want: string]> = [
      ['application/merge-patch+json', { spec: { renewTime: '2026-01-01T01:00:00.000001+02:00' } }, '2025-12-31T23:00:00.000001Z'],
      ['application/json-patch+json', [{ op: 'replace', path: '/spec/renewTime', value: '2026-01-01T00:00:00,000002-01:00' }], '2026-01-01T01:00:00.000002Z'],
      ['application/strategic-merge-patch+json', { spec: { renewTime: '2026-01-01T01:00:00.000003+01:00' } }, '2026-01-01T00:00:00.000003Z'],
    ];
    for (const [type, body, want] of patches) {
      const r = await plat.admin.patch(`${LEASES}/patched`, JSON.stringify(body), type);
      assert.equal(r.status, 200, `${type}: ${r.text}`);
      assert.equal(r.json.spec.renewTime, want, type);
    }
    const applied = await plat.admin.patch(`${LEASES}/patched?fieldManager=t`,
      JSON.stringify({ apiVersion: 'coordination.platform/v1', kind: 'Lease', metadata: { name: 'patched' }, spec: { acquireTime: '2026-06-30T23:59:59.999999-00:30' } }),
      'application/apply-patch+yaml');
    assert.equal(applied.status, 200, applied.text);
    assert.equal(applied.json.spec.acquireTime, '2026-07-01T00:29:59.999999Z');
    // A patch that leaves a time Go cannot parse: the patch is the invalid field, as for any decode failure.
    const bad = await plat.admin.patch(`${LEASES}/patched`, JSON.stringify({ spec: { renewTime: '2026-01-01T00:00:00Z' } }), 'application/merge-patch+json');
    assert.equal(bad.status, 422, bad.text);
    assert.equal(bad.json.details.causes[0].field, 'patch');
    assert.ok(bad.json.details.causes[0].message.endsWith(`: parsing time "2026-01-01T00:00:00Z" as "${MICRO}": cannot parse "Z" as ".000000"`), bad.json.details.causes[0].message);
  });

  it('a CSR condition set through /approval keeps a Time in UTC at whole seconds', async () => {
    const fx = fixtures();
    assert.equal((await plat.admin.post(CSRS, baseCsr(fx, 'timed'))).status, 201);
    const csr = (await plat.admin.get(`${CSRS}/timed`)).json;
    csr.status = { conditions: [{ type: 'Approved', status: 'True', reason: 'Test', lastUpdateTime: '2026-01-01T01:00:00.5+02:00', lastTransitionTime: '2026-01-01T00:00:00.999-00:01' }] };
    const r = await plat.admin.put(`${CSRS}/timed/approval`, csr);
    assert.equal(r.status, 200, r.text);
    const [condition] = (await plat.admin.get(`${CSRS}/timed`)).json.status.conditions;
    assert.equal(condition.lastUpdateTime, '2025-12-31T23:00:00Z');
    assert.equal(condition.lastTransitionTime, '2026-01-01T00:01:00Z');
  });

  it('a Time Go refuses is a 400 naming what it could not parse', async () => {
    const r = await plat.admin.post(CSRS, { ...baseCsr(fixtures(), 'untimed'), status: { conditions: [{ type: 'Approved', status: 'True', lastUpdateTime: '2026-01-01T00:00:00+0200' }] } });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.message, 'CertificateSigningRequest in version "v1" cannot be handled as a CertificateSigningRequest: '
      + 'parsing time "2026-01-01T00:00:00+0200" as "2006-01-02T15:04:05Z07:00": cannot parse "+0200" as "Z07:00"');
  });
});
