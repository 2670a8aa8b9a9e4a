// The reasons authorizers give with "no opinion", as upstream's union authorizer keeps them: joined
// one a line when nobody decides, dropped when someone allows or denies; then at the end of the 403
// message and in the access reviews' status.reason, through `plat all` with Node,RBAC,Webhook.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import type { Decision } from '../../core/authz/attributes.js';
import { AuthorizationError, authorizeUnion } from '../../core/authz/union.js';
import { createHooks } from '../../core/hooks.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';
import { SarWebhook, as, resourceAttrs, tempDir, withClientCert, writeKubeconfig, writeTokenFile } from './support.js';

const no = (reason: string): Decision => ({ decision: 'noOpinion', reason });

describe('the chain keeps no-opinion reasons as upstream union.go does', () => {
  // Each answer comes from a tap of another kind in turn (sync, promise, callback), in chain order.
  const cases: Array<[string, Array<Decision | undefined>, Decision | undefined]> = [
    ['nobody answers', [undefined, undefined], undefined],
    ['one reason', [undefined, no('a')], no('a')],
    ['reasons joined with a newline, empty ones skipped', [no('a'), no(''), no('c')], no('a\nc')],
    ['an allow after reasons carries only its own', [no('a'), { decision: 'allow' }], { decision: 'allow' }],
    ['a deny ends the chain with its reason', [no('a'), { decision: 'deny', reason: 'd' }, no('never asked')], { decision: 'deny', reason: 'd' }],
  ];
  for (const [what, answers, expected] of cases) {
    it(what, async () => {
      const hooks = createHooks();
      const asked: number[] = [];
      answers.forEach((d, i) => {
        const name = `tap${i}`;
        if (i % 3 === 0) hooks.authorize.tap(name, () => { asked.push(i); return d; });
        else if (i % 3 === 1) hooks.authorize.tapPromise(name, async () => { asked.push(i); return d; });
        else hooks.authorize.tapAsync(name, (_a, _r, cb) => { asked.push(i); cb(null, d); });
      });
      assert.deepEqual(await authorizeUnion(hooks.authorize, resourceAttrs({ name: 'alice' })), expected);
      const decidedAt = answers.findIndex((d) => d?.decision === 'allow' || d?.decision === 'deny');
      assert.deepEqual(asked, answers.map((_, i) => i).slice(0, decidedAt < 0 ? undefined : decidedAt + 1));
    });
  }
});

describe('an authorizer that throws is passed over, as union.go passes over an error', () => {
  const THROW = Symbol('throw');
  type Answer = Decision | undefined | typeof THROW;
  // Each kind of tap throws its own way: sync and promise throw, a callback tap calls back with it.
  const cases: Array<[string, Answer[], Decision | undefined | { error: string; reason: string; taps: string[] }]> = [
    ['a later allow decides', [THROW, { decision: 'allow' }], { decision: 'allow' }],
    ['a later deny decides', [no('a'), THROW, { decision: 'deny', reason: 'd' }], { decision: 'deny', reason: 'd' }],
    ['nobody decides: the error, with the reasons', [no('a'), THROW, no('c')], { error: 'tap1 failed', reason: 'a\nc', taps: ['tap1: tap1 failed'] }],
    ['several errors aggregate as utilerrors does', [THROW, THROW, THROW, undefined], { error: '[tap0 failed, tap1 failed, tap2 failed]', reason: '', taps: ['tap0: tap0 failed', 'tap1: tap1 failed', 'tap2: tap2 failed'] }],
  ];
  for (const [what, answers, expected] of cases) {
    it(what, async () => {
      const hooks = createHooks();
      answers.forEach((d, i) => {
        const name = `tap${i}`;
        const fail = () => new Error(`${name} failed`);
        if (i % 3 === 0) hooks.authorize.tap(name, () => { if (d === THROW) throw fail(); return d; });
        else if (i % 3 === 1) hooks.authorize.tapPromise(name, async () => { if (d === THROW) throw fail(); return d; });
        else hooks.authorize.tapAsync(name, (_a, _r, cb) => (d === THROW ? cb(fail()) : cb(null, d)));
      });
      const run = authorizeUnion(hooks.authorize, resourceAttrs({ name: 'alice' }));
      if (expected && 'taps' in expected) {
        await assert.rejects(run, (e: unknown) => {
          assert.ok(e instanceof AuthorizationError);
          assert.equal(e.message, expected.error);
          assert.equal(e.reason, expected.reason);
          assert.deepEqual(e.describe(), expected.taps);
          return true;
        });
      } else {
        assert.deepEqual(await run, expected);
      }
    });
  }
});

describe('no-opinion reasons end to end (plat all, --authorization-mode=Node,RBAC,Webhook)', () => {
  const webhook = new SarWebhook();
  const dir = tempDir('plat-authz-reasons-');
  let plat: RunningPlat;

  before(async () => {
    await webhook.start();
    // The policy engine has a word to say about edge-03 only; otherwise no opinion, no reason.
    webhook.answer = ({ spec }) => (spec?.resourceAttributes?.name === 'edge-03'
      ? { status: { allowed: false, reason: 'policy-engine: no rule for edge-03' } }
      : { status: { allowed: false } });
    plat = await startInProcess({
      args: [
        '--authorization-mode=Node,RBAC,Webhook',
        `--authorization-webhook-config-file=${writeKubeconfig(dir, webhook.url, webhook.caPem)}`,
        `--token-auth-file=${writeTokenFile(dir, { alice: [], bob: [] })}`,
      ],
    });
    const binding = await plat.admin.post('/apis/rbac.authorization.platform/v1/clusterrolebindings', {
      apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRoleBinding', metadata: { name: 'alice-ghost' },
      roleRef: { apiGroup: 'rbac.authorization.platform', kind: 'ClusterRole', name: 'ghost' },
      subjects: [{ apiGroup: 'rbac.authorization.platform', kind: 'User', name: 'alice' }],
    });
    assert.equal(binding.status, 201, binding.text);
  });
  after(async () => {
    await plat?.stop();
    await webhook.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const edge01 = () => withClientCert(plat, 'system:node:edge-01', ['system:nodes']);
  const who = (user: string) => (user === 'edge-01' ? edge01() : as(plat, user));
  const LEASES = '/apis/coordination.platform/v1/namespaces/plat-node-lease/leases';

  const forbidden: Array<[string, string, string, string]> = [
    ['Node\'s reason', 'edge-01', '/api/v1/nodes/edge-02',
      'nodes "edge-02" is forbidden: User "system:node:edge-01" cannot get resource "nodes" in API group "" at the cluster scope: node \'edge-01\' cannot read \'edge-02\', only its own Node object'],
    ['Node\'s and the webhook\'s reasons, one a line', 'edge-01', '/api/v1/nodes/edge-03',
      'nodes "edge-03" is forbidden: User "system:node:edge-01" cannot get resource "nodes" in API group "" at the cluster scope: node \'edge-01\' cannot read \'edge-03\', only its own Node object\npolicy-engine: no rule for edge-03'],
    ['Node\'s reason for a list', 'edge-01', '/api/v1/nodes',
      'nodes is forbidden: User "system:node:edge-01" cannot list resource "nodes" in API group "" at the cluster scope: node \'edge-01\' cannot read all nodes, only its own Node object'],
    ['Node\'s reason for another node\'s lease', 'edge-01', `${LEASES}/edge-02`,
      'leases.coordination.platform "edge-02" is forbidden: User "system:node:edge-01" cannot get resource "leases" in API group "coordination.platform" in the namespace "plat-node-lease": can only access node lease with the same name as the requesting node'],
    ['RBAC\'s reason: a binding names a role that does not exist', 'alice', '/api/v1/namespaces',
      'namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope: RBAC: clusterrole.rbac.authorization.platform "ghost" not found'],
    ['nobody\'s reason: nothing follows', 'bob', '/api/v1/namespaces',
      'namespaces is forbidden: User "bob" cannot list resource "namespaces" in API group "" at the cluster scope'],
  ];
  for (const [what, user, path, message] of forbidden) {
    it(`403 with ${what}`, async () => {
      const res = await who(user).get(path);
      assert.equal(res.status, 403, res.text);
      assert.equal(res.json.message, message);
    });
  }

  const G = 'authorization.platform';
  const NODE = { user: 'system:node:edge-01', groups: ['system:nodes', 'system:authenticated'] };
  const getNode = (name: string) => ({ verb: 'get', group: '', resource: 'nodes', name });
  const reviews: Array<[string, string, () => ReturnType<RunningPlat['admin']['post']>, Record<string, unknown>]> = [
    ['SubjectAccessReview', 'Node\'s reason', () => plat.admin.post(`/apis/${G}/v1/subjectaccessreviews`,
      { kind: 'SubjectAccessReview', apiVersion: `${G}/v1`, spec: { ...NODE, resourceAttributes: getNode('edge-02') } }),
    { allowed: false, reason: "node 'edge-01' cannot read 'edge-02', only its own Node object" }],
    ['SelfSubjectAccessReview', 'the joined reasons', () => edge01().post(`/apis/${G}/v1/selfsubjectaccessreviews`,
      { kind: 'SelfSubjectAccessReview', apiVersion: `${G}/v1`, spec: { resourceAttributes: getNode('edge-03') } }),
    { allowed: false, reason: "node 'edge-01' cannot read 'edge-03', only its own Node object\npolicy-engine: no rule for edge-03" }],
    ['LocalSubjectAccessReview', 'Node\'s lease reason', () => plat.admin.post(`/apis/${G}/v1/namespaces/plat-node-lease/localsubjectaccessreviews`, {
      kind: 'LocalSubjectAccessReview', apiVersion: `${G}/v1`, metadata: { namespace: 'plat-node-lease' },
      spec: { ...NODE, resourceAttributes: { namespace: 'plat-node-lease', verb: 'update', group: 'coordination.platform', resource: 'leases', name: 'edge-02' } },
    }), { allowed: false, reason: 'can only access node lease with the same name as the requesting node' }],
    ['SubjectAccessReview', 'RBAC\'s reason', () => plat.admin.post(`/apis/${G}/v1/subjectaccessreviews`,
      { kind: 'SubjectAccessReview', apiVersion: `${G}/v1`, spec: { user: 'alice', resourceAttributes: { verb: 'list', resource: 'namespaces' } } }),
    { allowed: false, reason: 'RBAC: clusterrole.rbac.authorization.platform "ghost" not found' }],
  ];
  for (const [kind, what, post, status] of reviews) {
    it(`${kind}: status.reason is ${what}`, async () => {
      const res = await post();
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(res.json.status, status);
    });
  }
});
