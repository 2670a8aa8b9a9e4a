// A whole object sent as YAML (POST, PUT) is decoded as the YAML serializer's strict decode does:
// YAMLToJSONStrict on the body first, so a key repeated in one map is the first strict error
// (400 under Strict; under Warn a warning whose newline keeps it out of the headers, as upstream's), before unknown fields. Large
// bodies, parsed off the event loop, are checked the same. Real HTTPS, in-process `plat all`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const LEASES = '/apis/coordination.platform/v1/namespaces/default/leases';
const YAML = { 'content-type': 'application/yaml' };
const lease = (name: string, extra = '') =>
  `apiVersion: coordination.platform/v1\nkind: Lease\nmetadata:\n  name: ${name}\nspec:\n  holderIdentity: a\n  holderIdentity: b\n${extra}`;
const CANNOT = 'Lease in version "v1" cannot be handled as a Lease: strict decoding error: ';
const DUP = 'error converting YAML to JSON: yaml: unmarshal errors:\n  line 7: key "holderIdentity" already set in map';

describe('YAML object bodies: repeated keys', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('Strict: 400 with the repeat first, then unknown fields; nothing is stored', async () => {
    const r = await plat.admin.request('POST', `${LEASES}?fieldValidation=Strict`, lease('s1'), YAML);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.message, CANNOT + DUP);
    const both = await plat.admin.request('POST', `${LEASES}?fieldValidation=Strict`, lease('s1', '  bogus: 1\n'), YAML);
    assert.equal(both.status, 400, both.text);
    assert.equal(both.json.message, `${CANNOT}${DUP}, unknown field "spec.bogus"`);
    assert.equal((await plat.admin.get(`${LEASES}/s1`)).status, 404);
  });

  it('a body parsed off the event loop (past 8 KiB) is checked the same', async () => {
    const big = lease('s2', `  # ${'x'.repeat(10_000)}\n`);
    const r = await plat.admin.request('POST', `${LEASES}?fieldValidation=Strict`, big, YAML);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.message, CANNOT + DUP);
  });

  it('Warn (the default) and Ignore: stored with the last value', async () => {
    // Under Warn the error is recorded as a warning, but its text has a newline, which
    // NewWarningHeader refuses: upstream sends no header for it either.
    const r = await plat.admin.request('POST', LEASES, lease('w1', '  bogus: 1\n'), YAML);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.spec.holderIdentity, 'b');
    assert.equal(r.headers.warning, '299 - "unknown field \\"spec.bogus\\""');
    const withRv = lease('w1').replace('  name: w1\n', `  name: w1\n  resourceVersion: "${r.json.metadata.resourceVersion}"\n`);
    const put = await plat.admin.request('PUT', `${LEASES}/w1?fieldValidation=Ignore`, withRv, YAML);
    assert.equal(put.status, 200, put.text);
    assert.equal(put.headers.warning, undefined);
    const strictPut = await plat.admin.request('PUT', `${LEASES}/w1?fieldValidation=Strict`, lease('w1'), YAML);
    assert.equal(strictPut.status, 400, strictPut.text);
    assert.equal(strictPut.json.message, CANNOT + DUP);
  });
});
