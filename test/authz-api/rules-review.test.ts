// SelfSubjectRulesReview over HTTPS against real authorizer chains: RBAC's rules for a few users
// (bindings in their binding order, uncompacted, as upstream's API server answers), AlwaysAllow's
// `*`, an incomplete answer when the chain has an authorizer that cannot list rules (a Webhook, the
// Node authorizer for a node, a third-party plugin without a rulesFor tap), validation, and the
// upstream group's alias kubectl posts to.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { errors } from '../../core/api/errors.js';
import type { Plugin } from '../../core/plugin.js';
import type { UserRules } from '../../core/authz/rules.js';
import { startInProcess, tempDir, type Client, type RunningPlat } from '../helpers/plat.js';
import { tableAuthorizer } from '../helpers/table-authorizer.js';
import { SarWebhook, writeKubeconfig } from '../authz/support.js';
import {
  CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, ROLE_BINDINGS, ROLES, clusterRole, clusterRoleBinding, created, group, namespace, role,
  roleBinding, rule, startRbac, user, type RbacPlat,
} from '../rbac/support.js';

const G = 'authorization.platform';
const SSRR = `/apis/${G}/v1/selfsubjectrulesreviews`;
const ask = (c: Client, ns: string | undefined, p = SSRR, apiVersion = `${G}/v1`) =>
  c.post(p, { apiVersion, kind: 'SelfSubjectRulesReview', spec: ns === undefined ? {} : { namespace: ns } });

// What every authenticated user gets from the bootstrap policy (as reconciled: URLs sorted), in the
// order of the ClusterRoleBindings that grant it, by name: system:basic-user, system:discovery,
// system:public-info-viewer.
const BASIC_USER = [
  { verbs: ['create'], apiGroups: [G], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
  { verbs: ['create'], apiGroups: ['authentication.platform'], resources: ['selfsubjectreviews'] },
];
const DISCOVERY = [{ verbs: ['get'], nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'] }];
const PUBLIC_INFO = [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }];

describe('SelfSubjectRulesReview with RBAC', () => {
  let plat: RbacPlat;
  before(async () => {
    plat = await startRbac([{ name: 'alice', groups: ['devs'] }, { name: 'bob' }, { name: 'root', groups: ['system:masters'] }]);
    await namespace(plat, 'team');
    await created(plat.admin, CLUSTER_ROLES, clusterRole('secret-reader', [rule(['get', 'list'], [''], ['secrets'])]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('devs-read', 'secret-reader', [group('devs')]));
    await created(plat.admin, ROLES('team'), role('one-secret', [rule(['delete'], [''], ['secrets'], ['s1']), rule(['get'], [''], ['secrets'], ['s1'])]));
    await created(plat.admin, ROLE_BINDINGS('team'), roleBinding('alice-deletes', 'Role', 'one-secret', [user('alice')]));
  });
  after(async () => { await plat?.stop(); });

  it('answers each user the rules of the bindings that apply, in binding order, uncompacted', async () => {
    const secretReader = { verbs: ['get', 'list'], apiGroups: [''], resources: ['secrets'] };
    const oneSecret = [
      { verbs: ['delete'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] },
      { verbs: ['get'], apiGroups: [''], resources: ['secrets'], resourceNames: ['s1'] },
    ];
    const cases: { who: string; ns: string; resourceRules: unknown[]; nonResourceRules: unknown[] }[] = [
      // A ClusterRoleBinding (through a group; devs-read sorts before system:*) and a RoleBinding in the namespace asked.
      { who: 'alice', ns: 'team', resourceRules: [secretReader, ...BASIC_USER, ...oneSecret], nonResourceRules: [...DISCOVERY, ...PUBLIC_INFO] },
      // The RoleBinding is another namespace's.
      { who: 'alice', ns: 'other', resourceRules: [secretReader, ...BASIC_USER], nonResourceRules: [...DISCOVERY, ...PUBLIC_INFO] },
      { who: 'bob', ns: 'team', resourceRules: BASIC_USER, nonResourceRules: [...DISCOVERY, ...PUBLIC_INFO] },
      // system:masters: cluster-admin's `*` from its bootstrap binding; the privileged-group authorizer lists nothing.
      {
        who: 'root', ns: 'team',
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, ...BASIC_USER],
        nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }, ...DISCOVERY, ...PUBLIC_INFO],
      },
    ];
    for (const c of cases) {
      const r = await ask(plat.as(c.who), c.ns);
      assert.equal(r.status, 201, `${c.who}: ${r.text}`);
      assert.deepEqual(r.json, {
        kind: 'SelfSubjectRulesReview', apiVersion: `${G}/v1`, metadata: { creationTimestamp: null }, spec: {},
        status: { resourceRules: c.resourceRules, nonResourceRules: c.nonResourceRules, incomplete: false },
      }, `${c.who} in ${c.ns}`);
    }
  });

  it('a binding to a role that cannot be read is an evaluationError, not incomplete; the other rules still count', async () => {
    await created(plat.admin, ROLE_BINDINGS('team'), roleBinding('bob-ghost', 'Role', 'ghost', [user('bob')]));
    await created(plat.admin, ROLE_BINDINGS('team'), roleBinding('bob-ghost2', 'ClusterRole', 'ghost2', [user('bob')]));
    const r = await ask(plat.as('bob'), 'team');
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.status, {
      resourceRules: BASIC_USER, nonResourceRules: [...DISCOVERY, ...PUBLIC_INFO], incomplete: false,
      evaluationError: '[role.rbac.authorization.platform "ghost" not found, clusterrole.rbac.authorization.platform "ghost2" not found]',
    });
  });

  it('a spec without a namespace is 400 "no namespace on request"', async () => {
    for (const body of [undefined, '']) {
      const r = await ask(plat.as('bob'), body);
      assert.equal(r.status, 400, r.text);
      assert.deepEqual({ reason: r.json.reason, message: r.json.message }, { reason: 'BadRequest', message: 'no namespace on request' });
    }
  });

  it('is create-only in discovery, and served under authorization.k8s.io for typed clients', async () => {
    const d = await plat.admin.get(`/apis/${G}/v1`);
    const res = d.json.resources.find((x: { name: string }) => x.name === 'selfsubjectrulesreviews');
    assert.deepEqual({ ...res, storageVersionHash: undefined }, {
      name: 'selfsubjectrulesreviews', singularName: 'selfsubjectrulesreview', namespaced: false, kind: 'SelfSubjectRulesReview', verbs: ['create'], storageVersionHash: undefined,
    });
    const r = await ask(plat.as('bob'), 'team', '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews', 'authorization.k8s.io/v1');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.apiVersion, 'authorization.k8s.io/v1');
    assert.deepEqual(r.json.status.resourceRules, BASIC_USER);
    const get = await plat.admin.get(SSRR);
    assert.equal(get.status, 405, get.text);
  });
});

describe('SelfSubjectRulesReview with other chains', () => {
  const webhook = new SarWebhook();
  let dir: string;
  const boot = async (args: string[], plugins: Plugin[] = []) => {
    const tokens = path.join(dir, 'tokens.csv');
    writeFileSync(tokens, 'alice-token,alice,1,devs\nnode-token,system:node:n1,2,system:nodes\n');
    return startInProcess({ args: [`--token-auth-file=${tokens}`, ...args], plugins });
  };
  const status = async (plat: RunningPlat, token: string, ns = 'default') => {
    const r = await ask(plat.admin.with({ token }), ns);
    assert.equal(r.status, 201, r.text);
    return r.json.status;
  };
  before(async () => { dir = tempDir('plat-rules-review-'); await webhook.start(); });
  after(async () => { await webhook.stop(); });

  it('AlwaysAllow lists `*` on everything', async () => {
    const plat = await boot(['--authorization-mode=AlwaysAllow']);
    try {
      assert.deepEqual(await status(plat, 'alice-token'), {
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false,
      });
    } finally { await plat.stop(); }
  });

  it('a Webhook, the Node authorizer (for a node) and a plugin without rulesFor make it incomplete, with their errors', async () => {
    const kubeconfig = writeKubeconfig(dir, webhook.url, webhook.caPem);
    // Nobody but the table allows anything; the webhook has no opinion.
    const table = tableAuthorizer([{ user: 'alice', verb: 'create', resource: 'selfsubjectrulesreviews', decision: 'allow' },
      { user: 'system:node:n1', verb: 'create', resource: 'selfsubjectrulesreviews', decision: 'allow' }]);
    const plat = await boot(['--authorization-mode=Node,Webhook,AlwaysAllow', `--authorization-webhook-config-file=${kubeconfig}`], [table]);
    try {
      const all = { resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: true };
      // Chain order: the table (stage -1), Node, Webhook, AlwaysAllow; errors joined as one aggregate.
      assert.deepEqual(await status(plat, 'alice-token'), {
        ...all, evaluationError: '[authorizer "TableAuthorizerForTests" does not support user rule resolution, webhook authorizer does not support user rule resolution]',
      });
      assert.deepEqual(await status(plat, 'node-token'), {
        ...all, evaluationError: '[authorizer "TableAuthorizerForTests" does not support user rule resolution, node authorizer does not support user rule resolution, webhook authorizer does not support user rule resolution]',
      });
      assert.equal(webhook.calls.filter((c) => c.spec?.resourceAttributes?.resource === 'selfsubjectrulesreviews').length, 0, 'the webhook is not asked for rules');
    } finally { await plat.stop(); }
  });

  it('a third-party authorizer with a rulesFor tap adds its rules in chain order; one whose rulesFor throws makes it incomplete', async () => {
    const thirdParty = (name: string, stage: number, rules: () => UserRules): Plugin => ({
      name,
      apply(host) {
        host.hooks.authorize.tap({ name, stage }, (a) => (a.resource === 'selfsubjectrulesreviews' ? { decision: 'allow' } : undefined));
        host.hooks.rulesFor.tap({ name, stage }, rules);
      },
    });
    const plat = await boot(['--authorization-mode=AlwaysDeny'], [
      thirdParty('Second', -1, () => ({ resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['secrets'] }], incomplete: false })),
      thirdParty('First', -2, () => ({ resourceRules: [{ verbs: ['create'], apiGroups: [G], resources: ['selfsubjectrulesreviews'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] })),
    ]);
    try {
      assert.deepEqual(await status(plat, 'alice-token'), {
        resourceRules: [{ verbs: ['create'], apiGroups: [G], resources: ['selfsubjectrulesreviews'] }, { verbs: ['get'], apiGroups: [''], resources: ['secrets'] }],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }], incomplete: false,
      });
    } finally { await plat.stop(); }
    const broken = await boot(['--authorization-mode=AlwaysAllow'], [thirdParty('Broken', -1, () => { throw new Error('policy store is down'); })]);
    try {
      assert.deepEqual(await status(broken, 'alice-token'), {
        resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
        incomplete: true, evaluationError: 'policy store is down',
      });
    } finally { await broken.stop(); }
  });

  it('mutating admission runs on it, validating admission does not (upstream\'s REST never calls createValidation)', async () => {
    const admission: Plugin = {
      name: 'ReviewAdmissionForTests',
      apply(host) {
        host.hooks.admitMutate.tap('ReviewAdmissionForTests', (req) => {
          if (req.resource === 'selfsubjectrulesreviews') (req.object as unknown as { spec: { namespace: string } }).spec.namespace = 'moved';
        });
        host.hooks.admitValidate.tap('ReviewAdmissionForTests', (req) => {
          if (req.group === G) throw errors.forbidden({ group: G, resource: req.resource }, '', 'no reviews today');
        });
      },
    };
    const policy = path.join(dir, 'abac-moved.jsonl');
    writeFileSync(policy, [
      { user: 'alice', namespace: '*', resource: '*', apiGroup: G },
      { user: 'alice', namespace: 'moved', resource: 'secrets', apiGroup: '' },
    ].map((spec) => JSON.stringify({ apiVersion: 'abac.authorization.platform/v1beta1', kind: 'Policy', spec })).join('\n') + '\n');
    const plat = await boot(['--authorization-mode=ABAC', `--authorization-policy-file=${policy}`], [admission]);
    try {
      assert.deepEqual((await status(plat, 'alice-token', 'team')).resourceRules, [
        { verbs: ['*'], apiGroups: [G], resources: ['*'] }, { verbs: ['*'], apiGroups: [''], resources: ['secrets'] },
      ], 'the rules of the namespace mutating admission put in the spec');
      const ssar = await plat.admin.with({ token: 'alice-token' }).post(`/apis/${G}/v1/selfsubjectaccessreviews`,
        { apiVersion: `${G}/v1`, kind: 'SelfSubjectAccessReview', spec: { nonResourceAttributes: { path: '/x', verb: 'get' } } });
      assert.equal(ssar.status, 403, 'the access reviews still go through validating admission');
    } finally { await plat.stop(); }
  });

  it('ABAC lists the policies that apply in the namespace; AlwaysDeny lists nothing and is complete', async () => {
    const policy = path.join(dir, 'abac.jsonl');
    const line = (spec: Record<string, unknown>) => JSON.stringify({ apiVersion: 'abac.authorization.platform/v1beta1', kind: 'Policy', spec });
    writeFileSync(policy, [
      line({ user: 'alice', namespace: '*', resource: '*', apiGroup: '*', readonly: true }),
      line({ group: 'devs', namespace: 'team', resource: 'secrets', apiGroup: '' }),
      // Upstream lists a policy only when its namespace is "*" or the one asked, a path's too: this one is not listed.
      line({ user: 'alice', nonResourcePath: '/healthz', readonly: true }),
      line({ user: 'alice', namespace: '*', nonResourcePath: '/version', readonly: true }),
      line({ user: 'bob', namespace: '*', resource: '*', apiGroup: '*' }),
      line({ group: 'system:authenticated', namespace: '*', resource: 'selfsubjectrulesreviews', apiGroup: G }),
    ].join('\n') + '\n');
    const plat = await boot(['--authorization-mode=ABAC,AlwaysDeny', `--authorization-policy-file=${policy}`]);
    try {
      const readOnly = ['get', 'list', 'watch'];
      assert.deepEqual(await status(plat, 'alice-token', 'team'), {
        resourceRules: [
          { verbs: readOnly, apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], apiGroups: [''], resources: ['secrets'] },
          { verbs: ['*'], apiGroups: [G], resources: ['selfsubjectrulesreviews'] },
        ],
        nonResourceRules: [{ verbs: readOnly, nonResourceURLs: ['/version'] }], incomplete: false,
      });
      assert.deepEqual(await status(plat, 'alice-token', 'other'), {
        resourceRules: [{ verbs: readOnly, apiGroups: ['*'], resources: ['*'] }, { verbs: ['*'], apiGroups: [G], resources: ['selfsubjectrulesreviews'] }],
        nonResourceRules: [{ verbs: readOnly, nonResourceURLs: ['/version'] }], incomplete: false,
      });
    } finally { await plat.stop(); }
  });
});
