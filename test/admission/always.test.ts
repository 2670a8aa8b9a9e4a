// AlwaysDeny and AlwaysAdmit over HTTPS. AlwaysDeny refuses every write in both phases with
// upstream's message (before validation, since it is mutating too); AlwaysAdmit changes nothing.
// Both warn that they are deprecated, as upstream does.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { fixtures } from '../certificates/fixtures.js';
import { assertForbidden, csrObject, csrPath, CSR_PATH, csrPem, startAdmissionPlat, withCondition, type AdmissionPlat } from './support.js';

const DENY = 'admission control is denying all modifications';
const SIGNER = 'example.com/my-signer';

describe('AlwaysDeny', () => {
  let a: AdmissionPlat;
  const fx = fixtures();
  before(async () => {
    a = await startAdmissionPlat({
      args: ['--enable-admission-plugins=AlwaysDeny'],
      // Objects to update and delete, created before AlwaysDeny is on.
      seed: async (plat) => {
        assert.equal((await plat.admin.post(CSR_PATH, csrObject('existing', SIGNER, fx.ecCsrPem))).status, 201);
      },
    });
  });
  after(async () => { await a?.stop(); });

  it('warns that it is deprecated', () => {
    assert.ok(a.logs.some((l) => l.startsWith('W') && l.includes('AlwaysDeny admission controller is deprecated. Please remove this controller from your configuration files and scripts.')), a.logs.join('\n'));
  });

  it('refuses a create with upstream\'s message', async () => {
    assertForbidden(await a.plat.admin.post(CSR_PATH, csrObject('new', SIGNER, fx.ecCsrPem)), 'new', DENY);
    assert.equal((await a.plat.admin.get(csrPath('new'))).status, 404);
  });

  it('names the generateName prefix, or Unknown when there is no name at all', async () => {
    assertForbidden(await a.plat.admin.post(CSR_PATH, csrObject('', SIGNER, fx.ecCsrPem, { generateName: 'csr-' })), 'csr-', DENY);
    const nameless = csrObject('', SIGNER, fx.ecCsrPem);
    nameless.metadata = {};
    assertForbidden(await a.plat.admin.post(CSR_PATH, nameless), 'Unknown', DENY);
  });

  it('refuses before validation: an invalid object gets 403, not 422', async () => {
    assertForbidden(await a.plat.admin.post(CSR_PATH, csrObject('invalid', SIGNER, fx.ecCsrPem, { usages: [] })), 'invalid', DENY);
  });

  it('refuses updates, subresource writes and deletes, but not reads', async () => {
    const existing = (await a.plat.admin.get(csrPath('existing'))).json;
    assert.equal(existing.metadata.name, 'existing');
    assertForbidden(await a.plat.admin.put(csrPath('existing'), { ...existing, metadata: { ...existing.metadata, labels: { a: 'b' } } }), 'existing', DENY);
    assertForbidden(await a.plat.admin.put(csrPath('existing', 'approval'), withCondition(existing, 'Approved')), 'existing', DENY);
    assertForbidden(await a.plat.admin.patch(csrPath('existing', 'status'), { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json'), 'existing', DENY);
    assertForbidden(await a.plat.admin.delete(csrPath('existing')), 'existing', DENY);
    assert.equal((await a.plat.admin.get(csrPath('existing'))).status, 200);
  });

  it('refuses writes of every resource', async () => {
    const r = await a.plat.admin.post('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' } });
    assert.equal(r.status, 403, r.text);
    assert.equal(r.json.message, `secrets "s" is forbidden: ${DENY}`);
    // Go's omitempty: a core-group resource's details have no group.
    assert.deepEqual(r.json.details, { name: 's', kind: 'secrets' });
  });
});

describe('AlwaysAdmit', () => {
  let a: AdmissionPlat;
  const fx = fixtures();
  before(async () => { a = await startAdmissionPlat({ args: ['--enable-admission-plugins=AlwaysAdmit'] }); });
  after(async () => { await a?.stop(); });

  it('warns that it is deprecated', () => {
    assert.ok(a.logs.some((l) => l.startsWith('W') && l.includes('AlwaysAdmit admission controller is deprecated. Please remove this controller from your configuration files and scripts.')), a.logs.join('\n'));
  });

  it('admits writes', async () => {
    assert.equal((await a.plat.admin.post(CSR_PATH, csrObject('admitted', SIGNER, fx.ecCsrPem))).status, 201);
  });

  it('does not override the other plugins\' refusals', async () => {
    const r = await a.plat.admin.post(CSR_PATH, csrObject('masters', 'platform/apiserver-client', csrPem('/O=system:masters/CN=eve')));
    assertForbidden(r, 'masters', 'use of platform/apiserver-client signer with system:masters group is not allowed');
  });
});
