// The machine's kubectl `auth can-i --list` against plat: kubectl's typed client posts a
// SelfSubjectRulesReview (protobuf, to authorization.k8s.io) for the kubeconfig's namespace or
// --namespace, then breaks down, compacts and sorts the rules into its own table; an incomplete
// answer adds its warning on stderr.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { tokenKubeconfig as userKubeconfig } from './support.js';
import { SarWebhook, writeKubeconfig } from '../authz/support.js';
import {
  CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, ROLE_BINDINGS, ROLES, clusterRole, clusterRoleBinding, created, group, namespace, role,
  roleBinding, rule, startRbac, user, type RbacPlat,
} from '../rbac/support.js';

const tokenKubeconfig = (plat: RunningPlat, token: string) => userKubeconfig(plat, token, 'plat-can-i-list-');

const HEADER = 'Resources                                         Non-Resource URLs   Resource Names   Verbs';
// What every authenticated user has from the bootstrap policy: the review APIs about oneself, and
// discovery's and public-info-viewer's paths (both list /healthz and the like: kubectl keeps the duplicates).
const BASIC_RESOURCES = [
  'selfsubjectreviews.authentication.platform        []                  []               [create]',
  'selfsubjectaccessreviews.authorization.platform   []                  []               [create]',
  'selfsubjectrulesreviews.authorization.platform    []                  []               [create]',
];
const BASIC_PATHS = [
  '/api/*', '/api', '/apis/*', '/apis', '/healthz', '/healthz', '/livez', '/livez', '/openapi/*', '/openapi', '/readyz', '/readyz',
  '/version/', '/version/', '/version', '/version',
].map((p) => `                                                  ${`[${p}]`.padEnd(20)}[]               [get]`);
const table = (...lines: string[]) => [HEADER, ...lines, ''].join('\n');

describe('kubectl auth can-i --list', () => {
  let plat: RbacPlat;
  let alice: Kubectl;
  const run = async (k: Kubectl, args: string[]) => {
    const r = await k.run(['auth', 'can-i', '--list', ...args]);
    assert.equal(r.code, 0, `kubectl auth can-i --list ${args.join(' ')}: ${r.stderr}`);
    return r;
  };
  before(async () => {
    plat = await startRbac([{ name: 'alice', groups: ['devs'] }]);
    await namespace(plat, 'team');
    await created(plat.admin, CLUSTER_ROLES, clusterRole('secret-reader', [rule(['get', 'list'], [''], ['secrets'])]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('devs-read', 'secret-reader', [group('devs')]));
    await created(plat.admin, ROLES('team'), role('one-secret', [rule(['delete'], [''], ['secrets'], ['s1']), rule(['get'], [''], ['secrets'], ['s1'])]));
    await created(plat.admin, ROLE_BINDINGS('team'), roleBinding('alice-deletes', 'Role', 'one-secret', [user('alice')]));
    alice = new Kubectl(tokenKubeconfig(plat, 'token-alice'));
  });
  after(async () => { await plat?.stop(); });

  it('prints the rules of the kubeconfig namespace, compacted (delete and get of s1 in one line)', async () => {
    const r = await run(alice, []);
    assert.equal(r.stdout, table(
      ...BASIC_RESOURCES,
      'secrets                                           []                  [s1]             [delete get]',
      'secrets                                           []                  []               [get list]',
      ...BASIC_PATHS,
    ));
    assert.equal(r.stderr, '');
  });

  it('--namespace asks about another namespace: the RoleBinding in team is left out', async () => {
    const r = await run(alice, ['--namespace', 'other']);
    assert.equal(r.stdout, table(
      ...BASIC_RESOURCES,
      'secrets                                           []                  []               [get list]',
      ...BASIC_PATHS,
    ));
  });

  it('system:masters (the admin kubeconfig) has cluster-admin\'s `*`', async () => {
    const r = await run(new Kubectl(plat.kubeconfig), []);
    assert.equal(r.stdout, table(
      '*.*                                               []                  []               [*]',
      '                                                  [*]                 []               [*]',
      ...BASIC_RESOURCES,
      ...BASIC_PATHS,
    ));
  });
});

describe('kubectl auth can-i --list with a Webhook in the chain', () => {
  const webhook = new SarWebhook();
  let plat: RunningPlat;
  before(async () => {
    await webhook.start();
    const kubeconfig = writeKubeconfig(tempDir('plat-can-i-list-webhook-'), webhook.url, webhook.caPem);
    const tokens = path.join(tempDir('plat-can-i-list-tokens-'), 'tokens.csv');
    writeFileSync(tokens, 'token-alice,alice,uid-0\n');
    plat = await startInProcess({ args: ['--authorization-mode=RBAC,Webhook', `--authorization-webhook-config-file=${kubeconfig}`, `--token-auth-file=${tokens}`] });
  });
  after(async () => { await plat?.stop(); await webhook.stop(); });

  it('prints what RBAC lists, and warns that the list may be incomplete', async () => {
    const r = await new Kubectl(tokenKubeconfig(plat, 'token-alice')).run(['auth', 'can-i', '--list']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, 'Warning: the list may be incomplete: webhook authorizer does not support user rule resolution\n');
    assert.equal(r.stdout, table(...BASIC_RESOURCES, ...BASIC_PATHS));
  });
});
