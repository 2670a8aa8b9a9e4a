// Who may write and read events.platform/v1 Events under the default roles, as upstream's policy.go:
// the controllers' eventsRule() is create/update/patch on `events` in both the core group and
// events.k8s.io; `view` (and so edit, admin) reads the core group's only; system:node writes the
// core group's only. Asked of the authorizers (SubjectAccessReview) and by real requests
// (impersonated), since the two groups are separate RBAC resources over one storage.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { v1Event } from './events-v1-support.js';

const V1 = '/apis/events.platform/v1/namespaces/default/events';
const CORE = '/api/v1/namespaces/default/events';
const SA_GROUPS = ['system:serviceaccounts', 'system:serviceaccounts:plat-system', 'system:authenticated'];

describe('events.platform/v1 Events under the default roles', () => {
  let plat: RunningPlat;
  before(async () => {
    plat = await startInProcess({ args: ['--authorization-mode=Node,RBAC'] });
    const rb = await plat.admin.post('/apis/rbac.authorization.platform/v1/namespaces/default/rolebindings', {
      apiVersion: 'rbac.authorization.platform/v1', kind: 'RoleBinding', metadata: { name: 'viewer' },
      roleRef: { apiGroup: 'rbac.authorization.platform', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.platform', name: 'viewer' }],
    });
    assert.equal(rb.status, 201, rb.text);
  });
  after(async () => { await plat?.stop(); });

  const allowed = async (user: string, groups: string[], verb: string, group: string): Promise<boolean> => {
    const r = await plat.admin.post('/apis/authorization.platform/v1/subjectaccessreviews', {
      apiVersion: 'authorization.platform/v1', kind: 'SubjectAccessReview',
      spec: { user, groups, resourceAttributes: { namespace: 'default', verb, group, resource: 'events' } },
    });
    assert.equal(r.status, 201, r.text);
    return r.json.status.allowed === true;
  };

  it('controllers (eventsRule) write events in both groups, and only create/update/patch', async () => {
    for (const sa of ['service-account-controller', 'namespace-controller', 'generic-garbage-collector', 'node-controller', 'certificate-controller']) {
      const user = `system:serviceaccount:plat-system:${sa}`;
      for (const verb of ['create', 'update', 'patch']) assert.equal(await allowed(user, SA_GROUPS, verb, 'events.platform'), true, `${sa} ${verb}`);
      assert.equal(await allowed(user, SA_GROUPS, 'create', ''), true, `${sa} create core`);
    }
    assert.equal(await allowed('system:kube-controller-manager', ['system:authenticated'], 'create', 'events.platform'), true);
    assert.equal(await allowed('system:serviceaccount:plat-system:service-account-controller', SA_GROUPS, 'delete', 'events.platform'), false);
  });

  it('view reads core/v1 Events only, as upstream\'s', async () => {
    assert.equal(await allowed('viewer', ['system:authenticated'], 'list', ''), true);
    assert.equal(await allowed('viewer', ['system:authenticated'], 'list', 'events.platform'), false);
  });

  it('real requests: the controller manager creates through events/v1; a viewer lists core/v1 but is refused events/v1', async () => {
    const kcm = { 'Impersonate-User': 'system:kube-controller-manager', 'Impersonate-Group': 'system:authenticated' };
    const c = await plat.admin.post(V1, v1Event('by-kcm'), kcm);
    assert.equal(c.status, 201, c.text);
    const viewer = { 'Impersonate-User': 'viewer', 'Impersonate-Group': 'system:authenticated' };
    const core = await plat.admin.get(CORE, viewer);
    assert.equal(core.status, 200, core.text);
    assert.ok(core.json.items.some((i: { metadata: { name: string } }) => i.metadata.name === 'by-kcm'));
    const v1 = await plat.admin.get(V1, viewer);
    assert.equal(v1.status, 403, v1.text);
    assert.equal(v1.json.message, 'events.events.platform is forbidden: User "viewer" cannot list resource "events" in API group "events.platform" in the namespace "default"');
  });
});
