// Field selectors on the kinds that register no field-label conversion upstream (rbac/v1,
// coordination/v1 Lease, core/v1 ServiceAccount): runtime.DefaultMetaV1FieldSelectorConversion
// takes metadata.name and metadata.namespace, the latter on cluster-scoped kinds too, where an
// object's namespace is "" (so `=` matches everything, any other value nothing), and refuses the
// rest with its own message. Kinds with a conversion keep theirs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const RBAC = '/apis/rbac.authorization.platform/v1';
const NOT_KNOWN = (label: string) => `"${label}" is not a known field selector: only "metadata.name", "metadata.namespace"`;

describe('field selectors of kinds without a field-label conversion', () => {
  let plat: RunningPlat;
  before(async () => {
    plat = await startInProcess();
    const create = async (p: string, body: unknown) => {
      const r = await plat.admin.post(p, body);
      assert.equal(r.status, 201, `POST ${p}: ${r.text}`);
    };
    const ref = { apiGroup: 'rbac.authorization.platform', kind: 'ClusterRole', name: 'fs' };
    await create(`${RBAC}/clusterroles`, { apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRole', metadata: { name: 'fs' }, rules: [] });
    await create(`${RBAC}/clusterrolebindings`, { apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRoleBinding', metadata: { name: 'fs' }, roleRef: ref });
    await create(`${RBAC}/namespaces/default/roles`, { apiVersion: 'rbac.authorization.platform/v1', kind: 'Role', metadata: { name: 'fs' } });
    await create(`${RBAC}/namespaces/default/rolebindings`, { apiVersion: 'rbac.authorization.platform/v1', kind: 'RoleBinding', metadata: { name: 'fs' }, roleRef: ref });
    await create('/apis/coordination.platform/v1/namespaces/default/leases', { apiVersion: 'coordination.platform/v1', kind: 'Lease', metadata: { name: 'fs' } });
    await create('/api/v1/namespaces/default/serviceaccounts', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'fs' } });
  });
  after(async () => { await plat?.stop(); });

  const names = async (p: string, selector: string): Promise<string[]> => {
    const r = await plat.admin.get(`${p}?fieldSelector=${encodeURIComponent(selector)}`);
    assert.equal(r.status, 200, r.text);
    return r.json.items.map((i: any) => i.metadata.name);
  };
  const refused = async (p: string, selector: string): Promise<string> => {
    const r = await plat.admin.get(`${p}?fieldSelector=${encodeURIComponent(selector)}`);
    assert.equal(r.status, 400, r.text);
    return r.json.message;
  };

  // [collection, namespace the object is in ("" for cluster-scoped), the other field it is refused on]
  const kinds: [string, string, string][] = [
    [`${RBAC}/clusterroles`, '', 'rules'],
    [`${RBAC}/clusterrolebindings`, '', 'roleRef.name'],
    [`${RBAC}/namespaces/default/roles`, 'default', 'rules'],
    [`${RBAC}/namespaces/default/rolebindings`, 'default', 'roleRef.name'],
    ['/apis/coordination.platform/v1/namespaces/default/leases', 'default', 'spec.holderIdentity'],
    ['/api/v1/namespaces/default/serviceaccounts', 'default', 'secrets'],
  ];
  for (const [p, ns, other] of kinds) {
    it(p, async () => {
      assert.deepEqual(await names(p, 'metadata.name=fs'), ['fs']);
      assert.deepEqual(await names(p, `metadata.name=fs,metadata.namespace=${ns}`), ['fs'], 'the object\'s own namespace');
      assert.deepEqual(await names(p, 'metadata.name=fs,metadata.namespace=elsewhere'), []);
      assert.deepEqual(await names(p, 'metadata.name=fs,metadata.namespace!=elsewhere'), ['fs']);
      assert.equal(await refused(p, `${other}=x`), NOT_KNOWN(other));
      assert.equal(await refused(p, `metadata.name=fs,${other}!=x`), NOT_KNOWN(other));
    });
  }

  it('kinds with a conversion keep its message and labels', async () => {
    assert.equal(await refused('/api/v1/namespaces/default/secrets', 'data=x'), 'field label not supported: data');
    assert.equal(await refused('/api/v1/namespaces', 'metadata.namespace='), 'field label not supported: metadata.namespace');
    assert.equal(await refused('/apis/certificates.platform/v1/certificatesigningrequests', 'metadata.namespace='), 'field label not supported: metadata.namespace');
  });
});
