// TokenReview under authentication.k8s.io/v1, where client-go's AuthenticationV1().TokenReviews()
// posts it (every delegating component's --authentication-kubeconfig client; protobuf by default
// for built-in types, JSON otherwise): served as authentication.platform's tokenreviews, authorized
// as their create, answered in JSON in the alias apiVersion, and never in discovery.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { field, PROTOBUF, protoEnvelope } from '../authz-api/support.js';

const ALIAS = '/apis/authentication.k8s.io/v1/tokenreviews';
/** The default API audience: the service-account issuer's. */
const API_AUDIENCE = 'https://platform.default.svc.cluster.local';
const CAROL = { username: 'carol', uid: 'carol-uid', groups: ['devs', 'ops', 'system:authenticated'] };
/** What client-go's protobuf-first clients send. */
const PROTOBUF_CLIENT = { ...PROTOBUF, accept: 'application/vnd.kubernetes.protobuf, */*' };

/** A TokenReview in protobuf: metadata 1, spec 2 (token 1, audiences 2). */
const tokenReview = (spec: Buffer) => protoEnvelope('authentication.k8s.io/v1', 'TokenReview', Buffer.concat([field(1, Buffer.alloc(0)), field(2, spec)]));

describe('TokenReview under authentication.k8s.io/v1', () => {
  let plat: RunningPlat;
  let dir: string;
  before(async () => {
    dir = tempDir('plat-token-review-alias-');
    writeFileSync(path.join(dir, 'tokens.csv'), 'token-for-carol,carol,carol-uid,"devs,ops"\n');
    plat = await startInProcess({ args: ['--authorization-mode=RBAC', '--token-auth-file', path.join(dir, 'tokens.csv')] });
  });
  after(async () => { await plat?.stop(); });

  it("kubectl create --raw: JSON to the alias, answered in the alias's apiVersion", async () => {
    const file = path.join(dir, 'review.json');
    writeFileSync(file, JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'token-for-carol' } }));
    const r = await new Kubectl(plat.kubeconfig).run(['create', '--raw', ALIAS, '-f', file, '-v=8']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /\] POST https:\/\/[^ ]+\/apis\/authentication\.k8s\.io\/v1\/tokenreviews\n/);
    assert.match(r.stderr, /Response Status: 201 Created/);
    const answer = JSON.parse(r.stdout);
    assert.deepEqual([answer.kind, answer.apiVersion], ['TokenReview', 'authentication.k8s.io/v1']);
    assert.deepEqual(answer.status, { authenticated: true, user: CAROL, audiences: [API_AUDIENCE] });
    // As every alias: served, never in discovery.
    assert.equal((await plat.admin.get('/apis/authentication.k8s.io/v1')).status, 404);
    const groups = (await plat.admin.get('/apis')).json.groups.map((g: { name: string }) => g.name);
    assert.ok(groups.includes('authentication.platform') && !groups.includes('authentication.k8s.io'), String(groups));
  });

  it('a protobuf TokenReview with audiences: the answer in JSON, the audiences it is good for', async () => {
    const r = await plat.admin.request('POST', ALIAS, tokenReview(Buffer.concat([field(1, 'token-for-carol'), field(2, API_AUDIENCE)])), PROTOBUF_CLIENT);
    assert.equal(r.status, 201, r.text);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.deepEqual([r.json.kind, r.json.apiVersion], ['TokenReview', 'authentication.k8s.io/v1']);
    assert.deepEqual(r.json.spec, { token: 'token-for-carol', audiences: [API_AUDIENCE] });
    assert.deepEqual(r.json.status, { authenticated: true, user: CAROL, audiences: [API_AUDIENCE] });
  });

  it('a protobuf TokenReview of an unknown token: not authenticated, the loopback error', async () => {
    const r = await plat.admin.request('POST', ALIAS, tokenReview(field(1, 'not-a-token')), PROTOBUF_CLIENT);
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.status, { authenticated: false, error: 'invalid bearer token' });
  });

  it('a protobuf TokenReview without a token is 400, as in JSON', async () => {
    const r = await plat.admin.request('POST', ALIAS, tokenReview(Buffer.alloc(0)), PROTOBUF_CLIENT);
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.message, 'token is required for TokenReview in authentication');
  });

  const malformed: [string, Buffer, string][] = [
    ['a truncated spec', Buffer.concat([Buffer.from('k8s\0', 'latin1'), field(2, Buffer.from([0x12, 0x05, 0x0a]))]), 'truncated field'],
    ['a token sent as a varint', tokenReview(Buffer.from([0x08, 0x01])), 'proto: wrong wireType = 0 for field 1'],
  ];
  for (const [name, body, cause] of malformed) {
    it(`a protobuf TokenReview with ${name} is 400`, async () => {
      const r = await plat.admin.request('POST', ALIAS, body, PROTOBUF_CLIENT);
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.message, `TokenReview in version "v1" cannot be handled as a TokenReview: ${cause}`);
    });
  }

  it("authorized as authentication.platform's tokenreviews create", async () => {
    const carol = plat.admin.with({ token: 'token-for-carol' });
    const body = { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'token-for-carol' } };
    const refused = await carol.post(ALIAS, body);
    assert.equal(refused.status, 403, refused.text);
    assert.equal(refused.json.message,
      'tokenreviews.authentication.k8s.io is forbidden: User "carol" cannot create resource "tokenreviews" in API group "authentication.platform" at the cluster scope');
    const G = 'rbac.authorization.platform';
    for (const [path_, obj] of [
      [`/apis/${G}/v1/clusterroles`, { apiVersion: `${G}/v1`, kind: 'ClusterRole', metadata: { name: 'reviewer' }, rules: [{ apiGroups: ['authentication.platform'], resources: ['tokenreviews'], verbs: ['create'] }] }],
      [`/apis/${G}/v1/clusterrolebindings`, { apiVersion: `${G}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'carol-reviews' },
        roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'reviewer' }, subjects: [{ kind: 'User', apiGroup: G, name: 'carol' }] }],
    ] as const) {
      const made = await plat.admin.post(path_, obj);
      assert.equal(made.status, 201, made.text);
    }
    // The authorizer reads bindings from storage: bounded retries until it sees the new one.
    let allowed = await carol.post(ALIAS, body);
    for (let i = 0; i < 50 && allowed.status === 403; i++) {
      await new Promise((r) => setTimeout(r, 100));
      allowed = await carol.post(ALIAS, body);
    }
    assert.equal(allowed.status, 201, allowed.text);
    assert.equal(allowed.json.status.user.username, 'carol');
  });
});
