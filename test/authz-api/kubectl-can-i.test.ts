// The machine's kubectl `auth can-i VERB TYPE` against plat: kubectl resolves TYPE through
// discovery (certificatesigningrequests is certificates.platform's) and its typed client posts a
// SelfSubjectAccessReview in protobuf to authorization.k8s.io, then prints yes (exit 0) or no
// (exit 1). Also the other reviews under that group (JSON and protobuf), a malformed protobuf body
// (400); discovery never lists the alias group.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import type { RunningPlat } from '../helpers/plat.js';
import { field, PROTOBUF, protoEnvelope, tokenKubeconfig as userKubeconfig } from './support.js';
import {
  CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, ROLE_BINDINGS, ROLES, clusterRole, clusterRoleBinding, created, namespace, role,
  roleBinding, rule, startRbac, user, type RbacPlat,
} from '../rbac/support.js';

const tokenKubeconfig = (plat: RunningPlat, token: string) => userKubeconfig(plat, token, 'plat-can-i-');

const envelope = (kind: string, raw: Buffer) => protoEnvelope('authorization.k8s.io/v1', kind, raw);

describe('kubectl auth can-i VERB TYPE', () => {
  let plat: RbacPlat;
  let alice: Kubectl;
  let admin: Kubectl;
  const canI = async (k: Kubectl, args: string[]) => {
    const r = await k.run(['auth', 'can-i', ...args]);
    return { code: r.code, stdout: r.stdout, stderr: r.stderr };
  };
  before(async () => {
    plat = await startRbac([{ name: 'alice', groups: ['devs'] }, { name: 'bob' }]);
    await namespace(plat, 'team');
    await namespace(plat, 'other');
    await created(plat.admin, CLUSTER_ROLES, clusterRole('csr-requester', [
      rule(['create'], ['certificates.platform'], ['certificatesigningrequests']),
      rule(['update'], ['certificates.platform'], ['certificatesigningrequests/approval']),
    ]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('alice-csrs', 'csr-requester', [user('alice')]));
    await created(plat.admin, ROLES('team'), role('secret-reader', [rule(['get'], [''], ['secrets'])]));
    await created(plat.admin, ROLE_BINDINGS('team'), roleBinding('alice-reads', 'Role', 'secret-reader', [user('alice')]));
    alice = new Kubectl(tokenKubeconfig(plat, 'token-alice'));
    admin = new Kubectl(plat.kubeconfig);
  });
  after(async () => { await plat?.stop(); });

  const rows: { name: string; args: string[]; as?: 'admin'; answer: 'yes' | 'no' }[] = [
    { name: 'a granted verb on certificatesigningrequests', args: ['create', 'certificatesigningrequests'], answer: 'yes' },
    { name: 'a verb the role does not grant', args: ['delete', 'certificatesigningrequests'], answer: 'no' },
    { name: 'a named object (TYPE/NAME)', args: ['create', 'certificatesigningrequests/csr-1'], answer: 'yes' },
    { name: '--subresource approval, granted', args: ['update', 'certificatesigningrequests', '--subresource', 'approval'], answer: 'yes' },
    { name: '--subresource status, not granted', args: ['update', 'certificatesigningrequests', '--subresource', 'status'], answer: 'no' },
    { name: 'the kubeconfig namespace (team) and its RoleBinding', args: ['get', 'secrets'], answer: 'yes' },
    { name: '-n another namespace: the RoleBinding does not apply', args: ['get', 'secrets', '-n', 'other'], answer: 'no' },
    { name: '-n team', args: ['get', 'secrets', '-n', 'team'], answer: 'yes' },
    { name: 'a non-resource URL the bootstrap policy grants', args: ['get', '/healthz'], answer: 'yes' },
    { name: 'a non-resource URL it does not', args: ['get', '/metrics'], answer: 'no' },
    { name: '--as a user who may', args: ['create', 'certificatesigningrequests', '--as', 'alice'], as: 'admin', answer: 'yes' },
    { name: '--as a user who may not', args: ['create', 'certificatesigningrequests', '--as', 'bob'], as: 'admin', answer: 'no' },
    { name: 'system:masters', args: ['delete', 'certificatesigningrequests'], as: 'admin', answer: 'yes' },
  ];
  // kubectl's own warning (as against Kubernetes): both kubeconfigs name a namespace, and
  // discovery says the resource is cluster-scoped.
  const CLUSTER_SCOPED = 'Warning: resource \'certificatesigningrequests\' is not namespace scoped in group \'certificates.platform\'\n\n';
  for (const row of rows) {
    it(`${row.name}: ${row.answer}`, async () => {
      const r = await canI(row.as === 'admin' ? admin : alice, row.args);
      const stderr = row.args[1]!.startsWith('certificatesigningrequests') ? CLUSTER_SCOPED : '';
      assert.deepEqual(r, { code: row.answer === 'yes' ? 0 : 1, stdout: `${row.answer}\n`, stderr });
    });
  }

  it('kubectl posts protobuf to authorization.k8s.io/v1 and takes the JSON answer', async () => {
    const r = await alice.run(['auth', 'can-i', 'get', 'secrets', '-v=8']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /\] POST https:\/\/[^ ]+\/apis\/authorization\.k8s\.io\/v1\/selfsubjectaccessreviews\n/);
    assert.match(r.stderr, /\] {5}Content-Type: application\/vnd\.kubernetes\.protobuf\n/);
    assert.match(r.stderr, /Response Status: 201 Created/);
  });

  it('SubjectAccessReview and LocalSubjectAccessReview are served under authorization.k8s.io too, in JSON, answered in that apiVersion', async () => {
    const spec = { resourceAttributes: { verb: 'get', resource: 'secrets', namespace: 'team' }, user: 'alice' };
    const sar = await plat.admin.post('/apis/authorization.k8s.io/v1/subjectaccessreviews', { apiVersion: 'authorization.k8s.io/v1', kind: 'SubjectAccessReview', spec });
    assert.equal(sar.status, 201, sar.text);
    assert.equal(sar.json.apiVersion, 'authorization.k8s.io/v1');
    assert.equal(sar.json.status.allowed, true);
    const local = await plat.admin.post('/apis/authorization.k8s.io/v1/namespaces/team/localsubjectaccessreviews',
      { apiVersion: 'authorization.k8s.io/v1', kind: 'LocalSubjectAccessReview', metadata: { namespace: 'team' }, spec: { ...spec, user: 'bob' } });
    assert.equal(local.status, 201, local.text);
    assert.deepEqual([local.json.apiVersion, local.json.status.allowed], ['authorization.k8s.io/v1', false]);
    // The same validation as under authorization.platform.
    const invalid = await plat.admin.post('/apis/authorization.k8s.io/v1/subjectaccessreviews', { spec: { resourceAttributes: { verb: 'get' } } });
    assert.equal(invalid.status, 422, invalid.text);
    assert.match(invalid.json.message, /spec\.user: Invalid value: "": at least one of user or group must be specified/);
    // Served, never listed: discovery names only the platform groups.
    const groups = (await plat.admin.get('/apis')).json.groups.map((g: { name: string }) => g.name);
    assert.ok(groups.includes('authorization.platform') && groups.includes('authentication.platform'), groups.join());
    assert.ok(!groups.includes('authorization.k8s.io') && !groups.includes('authentication.k8s.io'), groups.join());
    for (const p of ['/apis/authorization.k8s.io', '/apis/authorization.k8s.io/v1', '/apis/authentication.k8s.io/v1']) {
      assert.equal((await plat.admin.get(p)).status, 404, p);
    }
  });

  it('a SubjectAccessReview in protobuf: user, groups, extra and selectors are read', async () => {
    const requirement = Buffer.concat([field(1, 'app'), field(2, 'In'), field(3, 'web')]);
    const attrs = Buffer.concat([field(1, 'team'), field(2, 'list'), field(5, 'secrets'), field(9, field(2, requirement))]);
    const extra = field(5, Buffer.concat([field(1, 'scopes'), field(2, Buffer.concat([field(1, 'a'), field(1, 'b')]))]));
    const spec = Buffer.concat([field(1, attrs), field(3, 'alice'), field(4, 'devs'), extra, field(6, 'uid-0')]);
    const r = await plat.admin.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', envelope('SubjectAccessReview', field(2, spec)), PROTOBUF);
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.apiVersion, 'authorization.k8s.io/v1');
    assert.deepEqual(r.json.spec, {
      resourceAttributes: { namespace: 'team', verb: 'list', resource: 'secrets', labelSelector: { requirements: [{ key: 'app', operator: 'In', values: ['web'] }] } },
      user: 'alice', groups: ['devs'], extra: { scopes: ['a', 'b'] }, uid: 'uid-0',
    });
    // alice may get secrets in team, not list them.
    assert.equal(r.json.status.allowed, false);
  });

  it('a protobuf SubjectAccessReview keeps an extra key named __proto__, as the same body in JSON does', async () => {
    const extra = field(5, Buffer.concat([field(1, '__proto__'), field(2, field(1, 'x'))]));
    const spec = Buffer.concat([field(2, Buffer.concat([field(1, '/healthz'), field(2, 'get')])), field(3, 'alice'), extra]);
    const r = await plat.admin.request('POST', '/apis/authorization.k8s.io/v1/subjectaccessreviews', envelope('SubjectAccessReview', field(2, spec)), PROTOBUF);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.spec.extra, JSON.parse('{"__proto__":["x"]}'));
    const j = await plat.admin.post('/apis/authorization.k8s.io/v1/subjectaccessreviews',
      JSON.parse('{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","spec":{"nonResourceAttributes":{"path":"/healthz","verb":"get"},"user":"alice","extra":{"__proto__":["x"]}}}'));
    assert.deepEqual(j.json.spec, r.json.spec);
  });

  const malformed: { name: string; body: Buffer; message: RegExp }[] = [
    { name: 'a varint longer than 64 bits', body: envelope('SelfSubjectAccessReview', Buffer.concat([Buffer.alloc(10, 0xff), Buffer.from([0x01])])), message: /proto: integer overflow/ },
    { name: 'resourceAttributes past the end', body: envelope('SelfSubjectAccessReview', field(2, Buffer.from([0x0a, 0x20, 0x0a]))), message: /truncated field/ },
    { name: 'resourceAttributes sent as a varint', body: envelope('SelfSubjectAccessReview', field(2, Buffer.from([0x08, 0x01]))), message: /proto: wrong wireType for a message field/ },
    { name: 'a verb sent as a varint', body: envelope('SelfSubjectAccessReview', field(2, field(1, Buffer.from([0x10, 0x01])))), message: /proto: wrong wireType = 0 for field 2/ },
    { name: 'no envelope', body: Buffer.from('{"spec":{}}'), message: /expected prefix \[107 56 115 0\]/ },
  ];
  for (const row of malformed) {
    it(`a protobuf SelfSubjectAccessReview with ${row.name} is 400`, async () => {
      const r = await plat.as('alice').request('POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', row.body, PROTOBUF);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.kind, 'Status');
      assert.match(r.json.message, /^SelfSubjectAccessReview in version "v1" cannot be handled as a SelfSubjectAccessReview: /);
      assert.match(r.json.message, row.message);
    });
  }
});
