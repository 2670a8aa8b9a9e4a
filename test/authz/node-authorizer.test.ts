// The Node authorizer: who counts as a node, a table of what node n1 may and may not do (with
// upstream's reasons for the refusals), and a node's client certificate end to end over HTTPS.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Attributes } from '../../core/authz/attributes.js';
import { decideForNode, nodeIdentity, NodeAuthorizer } from '../../plugins/authz-node/index.js';
import { AuthorizationModeFlag, boot } from '../auth/support.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { pathAttrs, resourceAttrs, withClientCert } from './support.js';

const N1 = { name: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };
const core = (resource: string, over: Partial<Attributes> = {}) => resourceAttrs(N1, { apiGroup: '', resource, ...over });

describe('node identity', () => {
  it('needs both the system:node: name and the system:nodes group', () => {
    assert.deepEqual(nodeIdentity({ name: 'system:node:n1', groups: ['system:nodes'] }), { isNode: true, nodeName: 'n1' });
    assert.deepEqual(nodeIdentity({ name: 'system:node:n1', groups: [] }), { isNode: false, nodeName: '' });
    assert.deepEqual(nodeIdentity({ name: 'n1', groups: ['system:nodes'] }), { isNode: false, nodeName: '' });
    assert.deepEqual(nodeIdentity({ name: 'system:node:', groups: ['system:nodes'] }), { isNode: true, nodeName: '' });
  });
});

describe('what node n1 may do', () => {
  const allowed: Array<[string, Attributes]> = [
    ['create a CSR', resourceAttrs(N1, { verb: 'create' })],
    ['get, list and watch CSRs', resourceAttrs(N1, { verb: 'watch' })],
    ['get its own Node', core('nodes', { name: 'n1' })],
    ['watch its own Node', core('nodes', { verb: 'watch', name: 'n1' })],
    ['register a Node', core('nodes', { verb: 'create' })],
    ['update and patch a Node (NodeRestriction limits it to its own)', core('nodes', { verb: 'patch', name: 'n1' })],
    ['update its Node status', core('nodes', { verb: 'update', name: 'n1', subresource: 'status' })],
    ['renew its lease', resourceAttrs(N1, { verb: 'update', apiGroup: 'coordination.platform', resource: 'leases', namespace: 'plat-node-lease', name: 'n1' })],
    ['create its lease', resourceAttrs(N1, { verb: 'create', apiGroup: 'coordination.platform', resource: 'leases', namespace: 'plat-node-lease' })],
    ['create a TokenReview', resourceAttrs(N1, { verb: 'create', apiGroup: 'authentication.platform', resource: 'tokenreviews' })],
    ['create a SubjectAccessReview', resourceAttrs(N1, { verb: 'create', apiGroup: 'authorization.platform', resource: 'subjectaccessreviews' })],
    // A review from a tool built for Kubernetes names upstream's groups; they mean plat's.
    ['list CSRs, asked as certificates.k8s.io', resourceAttrs(N1, { verb: 'list', apiGroup: 'certificates.k8s.io' })],
    ['renew its lease, asked as coordination.k8s.io', resourceAttrs(N1, { verb: 'update', apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'plat-node-lease', name: 'n1' })],
  ];
  for (const [what, attrs] of allowed) {
    it(`allows: ${what}`, () => assert.deepEqual(decideForNode(attrs), { decision: 'allow' }));
  }

  const refused: Array<[string, Attributes, string | undefined]> = [
    ['get another Node', core('nodes', { name: 'n2' }), "node 'n1' cannot read 'n2', only its own Node object"],
    ['list all Nodes', core('nodes', { verb: 'list' }), "node 'n1' cannot read all nodes, only its own Node object"],
    ['delete a Node', core('nodes', { verb: 'delete', name: 'n1' }), undefined],
    ['get a Node status', core('nodes', { name: 'n1', subresource: 'status' }), undefined],
    ['list secrets', core('secrets', { verb: 'list', namespace: 'default' }), 'No Object name found'],
    ['list secrets everywhere', core('secrets', { verb: 'list' }), 'can only read namespaced object of this type'],
    ['get a secret (no pod of n1 uses it: plat has no pods)', core('secrets', { namespace: 'default', name: 's' }),
      "no relationship found between node 'n1' and this object"],
    ['create a secret', core('secrets', { verb: 'create', namespace: 'default' }), 'can only read resources of this type'],
    ['get a configmap', core('configmaps', { namespace: 'default', name: 'c' }), "no relationship found between node 'n1' and this object"],
    ['read a service account', core('serviceaccounts', { namespace: 'default', name: 'sa' }), 'can only create tokens for individual service accounts'],
    ['create a service account token', core('serviceaccounts', { verb: 'create', namespace: 'default', name: 'sa', subresource: 'token' }),
      "no relationship found between node 'n1' and this object"],
    ['get another node\'s lease', resourceAttrs(N1, { apiGroup: 'coordination.platform', resource: 'leases', namespace: 'plat-node-lease', name: 'n2' }),
      'can only access node lease with the same name as the requesting node'],
    ['use a lease elsewhere', resourceAttrs(N1, { verb: 'create', apiGroup: 'coordination.platform', resource: 'leases', namespace: 'default' }),
      'can only access leases in the "plat-node-lease" system namespace'],
    ['get another node\'s lease, asked as coordination.k8s.io', resourceAttrs(N1, { apiGroup: 'coordination.k8s.io', resource: 'leases', namespace: 'plat-node-lease', name: 'n2' }),
      'can only access node lease with the same name as the requesting node'],
    ['list leases', resourceAttrs(N1, { verb: 'list', apiGroup: 'coordination.platform', resource: 'leases', namespace: 'plat-node-lease' }),
      'can only get, create, update, patch, or delete a node lease'],
    ['approve a CSR', resourceAttrs(N1, { verb: 'update', name: 'x', subresource: 'approval' }), undefined],
    ['delete a CSR', resourceAttrs(N1, { verb: 'delete', name: 'x' }), undefined],
    ['list namespaces', core('namespaces', { verb: 'list' }), undefined],
    ['read a path', pathAttrs(N1, '/healthz'), undefined],
  ];
  for (const [what, attrs, reason] of refused) {
    it(`no opinion: ${what}`, () => assert.deepEqual(decideForNode(attrs), reason === undefined ? undefined : { decision: 'noOpinion', reason }));
  }

  it('has no opinion about anyone who is not a node, and about a node without a name', () => {
    assert.equal(decideForNode(resourceAttrs({ name: 'alice', groups: ['system:nodes'] }, { verb: 'create' })), undefined);
    assert.equal(decideForNode(resourceAttrs({ name: 'system:node:n1', groups: [] }, { verb: 'create' })), undefined);
    assert.deepEqual(decideForNode(resourceAttrs({ name: 'system:node:', groups: ['system:nodes'] }, { verb: 'create' })),
      { decision: 'noOpinion', reason: 'unknown node for user "system:node:"' });
  });

  it('taps authorize only when Node is in the chain, at its place', () => {
    assert.equal(boot([AuthorizationModeFlag, NodeAuthorizer], ['--authorization-mode=AlwaysAllow']).host.hooks.authorize.taps.length, 0);
    const { host } = boot([AuthorizationModeFlag, NodeAuthorizer], ['--authorization-mode=AlwaysDeny,Node']);
    assert.deepEqual(host.hooks.authorize.taps.map((t) => [t.name, t.stage]), [['NodeAuthorizer', 1]]);
  });
});

describe('Node end to end (plat all, --authorization-mode=Node, a node client certificate)', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

  before(async () => { plat = await startInProcess({ args: ['--authorization-mode=Node'] }); });
  after(async () => { await plat.stop(); });

  it('n1 creates and reads its CSR, carrying its identity', async () => {
    const n1 = withClientCert(plat, 'system:node:n1', ['system:nodes']);
    const created = await n1.post(CSRS, baseCsr(fx, 'node-csr'));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.spec.username, 'system:node:n1');
    assert.deepEqual(created.json.spec.groups, ['system:nodes', 'system:authenticated']);
    assert.equal((await n1.get(`${CSRS}/node-csr`)).status, 200);
    assert.equal((await n1.get(CSRS)).status, 200);
  });

  it('n1 may read nodes/n1 (plat serves no Node yet: 404) but not nodes/n2 (403)', async () => {
    const n1 = withClientCert(plat, 'system:node:n1', ['system:nodes']);
    assert.equal((await n1.get('/api/v1/nodes/n1')).status, 404);
    const other = await n1.get('/api/v1/nodes/n2');
    assert.equal(other.status, 403);
    assert.equal(other.json.message,
      'nodes "n2" is forbidden: User "system:node:n1" cannot get resource "nodes" in API group "" at the cluster scope: node \'n1\' cannot read \'n2\', only its own Node object');
  });

  it('n1 cannot list secrets nor approve CSRs; a certificate without system:nodes gets nothing', async () => {
    const n1 = withClientCert(plat, 'system:node:n1', ['system:nodes']);
    assert.equal((await n1.get('/api/v1/namespaces/default/secrets')).status, 403);
    assert.equal((await n1.get('/api/v1/secrets')).status, 403);
    const approve = await n1.put(`${CSRS}/node-csr/approval`, {});
    assert.equal(approve.status, 403);
    const impostor = withClientCert(plat, 'system:node:n1', ['staff']);
    assert.equal((await impostor.post(CSRS, baseCsr(fx, 'impostor'))).status, 403);
  });
});

describe('AuthorizeNodeWithSelectors=false: a node reads every Node through the static rules, as 1.32', () => {
  it('the table: reads of other Nodes allowed, the rest unchanged', () => {
    for (const attrs of [core('nodes', { name: 'n2' }), core('nodes', { verb: 'list' }), core('nodes', { verb: 'watch' })]) {
      assert.deepEqual(decideForNode(attrs, false), { decision: 'allow' });
      assert.equal(decideForNode(attrs, true)?.decision, 'noOpinion');
    }
    // Neither way lets a node delete a Node.
    assert.equal(decideForNode(core('nodes', { verb: 'delete', name: 'n1' }), false), undefined);
  });

  it('over HTTPS with --feature-gates=AuthorizeNodeWithSelectors=false: nodes/n2 is 404, not 403, and the list is served', async () => {
    const plat = await startInProcess({ args: ['--authorization-mode=Node', '--feature-gates=AuthorizeNodeWithSelectors=false'] });
    try {
      const n1 = withClientCert(plat, 'system:node:n1', ['system:nodes']);
      assert.equal((await n1.get('/api/v1/nodes/n2')).status, 404);
      assert.equal((await n1.get('/api/v1/nodes')).status, 200);
    } finally {
      await plat.stop();
    }
  });
});
