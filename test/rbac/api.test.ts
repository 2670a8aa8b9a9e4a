// The rbac.authorization.platform/v1 API over HTTPS: CRUD of the four kinds, v1 defaulting, the
// validation table of pkg/apis/rbac/validation (422 messages and field paths), and server-side
// tables as kubectl prints them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CLUSTER_ROLE_BINDINGS, CLUSTER_ROLES, RBAC, ROLE_BINDINGS, ROLES,
  clusterRole, clusterRoleBinding, created, role, roleBinding, rule, startRbac, user, type RbacPlat,
} from './support.js';

const G = 'rbac.authorization.platform';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

interface Case { name: string; path: string; body: unknown; kind: string; objName: string; causes: [string, string][] }

const sa = (name: string, namespace?: string) => ({ kind: 'ServiceAccount', name, ...(namespace ? { namespace } : {}) });

const cases: Case[] = [
  { name: 'a rule without verbs', path: ROLES('default'), kind: 'Role', objName: 'r1',
    body: role('r1', [{ apiGroups: [''], resources: ['secrets'] }]),
    causes: [['rules[0].verbs', 'Required value: verbs must contain at least one value']] },
  { name: 'a namespaced rule with non-resource URLs', path: ROLES('default'), kind: 'Role', objName: 'r2',
    body: role('r2', [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/version'] }]),
    causes: [['rules[0].nonResourceURLs', 'Invalid value: []string{"/healthz", "/version"}: namespaced rules cannot apply to non-resource URLs']] },
  { name: 'a resource rule without groups or resources', path: ROLES('default'), kind: 'Role', objName: 'r3',
    body: role('r3', [{ verbs: ['get'] }]),
    causes: [['rules[0].apiGroups', 'Required value: resource rules must supply at least one api group'],
      ['rules[0].resources', 'Required value: resource rules must supply at least one resource']] },
  { name: 'a rule with both resources and URLs', path: CLUSTER_ROLES, kind: 'ClusterRole', objName: 'c1',
    body: clusterRole('c1', [{ verbs: ['get'], resources: ['secrets'], nonResourceURLs: ['/x'] }]),
    causes: [['rules[0].nonResourceURLs', 'Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs']] },
  { name: 'an aggregationRule without selectors', path: CLUSTER_ROLES, kind: 'ClusterRole', objName: 'c2',
    body: clusterRole('c2', [], { aggregationRule: {} }),
    causes: [['aggregationRule.clusterRoleSelectors', 'Required value: at least one clusterRoleSelector required if aggregationRule is non-nil']] },
  { name: 'an aggregationRule with a bad selector', path: CLUSTER_ROLES, kind: 'ClusterRole', objName: 'c3',
    body: clusterRole('c3', [], { aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Near' }] }] } }),
    causes: [['aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator', 'Invalid value: "Near": not a valid selector operator'],
      ['aggregationRule.clusterRoleSelectors[0]', 'Invalid value: "null": invalid label selector.']] },
  { name: 'a name that is not a path segment', path: CLUSTER_ROLES, kind: 'ClusterRole', objName: 'a%b',
    body: clusterRole('a%b', []), causes: [['metadata.name', 'Invalid value: "a%b": may not contain \'%\'']] },
  { name: 'a binding without roleRef', path: ROLE_BINDINGS('default'), kind: 'RoleBinding', objName: 'b1',
    body: { apiVersion: `${G}/v1`, kind: 'RoleBinding', metadata: { name: 'b1' } },
    causes: [['roleRef.kind', 'Unsupported value: "": supported values: "Role", "ClusterRole"'], ['roleRef.name', 'Required value']] },
  { name: 'a roleRef in another group', path: ROLE_BINDINGS('default'), kind: 'RoleBinding', objName: 'b2',
    body: { ...roleBinding('b2', 'Role', 'x', []), roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'x' } },
    causes: [['roleRef.apiGroup', 'Unsupported value: "rbac.authorization.k8s.io": supported values: "rbac.authorization.platform"']] },
  { name: 'a roleRef name that is not a path segment', path: ROLE_BINDINGS('default'), kind: 'RoleBinding', objName: 'b3',
    body: roleBinding('b3', 'Role', 'a/b', []), causes: [['roleRef.name', 'Invalid value: "a/b": may not contain \'/\'']] },
  { name: 'bad subjects', path: ROLE_BINDINGS('default'), kind: 'RoleBinding', objName: 'b4',
    body: roleBinding('b4', 'Role', 'x', [
      { kind: 'Robot', name: 'r2d2' }, { kind: 'ServiceAccount', apiGroup: G, name: 'ok' }, sa('Bad_Name'),
      { kind: 'User', apiGroup: 'example.com', name: 'u' }, { kind: 'Group', apiGroup: G }]),
    causes: [
      ['subjects[0].kind', 'Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"'],
      ['subjects[1].apiGroup', 'Unsupported value: "rbac.authorization.platform": supported values: ""'],
      ['subjects[2].name', `Invalid value: "Bad_Name": ${SUBDOMAIN_MSG}`],
      ['subjects[3].apiGroup', 'Unsupported value: "example.com": supported values: "rbac.authorization.platform"'],
      ['subjects[4].name', 'Required value'],
    ] },
  { name: 'a ClusterRoleBinding to a Role', path: CLUSTER_ROLE_BINDINGS, kind: 'ClusterRoleBinding', objName: 'cb1',
    body: { ...clusterRoleBinding('cb1', 'x', []), roleRef: { apiGroup: G, kind: 'Role', name: 'x' } },
    causes: [['roleRef.kind', 'Unsupported value: "Role": supported values: "ClusterRole"']] },
  { name: 'a ClusterRoleBinding service account without namespace', path: CLUSTER_ROLE_BINDINGS, kind: 'ClusterRoleBinding', objName: 'cb2',
    body: clusterRoleBinding('cb2', 'x', [sa('robot')]), causes: [['subjects[0].namespace', 'Required value']] },
];

describe('rbac.authorization.platform/v1 API', () => {
  let plat: RbacPlat;
  before(async () => { plat = await startRbac([]); });
  after(async () => { await plat?.stop(); });

  it('is discoverable with the four resources', async () => {
    const r = await plat.admin.get(RBAC);
    assert.equal(r.status, 200);
    const got = r.json.resources.filter((x: any) => !x.name.includes('/')).map((x: any) => [x.name, x.kind, x.namespaced]).sort();
    assert.deepEqual(got, [
      ['clusterrolebindings', 'ClusterRoleBinding', false], ['clusterroles', 'ClusterRole', false],
      ['rolebindings', 'RoleBinding', true], ['roles', 'Role', true],
    ]);
  });

  for (const c of cases) {
    it(`refuses ${c.name} with 422`, async () => {
      const r = await plat.admin.post(c.path, c.body);
      assert.equal(r.status, 422, r.text);
      assert.equal(r.json.reason, 'Invalid');
      assert.equal(r.json.details.kind, c.kind);
      assert.equal(r.json.details.group, G);
      assert.deepEqual(r.json.details.causes.map((x: any) => [x.field, x.message]), c.causes);
      const agg = c.causes.map(([f, m]) => `${f}: ${m}`);
      assert.equal(r.json.message, `${c.kind}.${G} "${c.objName}" is invalid: ${agg.length === 1 ? agg[0] : `[${agg.join(', ')}]`}`);
    });
  }

  it('creates, reads, lists, patches and deletes each kind', async () => {
    const kinds: [string, string, unknown][] = [
      [CLUSTER_ROLES, 'crud-cr', clusterRole('crud-cr', [rule(['get'], [''], ['secrets'])])],
      [CLUSTER_ROLE_BINDINGS, 'crud-crb', clusterRoleBinding('crud-crb', 'crud-cr', [user('alice')])],
      [ROLES('default'), 'crud-r', role('crud-r', [rule(['get'], [''], ['secrets'])])],
      [ROLE_BINDINGS('default'), 'crud-rb', roleBinding('crud-rb', 'Role', 'crud-r', [user('alice')])],
    ];
    for (const [p, name, body] of kinds) {
      const obj = await created(plat.admin, p, body);
      assert.equal(obj.metadata.name, name);
      assert.ok(obj.metadata.uid && obj.metadata.resourceVersion && obj.metadata.creationTimestamp);
      assert.equal((await plat.admin.get(`${p}/${name}`)).json.metadata.uid, obj.metadata.uid);
      assert.ok((await plat.admin.get(p)).json.items.some((i: any) => i.metadata.name === name), `${p} lists ${name}`);
      const patched = await plat.admin.patch(`${p}/${name}`, { metadata: { labels: { patched: 'yes' } } }, 'application/merge-patch+json');
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.json.metadata.labels.patched, 'yes');
      assert.equal((await plat.admin.delete(`${p}/${name}`)).status, 200);
      assert.equal((await plat.admin.get(`${p}/${name}`)).status, 404);
    }
  });

  it('defaults roleRef.apiGroup and the apiGroup of User and Group subjects, not of service accounts', async () => {
    const obj = await created(plat.admin, ROLE_BINDINGS('default'), {
      apiVersion: `${G}/v1`, kind: 'RoleBinding', metadata: { name: 'defaulted' },
      roleRef: { kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', name: 'u' }, { kind: 'Group', name: 'g' }, { kind: 'ServiceAccount', name: 's' }],
    });
    assert.deepEqual(obj.roleRef, { apiGroup: G, kind: 'ClusterRole', name: 'view' });
    assert.deepEqual(obj.subjects, [
      { kind: 'User', name: 'u', apiGroup: G }, { kind: 'Group', name: 'g', apiGroup: G }, { kind: 'ServiceAccount', name: 's' },
    ]);
  });

  it('roleRef is immutable, with upstream\'s message', async () => {
    const obj = await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('fixed-ref', 'view', [user('u')]));
    const r = await plat.admin.put(`${CLUSTER_ROLE_BINDINGS}/fixed-ref`, { ...obj, roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'edit' } });
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.message, `ClusterRoleBinding.${G} "fixed-ref" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"${G}", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef`);
    assert.deepEqual(r.json.details.causes, [{ reason: 'FieldValueInvalid', field: 'roleRef', message: `Invalid value: rbac.RoleRef{APIGroup:"${G}", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef` }]);
    // Leaving the defaulted apiGroup out is no change.
    const same = await plat.admin.put(`${CLUSTER_ROLE_BINDINGS}/fixed-ref`, { ...obj, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [user('v')] });
    assert.equal(same.status, 200, same.text);
  });

  it('answers under the upstream group as a wire alias, converting group names, without listing it in discovery', async () => {
    const UP = 'rbac.authorization.k8s.io';
    const r = await plat.admin.post(`/apis/${UP}/v1/namespaces/default/rolebindings`, {
      apiVersion: `${UP}/v1`, kind: 'RoleBinding', metadata: { name: 'via-alias' },
      roleRef: { apiGroup: UP, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', apiGroup: UP, name: 'u' }],
    });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.apiVersion, `${UP}/v1`, 'the answer in the apiVersion the client sent');
    const asSent = { roleRef: { apiGroup: UP, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', apiGroup: UP, name: 'u' }] };
    const groupsOf = (o: any) => ({ roleRef: o.roleRef, subjects: o.subjects });
    assert.deepEqual(groupsOf(r.json), asSent, 'group names in the answer as the client sent them');
    const stored = (await plat.admin.get(`${ROLE_BINDINGS('default')}/via-alias`)).json;
    assert.equal(stored.apiVersion, `${G}/v1`);
    assert.equal(stored.roleRef.apiGroup, G);
    assert.deepEqual(stored.subjects, [{ kind: 'User', apiGroup: G, name: 'u' }]);
    const under = `/apis/${UP}/v1/namespaces/default/rolebindings`;
    const got = (await plat.admin.get(`${under}/via-alias`)).json;
    assert.equal(got.apiVersion, `${UP}/v1`);
    assert.deepEqual(groupsOf(got), asSent);
    const updated = await plat.admin.put(`${under}/via-alias`, { ...got, metadata: { ...got.metadata, labels: { a: 'b' } } });
    assert.equal(updated.status, 200, updated.text);
    assert.deepEqual(groupsOf(updated.json), asSent);
    const yaml = await plat.admin.get(`${under}/via-alias`, { accept: 'application/yaml' });
    assert.match(yaml.text, /^apiVersion: rbac\.authorization\.k8s\.io\/v1$/m);
    assert.match(yaml.text, /^  apiGroup: rbac\.authorization\.k8s\.io$/m);
    const list = (await plat.admin.get(under)).json;
    assert.equal(list.apiVersion, `${UP}/v1`);
    const item = list.items.find((i: any) => i.metadata.name === 'via-alias');
    assert.equal(item?.apiVersion, `${UP}/v1`);
    assert.deepEqual(groupsOf(item), asSent);
    // A watch that ends by itself: the synthetic ADDED, then the stream closes.
    const watched = await plat.admin.get(`${under}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dvia-alias`);
    const events = watched.text.trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(events.map((e: any) => [e.type, e.object.apiVersion, groupsOf(e.object)]), [['ADDED', `${UP}/v1`, asSent]]);
    assert.equal((await plat.admin.get(`/apis/${UP}/v1`)).status, 404, 'not discoverable');
    assert.ok(!(await plat.admin.get('/apis')).json.groups.some((g: any) => g.name === UP));
    // A ServiceAccount subject names no group: the one sent is quoted as sent, under the alias's name.
    const sa = await plat.admin.post(`/apis/${UP}/v1/clusterrolebindings`, {
      apiVersion: `${UP}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'sa-group' },
      roleRef: { apiGroup: UP, kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', apiGroup: UP, name: 'robot', namespace: 'default' }],
    });
    assert.equal(sa.status, 422, sa.text);
    assert.equal(sa.json.message, `ClusterRoleBinding.${UP} "sa-group" is invalid: subjects[0].apiGroup: Unsupported value: "${UP}": supported values: ""`);
    // Under the platform group the upstream name is not this group's: validation refuses it.
    const direct = await plat.admin.post(ROLE_BINDINGS('default'), { ...stored, metadata: { name: 'direct' }, roleRef: { apiGroup: UP, kind: 'ClusterRole', name: 'view' } });
    assert.equal(direct.status, 422, direct.text);
  });

  it('patches and applies under the wire alias against the object as read there, stored in this group\'s names', async () => {
    const UP = 'rbac.authorization.k8s.io';
    const under = `/apis/${UP}/v1/namespaces/default/rolebindings/patched-alias`;
    const upUser = (name: string) => ({ kind: 'User', apiGroup: UP, name });
    await created(plat.admin, ROLE_BINDINGS('default'), roleBinding('patched-alias', 'ClusterRole', 'view', [user('u')]));
    const applyYaml = (names: string[]) => [
      `apiVersion: ${UP}/v1`, 'kind: RoleBinding', 'metadata: {name: patched-alias, namespace: default}',
      `roleRef: {apiGroup: ${UP}, kind: ClusterRole, name: view}`, 'subjects:',
      ...names.map((n) => `- {kind: User, apiGroup: ${UP}, name: ${n}}`),
    ].join('\n');
    // [patch type, the patch built from the object as GET under the alias answers it, the subject it adds]
    const cases: [string, (read: any) => unknown, string][] = [
      ['application/merge-patch+json', (read) => ({ subjects: [...read.subjects, upUser('m')] }), 'm'],
      ['application/json-patch+json', () => [
        { op: 'test', path: '/roleRef/apiGroup', value: UP },
        { op: 'test', path: '/subjects/0/apiGroup', value: UP },
        { op: 'add', path: '/subjects/-', value: upUser('j') },
      ], 'j'],
      ['application/strategic-merge-patch+json', (read) => ({ subjects: [...read.subjects, upUser('s')] }), 's'],
      ['application/apply-patch+yaml', (read) => applyYaml([...read.subjects.map((x: any) => x.name), 'a']), 'a'],
    ];
    const names = ['u'];
    for (const [type, build, added] of cases) {
      const read = (await plat.admin.get(under)).json;
      // subjects is an atomic list the creator owns: the apply takes it over.
      const query = type === 'application/apply-patch+yaml' ? '?fieldManager=test&force=true' : '';
      const r = await plat.admin.patch(`${under}${query}`, build(read), type);
      assert.equal(r.status, 200, `${type}: ${r.text}`);
      names.push(added);
      assert.equal(r.json.apiVersion, `${UP}/v1`, type);
      assert.deepEqual([r.json.roleRef.apiGroup, r.json.subjects], [UP, names.map(upUser)], `${type}: the answer in the alias's names`);
      const stored = (await plat.admin.get(`${ROLE_BINDINGS('default')}/patched-alias`)).json;
      assert.deepEqual([stored.apiVersion, stored.roleRef.apiGroup, stored.subjects], [`${G}/v1`, G, names.map(user)], `${type}: stored in this group's names`);
    }
    // A JSON patch's test op sees the alias's names, not the stored ones.
    const stale = await plat.admin.patch(under, [{ op: 'test', path: '/roleRef/apiGroup', value: G }], 'application/json-patch+json');
    assert.equal(stale.status, 422, stale.text);
    // Applied under the alias where there is nothing yet: created in this group's names.
    const made = await plat.admin.patch(`${under.replace(/patched-alias$/, 'applied-alias')}?fieldManager=test`,
      applyYaml(['nora']).replace('name: patched-alias', 'name: applied-alias'), 'application/apply-patch+yaml');
    assert.equal(made.status, 201, made.text);
    assert.deepEqual([made.json.roleRef.apiGroup, made.json.subjects], [UP, [upUser('nora')]]);
    const stored = (await plat.admin.get(`${ROLE_BINDINGS('default')}/applied-alias`)).json;
    assert.deepEqual([stored.roleRef.apiGroup, stored.subjects], [G, [user('nora')]]);
  });

  it('no rules are "rules": null (no omitempty, nil from storage); no subjects are left out (omitempty)', async () => {
    const noRules = { rules: null };
    const agg = { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b' } }] } };
    // [name, collection, body without metadata.name, what the answer has beyond metadata]
    const table: [string, string, Record<string, unknown>, Record<string, unknown>][] = [
      ['role-empty', ROLES('default'), { kind: 'Role', rules: [] }, noRules],
      ['role-absent', ROLES('default'), { kind: 'Role' }, noRules],
      ['cr-empty', CLUSTER_ROLES, { kind: 'ClusterRole', rules: [] }, noRules],
      ['cr-aggregated', CLUSTER_ROLES, { kind: 'ClusterRole', ...agg }, { ...noRules, ...agg }],
      ['rb-empty', ROLE_BINDINGS('default'), { kind: 'RoleBinding', roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' }, subjects: [] },
        { roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' } }],
      ['crb-absent', CLUSTER_ROLE_BINDINGS, { kind: 'ClusterRoleBinding', roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' } },
        { roleRef: { apiGroup: G, kind: 'ClusterRole', name: 'view' } }],
    ];
    const rest = (o: any) => { const { apiVersion: _a, kind: _k, metadata: _m, ...others } = o; return others; };
    for (const [name, p, body, expected] of table) {
      const c = await plat.admin.post(p, { apiVersion: `${G}/v1`, metadata: { name }, ...body });
      assert.equal(c.status, 201, c.text);
      assert.deepEqual(rest(c.json), expected, `${name}: the create answer`);
      assert.deepEqual(rest((await plat.admin.get(`${p}/${name}`)).json), expected, `${name}: GET`);
      const put = await plat.admin.put(`${p}/${name}`, { ...c.json, ...body, metadata: c.json.metadata });
      assert.equal(put.status, 200, put.text);
      assert.deepEqual(rest(put.json), expected, `${name}: the update answer`);
    }
  });

  it('server-side tables: roles NAME CREATED AT, bindings NAME ROLE AGE and the wide subject columns', async () => {
    await created(plat.admin, CLUSTER_ROLES, clusterRole('tabled', [rule(['get'], [''], ['secrets'])]));
    await created(plat.admin, CLUSTER_ROLE_BINDINGS, clusterRoleBinding('tabled', 'tabled', [
      user('alice'), user('bob'), { kind: 'Group', apiGroup: G, name: 'ops' }, sa('robot', 'default'),
    ]));
    const roleTable = (await plat.admin.get(`${CLUSTER_ROLES}/tabled`, { accept: TABLE })).json;
    assert.deepEqual(roleTable.columnDefinitions.map((c: any) => [c.name, c.type, c.priority]), [['Name', 'string', 0], ['Created At', 'date', 0]]);
    const roleObj = (await plat.admin.get(`${CLUSTER_ROLES}/tabled`)).json;
    assert.deepEqual(roleTable.rows[0].cells, ['tabled', roleObj.metadata.creationTimestamp]);
    const bindingTable = (await plat.admin.get(`${CLUSTER_ROLE_BINDINGS}/tabled`, { accept: TABLE })).json;
    assert.deepEqual(bindingTable.columnDefinitions.map((c: any) => [c.name, c.priority]),
      [['Name', 0], ['Role', 0], ['Age', 0], ['Users', 1], ['Groups', 1], ['ServiceAccounts', 1]]);
    const [name, roleCell, age, ...subjects] = bindingTable.rows[0].cells;
    assert.equal(name, 'tabled');
    assert.equal(roleCell, 'ClusterRole/tabled');
    assert.match(age, /^\d+s$/);
    assert.deepEqual(subjects, ['alice, bob', 'ops', 'default/robot']);
  });
});
