// The rule evaluation and comparison helpers against upstream's tables (rbac_test.go,
// policy_comparator_test.go, policy_compact_test.go), and the protobuf decoding of the kinds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Attributes } from '../../core/authz/attributes.js';
import { decodeBinding, decodeRole } from '../../plugins/rbac/protobuf.js';
import { compactRules, compactString, covers, ruleAllows } from '../../plugins/rbac/rules.js';
import type { PolicyRule } from '../../plugins/rbac/types.js';

const res = (verb: string, group: string, resource: string, subresource = '', name = '', namespace = 'ns'): Attributes => ({
  user: { name: 'u', groups: [] }, verb, isResourceRequest: true, path: '', apiGroup: group, apiVersion: 'v1',
  resource, subresource, namespace, name,
});
const url = (verb: string, path: string): Attributes => ({
  user: { name: 'u', groups: [] }, verb, isResourceRequest: false, path, apiGroup: '', apiVersion: '', resource: '', subresource: '', namespace: '', name: '',
});

describe('RuleAllows', () => {
  const cases: [string, PolicyRule, Attributes, boolean][] = [
    ['exact', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('get', '', 'pods'), true],
    ['other verb', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('list', '', 'pods'), false],
    ['verb star', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, res('escalate', '', 'pods'), true],
    ['other group', { verbs: ['get'], apiGroups: ['apps'], resources: ['pods'] }, res('get', '', 'pods'), false],
    ['group star', { verbs: ['get'], apiGroups: ['*'], resources: ['pods'] }, res('get', 'x.example', 'pods'), true],
    ['resource star covers subresources', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, res('get', '', 'pods', 'log'), true],
    ['the resource is not its subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, res('get', '', 'pods', 'log'), false],
    ['resource/subresource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, res('get', '', 'pods', 'log'), true],
    ['star/subresource', { verbs: ['get'], apiGroups: [''], resources: ['*/log'] }, res('get', '', 'nodes', 'log'), true],
    ['star/subresource, other subresource', { verbs: ['get'], apiGroups: [''], resources: ['*/log'] }, res('get', '', 'nodes', 'status'), false],
    ['star/subresource, no subresource', { verbs: ['get'], apiGroups: [''], resources: ['*/log'] }, res('get', '', 'nodes'), false],
    ['star/sub suffix only', { verbs: ['get'], apiGroups: [''], resources: ['*/tus'] }, res('get', '', 'nodes', 'status'), false],
    ['named', { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }, res('get', '', 'pods', '', 'a'), true],
    ['other name', { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }, res('get', '', 'pods', '', 'b'), false],
    ['names never match an unnamed request', { verbs: ['list', 'create'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }, res('create', '', 'pods'), false],
    ['a resource rule never allows a URL', { verbs: ['get'], apiGroups: ['*'], resources: ['*'] }, url('get', '/healthz'), false],
    ['url exact', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, url('get', '/healthz'), true],
    ['url star', { verbs: ['get'], nonResourceURLs: ['*'] }, url('get', '/anything'), true],
    ['url prefix star', { verbs: ['get'], nonResourceURLs: ['/api/*'] }, url('get', '/api/v1'), true],
    ['url prefix star is a string prefix', { verbs: ['get'], nonResourceURLs: ['/ap*'] }, url('get', '/apis'), true],
    ['url no star', { verbs: ['get'], nonResourceURLs: ['/api'] }, url('get', '/api/v1'), false],
    ['a URL rule never allows a resource', { verbs: ['*'], nonResourceURLs: ['*'] }, res('get', '', 'pods'), false],
    // plat serves upstream's X.k8s.io as X.platform: a rule or a request may name either.
    ['upstream group in the rule', { verbs: ['bind'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'] }, res('bind', 'rbac.authorization.platform', 'clusterroles'), true],
    ['upstream group in the request', { verbs: ['get'], apiGroups: ['certificates.platform'], resources: ['certificatesigningrequests'] }, res('get', 'certificates.k8s.io', 'certificatesigningrequests'), true],
    ['upstream name of another group', { verbs: ['get'], apiGroups: ['authorization.k8s.io'], resources: ['clusterroles'] }, res('get', 'rbac.authorization.platform', 'clusterroles'), false],
    ['only the k8s.io suffix is renamed', { verbs: ['get'], apiGroups: ['rbac.authorization.k8s.io.example'], resources: ['clusterroles'] }, res('get', 'rbac.authorization.platform', 'clusterroles'), false],
  ];
  for (const [name, rule, attrs, want] of cases) it(name, () => assert.equal(ruleAllows(attrs, rule), want));
});

describe('Covers', () => {
  const cases: [string, PolicyRule[], PolicyRule[], boolean, PolicyRule[]][] = [
    ['star covers all', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['get', 'delete'], apiGroups: ['a'], resources: ['b'], resourceNames: ['n'] }], true, []],
    ['a named owner does not cover unnamed', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], false,
      [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }]],
    ['an unnamed owner covers named', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['a', 'b'] }], true, []],
    ['split across owner rules', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }, { verbs: ['list'], apiGroups: [''], resources: ['pods'] }],
      [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }], true, []],
    ['urls by prefix', [{ verbs: ['get'], nonResourceURLs: ['/api/*'] }], [{ verbs: ['get'], nonResourceURLs: ['/api/v1', '/apis'] }], false,
      [{ verbs: ['get'], nonResourceURLs: ['/apis'] }]],
    ['*/sub covers any resource\'s sub (resourceCoversAll)', [{ verbs: ['get'], apiGroups: [''], resources: ['*/status'] }],
      [{ verbs: ['get'], apiGroups: [''], resources: ['nodes/status', 'pods/status'] }], true, []],
    ['*/sub covers neither the resource nor another sub', [{ verbs: ['get'], apiGroups: [''], resources: ['*/status'] }],
      [{ verbs: ['get'], apiGroups: [''], resources: ['nodes', 'nodes/log'] }], false,
      [{ verbs: ['get'], apiGroups: [''], resources: ['nodes'] }, { verbs: ['get'], apiGroups: [''], resources: ['nodes/log'] }]],
    ['an upstream group name covers and is covered by plat\'s', [{ verbs: ['*'], apiGroups: ['rbac.authorization.k8s.io'], resources: ['*'] }],
      [{ verbs: ['bind'], apiGroups: ['rbac.authorization.platform'], resources: ['clusterroles'] }], true, []],
    ['an upstream group name in the servant', [{ verbs: ['*'], apiGroups: ['authentication.platform'], resources: ['userextras/scopes'] }],
      [{ verbs: ['impersonate'], apiGroups: ['authentication.k8s.io', 'other.k8s.io'], resources: ['userextras/scopes'] }], false,
      [{ verbs: ['impersonate'], apiGroups: ['other.k8s.io'], resources: ['userextras/scopes'] }]],
    ['a resource owner does not cover URLs', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], [{ verbs: ['get'], nonResourceURLs: ['/x'] }], false,
      [{ verbs: ['get'], nonResourceURLs: ['/x'] }]],
  ];
  for (const [name, owner, servant, want, missing] of cases) {
    it(name, () => assert.deepEqual(covers(owner, servant), { covered: want, missing }));
  }
});

describe('CompactRules and CompactString', () => {
  it('merges verbs of one group/resource/name and prints Go %q lists', () => {
    const missing = covers([], [{ verbs: ['get', 'list'], apiGroups: ['', 'apps'], resources: ['pods'], resourceNames: ['a "q"'] }]).missing;
    assert.deepEqual(compactRules(missing).map(compactString).sort(), [
      '{APIGroups:[""], Resources:["pods"], ResourceNames:["a \\"q\\""], Verbs:["get" "list"]}',
      '{APIGroups:["apps"], Resources:["pods"], ResourceNames:["a \\"q\\""], Verbs:["get" "list"]}',
    ]);
    assert.equal(compactString({ verbs: ['get'], nonResourceURLs: ['/a', '/b'] }), '{NonResourceURLs:["/a" "/b"], Verbs:["get"]}');
  });
});

// ---- protobuf: a tiny writer, so the field numbers are checked against generated.proto ----
const varint = (n: number): number[] => { const out: number[] = []; while (n > 127) { out.push((n & 127) | 128); n >>>= 7; } out.push(n); return out; };
const field = (no: number, payload: Buffer | string): Buffer => {
  const b = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  return Buffer.concat([Buffer.from([...varint((no << 3) | 2), ...varint(b.length)]), b]);
};
const msg = (...parts: Buffer[]) => Buffer.concat(parts);

describe('protobuf decoding', () => {
  it('ClusterRole: metadata, rules (all five lists), aggregationRule selectors', () => {
    const raw = msg(
      field(1, msg(field(1, 'agg'), field(11, msg(field(1, 'k'), field(2, 'v'))))),
      field(2, msg(field(1, 'get'), field(1, 'list'), field(2, ''), field(3, 'pods'), field(4, 'p1'))),
      field(2, msg(field(1, 'get'), field(5, '/healthz'))),
      field(3, msg(field(1, msg(field(1, msg(field(1, 'team'), field(2, 'a'))), field(2, msg(field(1, 'tier'), field(2, 'In'), field(3, 'x'), field(3, 'y'))))))),
    );
    assert.deepEqual(decodeRole(raw), {
      metadata: { name: 'agg', labels: { k: 'v' } },
      rules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'], resourceNames: ['p1'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }],
      aggregationRule: { clusterRoleSelectors: [{ matchLabels: { team: 'a' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['x', 'y'] }] }] },
    });
  });

  it('RoleBinding: subjects (kind, apiGroup, name, namespace) and roleRef', () => {
    const raw = msg(
      field(1, field(1, 'rb')),
      field(2, msg(field(1, 'ServiceAccount'), field(3, 'robot'), field(4, 'ci'))),
      field(2, msg(field(1, 'User'), field(2, 'rbac.authorization.platform'), field(3, 'alice'))),
      field(3, msg(field(1, 'rbac.authorization.platform'), field(2, 'Role'), field(3, 'reader'))),
    );
    assert.deepEqual(decodeBinding(raw), {
      metadata: { name: 'rb' },
      subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: 'ci' }, { kind: 'User', apiGroup: 'rbac.authorization.platform', name: 'alice' }],
      roleRef: { apiGroup: 'rbac.authorization.platform', kind: 'Role', name: 'reader' },
    });
  });
});
