// CreateOptions, UpdateOptions and PatchOptions from the query, over real HTTPS: every problem in
// one 422 in ValidatePatchOptions' order (force or the apply fieldManager, ValidateFieldManager,
// dryRun, fieldValidation), after the patch media type (415) and before the body is decoded.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const LEASES = '/apis/coordination.platform/v1/namespaces/default/leases';
const MERGE = 'application/merge-patch+json';
const APPLY = 'application/apply-patch+yaml';
const LONG = 'm'.repeat(130);
const TOO_LONG = { reason: 'FieldValueTooLong', message: 'Too long: may not be more than 128 bytes', field: 'fieldManager' };
const BEL = { reason: 'FieldValueInvalid', message: 'Invalid value: "a\\ab": invalid character U+0007 (at position 1)', field: 'fieldManager' };

describe('write options from the query', () => {
  let plat: RunningPlat;
  before(async () => {
    plat = await startInProcess();
    const r = await plat.admin.post(LEASES, { metadata: { name: 'o1' }, spec: { holderIdentity: 'a' } });
    assert.equal(r.status, 201, r.text);
  });
  after(async () => { await plat?.stop(); });

  const cases: Array<{ name: string; method: string; path: string; type?: string; body: string; kind: string; causes: object[] }> = [
    { name: 'force on a merge patch is forbidden, whatever its value', method: 'PATCH', path: `${LEASES}/o1?force=false`, type: MERGE, body: '{}', kind: 'PatchOptions',
      causes: [{ reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch', field: 'force' }] },
    { name: 'apply without a fieldManager, empty body', method: 'PATCH', path: `${LEASES}/o1`, type: APPLY, body: '', kind: 'PatchOptions',
      causes: [{ reason: 'FieldValueRequired', message: 'Required value: is required for apply patch', field: 'fieldManager' }] },
    { name: 'every problem at once, in order', method: 'PATCH', path: `${LEASES}/o1?dryRun=Some&fieldValidation=Loud&force=true&fieldManager=${LONG}`, type: MERGE, body: '{}', kind: 'PatchOptions',
      causes: [
        { reason: 'FieldValueForbidden', message: 'Forbidden: may not be specified for non-apply patch', field: 'force' },
        TOO_LONG,
        { reason: 'FieldValueNotSupported', message: 'Unsupported value: ["Some"]: supported values: "All"', field: 'dryRun' },
        { reason: 'FieldValueNotSupported', message: 'Unsupported value: "Loud": supported values: "", "Ignore", "Strict", "Warn"', field: 'fieldValidation' },
      ] },
    { name: 'apply: a non-printable fieldManager', method: 'PATCH', path: `${LEASES}/o1?fieldManager=a%07b`, type: APPLY, body: '{}', kind: 'PatchOptions', causes: [BEL] },
    { name: 'create: a long fieldManager', method: 'POST', path: `${LEASES}?fieldManager=${LONG}`, body: '{"metadata":{"name":"o2"}}', kind: 'CreateOptions', causes: [TOO_LONG] },
    { name: 'update: a non-printable fieldManager and a bad dryRun', method: 'PUT', path: `${LEASES}/o1?fieldManager=a%07b&dryRun=x`, body: '{"metadata":{"name":"o1"}}', kind: 'UpdateOptions',
      causes: [BEL, { reason: 'FieldValueNotSupported', message: 'Unsupported value: ["x"]: supported values: "All"', field: 'dryRun' }] },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await plat.admin.request(c.method, c.path, c.body, { 'content-type': c.type ?? 'application/json' });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.json.reason, 'Invalid');
      assert.deepEqual(r.json.details, { group: 'meta.k8s.io', kind: c.kind, causes: c.causes });
      const body = c.causes.map((e) => `${(e as { field: string }).field}: ${(e as { message: string }).message}`);
      assert.equal(r.json.message, `${c.kind}.meta.k8s.io "" is invalid: ${body.length === 1 ? body[0] : `[${body.join(', ')}]`}`);
    });
  }

  it('an unknown patch media type is a 415 before the options, with no details', async () => {
    const r = await plat.admin.request('PATCH', `${LEASES}/o1?dryRun=Some`, '{}', { 'content-type': 'text/plain' });
    assert.equal(r.status, 415, r.text);
    assert.equal(r.json.reason, 'UnsupportedMediaType');
    assert.equal(r.json.details, undefined);
  });

  it('a printable fieldManager of 128 bytes is accepted', async () => {
    const r = await plat.admin.request('PATCH', `${LEASES}/o1?fieldManager=${'é'.repeat(64)}`, '{"spec":{"holderIdentity":"b"}}', { 'content-type': MERGE });
    assert.equal(r.status, 200, r.text);
  });
});
