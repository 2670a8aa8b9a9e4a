// The access-review APIs over HTTPS, answered by the real authorizer chain (a table authorizer
// before AlwaysDeny), and `plat auth can-i` asking them for three users.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { runPlatAsync } from '../helpers/run-plat.js';
import { tableAuthorizer } from '../helpers/table-authorizer.js';

const G = 'authorization.platform';
const SAR = `/apis/${G}/v1/subjectaccessreviews`;
const SSAR = `/apis/${G}/v1/selfsubjectaccessreviews`;
const LSAR = (ns: string) => `/apis/${G}/v1/namespaces/${ns}/localsubjectaccessreviews`;
const TOKENS: Record<string, string> = { alice: 'alice-token-0123456789', bob: 'bob-token-0123456789', carol: 'carol-token-0123456789' };
/** v1.ObjectMeta's %#v after ResourceVersion, every field unset. */
const EMPTY_META_TAIL = 'SelfLink:"", UID:"", ResourceVersion:"", Generation:0, CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), ' +
  'DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), Labels:map[string]string(nil), Annotations:map[string]string(nil), ' +
  'OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string(nil), ManagedFields:[]v1.ManagedFieldsEntry(nil)}';
const csrAttrs = (verb: string, extra: Record<string, string> = {}) => ({ verb, group: 'certificates.platform', resource: 'certificatesigningrequests', ...extra });

const reviewRules = tableAuthorizer([
  { group: 'system:masters', decision: 'allow', reason: 'masters may do anything' },
  // Everyone authenticated may ask about themselves and read discovery, as upstream's basic-user and discovery roles.
  { group: 'system:authenticated', verb: 'create', resource: 'selfsubjectaccessreviews', decision: 'allow' },
  { group: 'system:authenticated', verb: 'get', path: '/api*', decision: 'allow' },
  { user: 'alice', verb: 'get', resource: 'certificatesigningrequests', decision: 'allow', reason: 'alice reads CSRs' },
  { user: 'alice', verb: 'list', resource: 'certificatesigningrequests', decision: 'allow', reason: 'alice reads CSRs' },
  { user: 'bob', verb: 'create', resource: 'certificatesigningrequests', decision: 'allow', reason: 'bob files CSRs' },
  { user: 'bob', verb: 'update', resource: 'certificatesigningrequests', subresource: 'approval', decision: 'allow' },
  { user: 'bob', verb: 'get', resource: 'secrets', namespace: 'team-a', decision: 'allow', reason: 'bob reads team-a secrets' },
  { user: 'carol', verb: 'get', path: '/healthz', decision: 'allow' },
  { user: 'carol', verb: 'approve', apiGroup: 'certificates.platform', resource: 'signers', name: 'example.com/widgets', decision: 'allow' },
  { group: 'auditors', verb: 'list', resource: 'certificatesigningrequests', decision: 'allow', reason: 'auditors list CSRs' },
]);

function tokenFile(dir: string): string {
  const file = path.join(dir, 'tokens.csv');
  writeFileSync(file, Object.entries(TOKENS).map(([u, t], i) => `${t},${u},uid-${i}`).join('\n') + '\n');
  return file;
}

describe('access reviews', () => {
  let plat: RunningPlat;
  const dir = tempDir('plat-reviews-');
  before(async () => {
    plat = await startInProcess({ args: ['--authorization-mode=AlwaysDeny', `--token-auth-file=${tokenFile(dir)}`], plugins: [reviewRules] });
  });
  after(async () => { await plat?.stop(); });

  const as = (user: string) => plat.admin.with({ token: TOKENS[user]! });
  const local = (ns: string, body: Record<string, unknown>) => plat.admin.post(LSAR(ns), { apiVersion: `${G}/v1`, kind: 'LocalSubjectAccessReview', ...body });

  it('SubjectAccessReview: allowed with the reason, denied by a later authorizer, groups count', async () => {
    const review = (spec: Record<string, unknown>) => plat.admin.post(SAR, { apiVersion: `${G}/v1`, kind: 'SubjectAccessReview', spec });
    let r = await review({ user: 'alice', resourceAttributes: csrAttrs('get', { name: 'x' }) });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.kind, 'SubjectAccessReview');
    assert.deepEqual(r.json.status, { allowed: true, reason: 'alice reads CSRs' });
    r = await review({ user: 'alice', resourceAttributes: csrAttrs('delete') });
    assert.deepEqual(r.json.status, { allowed: false, denied: true, reason: 'Everything is forbidden.' });
    r = await review({ user: 'zed', groups: ['auditors'], resourceAttributes: csrAttrs('list') });
    assert.equal(r.json.status.allowed, true);
    r = await review({ groups: ['auditors'], resourceAttributes: csrAttrs('list') });
    assert.equal(r.json.status.allowed, true, 'a group alone is a subject');
    r = await review({ user: 'carol', nonResourceAttributes: { path: '/healthz', verb: 'get' } });
    assert.equal(r.json.status.allowed, true);
  });

  it('SubjectAccessReview validation is 422 with upstream field paths', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ spec: { user: 'a' } }, '.authorization.platform "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified'],
      // field.Invalid of a struct is Go's %#v of the internal type, fields in declaration order.
      [{ spec: { user: 'a', resourceAttributes: csrAttrs('get'), nonResourceAttributes: { verb: 'get', path: '/x' } } }, 'spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes'],
      [{ spec: { resourceAttributes: csrAttrs('get') } }, 'spec.user: Invalid value: "": at least one of user or group must be specified'],
    ];
    for (const [body, message] of cases) {
      const r = await plat.admin.post(SAR, { apiVersion: `${G}/v1`, kind: 'SubjectAccessReview', ...body });
      assert.equal(r.status, 422, r.text);
      assert.equal(r.json.reason, 'Invalid');
      assert.ok(r.json.message.includes(message), `${r.json.message}\n  should include\n${message}`);
    }
  });

  it('a review whose metadata is not empty is 422 with Go\'s %#v of the v1.ObjectMeta', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ metadata: { name: 'named' }, spec: { user: 'a', resourceAttributes: csrAttrs('get') } }, `metadata: Invalid value: v1.ObjectMeta{Name:"named", GenerateName:"", Namespace:"", ${EMPTY_META_TAIL}: must be empty`],
      [{ metadata: { labels: { b: '2', a: '1' }, finalizers: ['f'] }, spec: { user: 'a', resourceAttributes: csrAttrs('get') } },
        'metadata: Invalid value: v1.ObjectMeta{Name:"", GenerateName:"", Namespace:"", SelfLink:"", UID:"", ResourceVersion:"", Generation:0, ' +
        'CreationTimestamp:time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC), DeletionTimestamp:<nil>, DeletionGracePeriodSeconds:(*int64)(nil), ' +
        'Labels:map[string]string{"a":"1", "b":"2"}, Annotations:map[string]string(nil), OwnerReferences:[]v1.OwnerReference(nil), Finalizers:[]string{"f"}, ' +
        'ManagedFields:[]v1.ManagedFieldsEntry(nil)}: must be empty'],
    ];
    for (const [body, message] of cases) {
      const r = await plat.admin.post(SAR, { apiVersion: `${G}/v1`, kind: 'SubjectAccessReview', ...body });
      assert.equal(r.status, 422, r.text);
      assert.ok(r.json.message.includes(message), `${r.json.message}\n  should include\n${message}`);
    }
    const r = await local('team-a', { metadata: { name: 'n' }, spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'secrets', namespace: 'team-a' } } });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.message, `.authorization.platform "" is invalid: metadata: Invalid value: v1.ObjectMeta{Name:"n", GenerateName:"", Namespace:"team-a", ${EMPTY_META_TAIL}: must be empty except for namespace`);
  });

  it('metadata of zero values is empty (Semantic.DeepEqual with an empty ObjectMeta)', async () => {
    const r = await local('team-a', { metadata: { name: '', labels: {}, generation: 0, resourceVersion: '', finalizers: [] }, spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'secrets', namespace: 'team-a' } } });
    assert.equal(r.status, 201, r.text);
    // Echoed as encoding/json writes ObjectMeta: its zero values are omitempty, creationTimestamp is not.
    assert.deepEqual(r.json.metadata, { namespace: 'team-a', creationTimestamp: null });
  });

  it('SelfSubjectAccessReview answers for the caller, and needs no rights beyond creating it', async () => {
    const ask = (user: string, resourceAttributes: Record<string, unknown>) =>
      as(user).post(SSAR, { apiVersion: `${G}/v1`, kind: 'SelfSubjectAccessReview', spec: { resourceAttributes } });
    let r = await ask('alice', csrAttrs('get'));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.status.allowed, true);
    r = await ask('bob', csrAttrs('get'));
    assert.equal(r.json.status.allowed, false);
    r = await ask('bob', csrAttrs('update', { subresource: 'approval' }));
    assert.equal(r.json.status.allowed, true);
    r = await as('carol').post(SSAR, { apiVersion: `${G}/v1`, kind: 'SelfSubjectAccessReview', spec: { user: 'alice', resourceAttributes: csrAttrs('get') } });
    assert.equal(r.status, 201, 'spec.user is not part of a self review: it is pruned, the caller is asked about');
    assert.equal(r.json.status.allowed, false);
  });

  it('LocalSubjectAccessReview: the namespace of the URL, the object and the attributes must agree', async () => {
    let r = await local('team-a', { spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'secrets', namespace: 'team-a' } } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.metadata.namespace, 'team-a');
    assert.equal(r.json.status.allowed, true);
    r = await local('team-a', { spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'secrets', namespace: 'team-b' } } });
    assert.equal(r.status, 422, r.text);
    assert.match(r.json.message, /spec\.resourceAttributes\.namespace: Invalid value: "team-b": must match metadata\.namespace/);
    r = await local('team-a', { metadata: { namespace: 'team-b' }, spec: { user: 'bob', resourceAttributes: { verb: 'get', resource: 'secrets', namespace: 'team-b' } } });
    assert.equal(r.status, 400, r.text);
    r = await local('team-a', { spec: { user: 'bob', nonResourceAttributes: { path: '/x', verb: 'get' } } });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.message, '.authorization.platform "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: disallowed on this kind of request');
  });

  it('creating a SubjectAccessReview is itself authorized (carol may not ask about others)', async () => {
    const r = await as('carol').post(SAR, { apiVersion: `${G}/v1`, kind: 'SubjectAccessReview', spec: { user: 'alice', resourceAttributes: csrAttrs('get') } });
    assert.equal(r.status, 403, r.text);
  });

  it('plat auth can-i answers for three users (exit 0 yes, 1 no)', async () => {
    const ca = readFileSync(path.join(plat.dataDir, 'pki', 'ca.crt')).toString('base64');
    const kubeconfig = (user: string) => {
      const file = path.join(dir, `${user}.conf`);
      writeFileSync(file, [
        'apiVersion: v1', 'kind: Config',
        'clusters:', '- name: plat', '  cluster:', `    server: ${plat.url}`, `    certificate-authority-data: ${ca}`,
        'users:', `- name: ${user}`, '  user:', `    token: ${TOKENS[user]}`,
        'contexts:', '- name: c', '  context:', '    cluster: plat', `    user: ${user}`, 'current-context: c', '',
      ].join('\n'));
      return file;
    };
    const canI = (user: string, ...args: string[]) => runPlatAsync(['auth', 'can-i', ...args, '--platconfig', kubeconfig(user)]);
    const cases: [string, string[], number, RegExp][] = [
      ['alice', ['get', 'certificatesigningrequests'], 0, /^yes\n$/],
      ['alice', ['get', 'csr'], 0, /^yes\n$/],
      ['alice', ['create', 'certificatesigningrequests.certificates.platform'], 1, /^no - Everything is forbidden\.\n$/],
      ['bob', ['create', 'certificatesigningrequest'], 0, /^yes\n$/],
      ['bob', ['update', 'csr', '--subresource', 'approval'], 0, /^yes\n$/],
      ['bob', ['get', 'secrets', '-n', 'team-a'], 0, /^yes\n$/],
      ['bob', ['get', 'secrets', '-n', 'team-b'], 1, /^no/],
      ['carol', ['get', 'csr'], 1, /^no/],
      ['carol', ['get', '/healthz'], 0, /^yes\n$/],
    ];
    for (const [user, args, code, out] of cases) {
      const r = await canI(user, ...args);
      assert.equal(r.code, code, `${user} ${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout, out, `${user} ${args.join(' ')}`);
    }
    // Types discovery does not list are still asked about, with kubectl's warning: signers above all.
    const signer = await canI('carol', 'approve', 'signers.certificates.platform/example.com/widgets');
    assert.equal(signer.code, 0, signer.stderr);
    assert.equal(signer.stdout, 'yes\n');
    // kubectl's text (cani.go resourceFor): resource and group apart, single quotes; its WarningPrinter adds a blank line.
    assert.equal(signer.stderr, "Warning: the server doesn't have a resource type 'signers' in group 'certificates.platform'\n\n");
    const groupless = await canI('carol', 'get', 'Widgets');
    assert.equal(groupless.stderr, "Warning: the server doesn't have a resource type 'widgets'\n\n");
    // kubectl's nonStandardResourceNames: users and groups are impersonated, never served, so asked about without a warning.
    const nonStandard: [string, string][] = [
      ['users', ''],
      ['groups', ''],
      ['Users', ''],
      ['users.example.com', "Warning: the server doesn't have a resource type 'users' in group 'example.com'\n\n"],
    ];
    for (const [type, warning] of nonStandard) assert.equal((await canI('carol', 'impersonate', type)).stderr, warning, type);
    const other = await canI('carol', 'approve', 'signers.certificates.platform/example.com/gadgets');
    assert.equal(other.code, 1);
    const noKubeconfig = await runPlatAsync(['auth', 'can-i', 'get', 'csr', '--platconfig', path.join(dir, 'missing.conf')]);
    assert.equal(noKubeconfig.code, 1, 'errors are exit 1, as kubectl\'s CheckErr');
    // The kubeconfig rule of plat csr (and kubectl's variable): --kubeconfig, $PLATCONFIG, $KUBECONFIG.
    const env = (vars: Record<string, string>, ...args: string[]) =>
      runPlatAsync(['auth', 'can-i', 'get', 'csr', ...args], { cwd: dir, env: { PLATCONFIG: '', KUBECONFIG: '', ...vars } });
    assert.equal((await env({}, '--kubeconfig', kubeconfig('alice'))).stdout, 'yes\n');
    assert.equal((await env({ KUBECONFIG: kubeconfig('carol') })).code, 1, 'carol through $KUBECONFIG');
    assert.equal((await env({ KUBECONFIG: [path.join(dir, 'missing.conf'), kubeconfig('alice')].join(path.delimiter) })).code, 0, 'the first existing entry');
    assert.equal((await env({ PLATCONFIG: kubeconfig('alice'), KUBECONFIG: kubeconfig('carol') })).code, 0, '$PLATCONFIG first');
    const none = await env({});
    assert.equal(none.code, 1);
    assert.match(none.stderr, /\.plat\/admin\.conf/, 'the default when nothing names one');
  });
});
