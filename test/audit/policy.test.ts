// The audit policy: which rule a request meets (upstream's checker: the first matching rule, its
// omitStages joined with the policy's, level None when none matches), and the policy file's
// errors in upstream's words, naming the file and the field.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PolicyEvaluator, type AuditAttributes, type PolicyRule } from '../../core/audit/policy.js';
import { loadPolicyFile } from '../../core/audit/policy-file.js';
import { tempDir } from '../helpers/plat.js';
import { bootRefusal } from '../helpers/boot-refusal.js';
import { writePolicy } from './support.js';

const rule = (r: Partial<PolicyRule>): PolicyRule => ({
  level: 'Metadata', users: [], userGroups: [], verbs: [], resources: [], namespaces: [], nonResourceURLs: [], omitStages: [], ...r,
});
const csr = (o: Partial<AuditAttributes> = {}): AuditAttributes => ({
  user: { name: 'alice', groups: ['devs', 'system:authenticated'] }, verb: 'get', isResourceRequest: true, path: '/apis/certificates.platform/v1/certificatesigningrequests/a',
  namespace: '', apiGroup: 'certificates.platform', resource: 'certificatesigningrequests', subresource: '', name: 'a', ...o,
});
const withoutUser = ({ user: _user, ...rest }: AuditAttributes): AuditAttributes => rest;
const nonResource = (path: string, o: Partial<AuditAttributes> = {}): AuditAttributes => csr({ isResourceRequest: false, path, verb: 'get', apiGroup: '', resource: '', name: '', ...o });

describe('audit policy rules', () => {
  const cases: { name: string; rules: Partial<PolicyRule>[]; attrs: AuditAttributes; level: string }[] = [
    { name: 'no rule matches: None', rules: [{ users: ['bob'] }], attrs: csr(), level: 'None' },
    { name: 'first matching rule wins', rules: [{ level: 'Request', verbs: ['get'] }, { level: 'RequestResponse' }], attrs: csr(), level: 'Request' },
    { name: 'users', rules: [{ level: 'Request', users: ['alice'] }], attrs: csr(), level: 'Request' },
    { name: 'users: no user (a failed authentication) never matches', rules: [{ users: ['alice'] }], attrs: withoutUser(csr()), level: 'None' },
    { name: 'userGroups: any group', rules: [{ userGroups: ['ops', 'devs'] }], attrs: csr(), level: 'Metadata' },
    { name: 'userGroups: none of them', rules: [{ userGroups: ['ops'] }], attrs: csr(), level: 'None' },
    { name: 'verbs', rules: [{ verbs: ['create'] }], attrs: csr(), level: 'None' },
    { name: 'resources: group only', rules: [{ resources: [{ group: 'certificates.platform', resources: [], resourceNames: [] }] }], attrs: csr(), level: 'Metadata' },
    { name: 'resources: other group', rules: [{ resources: [{ group: '', resources: [], resourceNames: [] }] }], attrs: csr(), level: 'None' },
    { name: 'resources: *', rules: [{ resources: [{ group: 'certificates.platform', resources: ['*'], resourceNames: [] }] }], attrs: csr(), level: 'Metadata' },
    { name: 'resources: a subresource needs resource/sub', rules: [{ resources: [{ group: 'certificates.platform', resources: ['certificatesigningrequests'], resourceNames: [] }] }], attrs: csr({ subresource: 'approval' }), level: 'None' },
    { name: 'resources: resource/sub', rules: [{ resources: [{ group: 'certificates.platform', resources: ['certificatesigningrequests/approval'], resourceNames: [] }] }], attrs: csr({ subresource: 'approval' }), level: 'Metadata' },
    { name: 'resources: */sub', rules: [{ resources: [{ group: 'certificates.platform', resources: ['*/approval'], resourceNames: [] }] }], attrs: csr({ subresource: 'approval' }), level: 'Metadata' },
    { name: 'resources: resource/*', rules: [{ resources: [{ group: 'certificates.platform', resources: ['certificatesigningrequests/*'], resourceNames: [] }] }], attrs: csr({ subresource: 'status' }), level: 'Metadata' },
    { name: 'resources: resourceNames', rules: [{ resources: [{ group: 'certificates.platform', resources: ['certificatesigningrequests'], resourceNames: ['b'] }] }], attrs: csr(), level: 'None' },
    { name: 'namespaces: cluster-scoped is ""', rules: [{ namespaces: [''] }], attrs: csr(), level: 'Metadata' },
    { name: 'namespaces: never a non-resource request', rules: [{ namespaces: [''] }], attrs: nonResource('/healthz'), level: 'None' },
    { name: 'nonResourceURLs: exact', rules: [{ nonResourceURLs: ['/healthz'] }], attrs: nonResource('/healthz'), level: 'Metadata' },
    { name: 'nonResourceURLs: * suffix', rules: [{ nonResourceURLs: ['/readyz*'] }], attrs: nonResource('/readyz/etcd'), level: 'Metadata' },
    { name: 'nonResourceURLs: never a resource request', rules: [{ nonResourceURLs: ['*'] }], attrs: csr(), level: 'None' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const p = new PolicyEvaluator({ rules: c.rules.map(rule), omitStages: [], omitManagedFields: false });
      assert.equal(p.evaluate(c.attrs).level, c.level);
    });
  }

  it("joins the policy's omitStages with the rule's, and a rule's omitManagedFields overrides the policy's", () => {
    const p = new PolicyEvaluator({
      rules: [rule({ verbs: ['get'], omitStages: ['ResponseStarted'], omitManagedFields: false }), rule({})],
      omitStages: ['RequestReceived'], omitManagedFields: true,
    });
    assert.deepEqual([...p.evaluate(csr()).omitStages].sort(), ['RequestReceived', 'ResponseStarted']);
    assert.equal(p.evaluate(csr()).omitManagedFields, false);
    assert.equal(p.evaluate(csr({ verb: 'list' })).omitManagedFields, true);
    assert.deepEqual(p.evaluate(nonResource('/x', { user: { name: 'x', groups: [] }, verb: 'post' })).omitStages, ['RequestReceived']);
  });
});

describe('audit policy file errors', () => {
  const dir = tempDir('plat-audit-policy-');
  const head = 'apiVersion: audit.platform/v1\nkind: Policy\n';
  const cases: { name: string; yaml: string; error: (f: string) => string }[] = [
    { name: 'no rules', yaml: head, error: (f) => `loading audit policy file: loaded illegal policy with 0 rules: from file ${f}` },
    { name: 'upstream group', yaml: 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules: [{level: None}]\n',
      error: (f) => `loading audit policy file: failed decoding: no kind "Policy" is registered for version "audit.k8s.io/v1" (plat's group is audit.platform: "audit.platform/v1"): from file ${f}` },
    { name: 'no kind', yaml: 'apiVersion: audit.platform/v1\nrules: []\n',
      error: (f) => `loading audit policy file: failed decoding: Object 'Kind' is missing in 'apiVersion: audit.platform/v1\nrules: []\n': from file ${f}` },
    { name: 'level missing and unknown', yaml: `${head}rules:\n- users: [a]\n- level: Everything\n`,
      error: (f) => `loading audit policy file: [rules[0].level: Required value, rules[1].level: Unsupported value: "Everything": supported values: "None", "Metadata", "Request", "RequestResponse"]: from file ${f}` },
    { name: 'non-resource URLs', yaml: `${head}rules:\n- level: Metadata\n  nonResourceURLs: ["healthz", "/a*b"]\n`,
      error: (f) => `loading audit policy file: [rules[0].nonResourceURLs[0]: Invalid value: "healthz": non-resource URL rules must begin with a '/' character, rules[0].nonResourceURLs[1]: Invalid value: "/a*b": non-resource URL wildcards '*' must be the final character of the rule]: from file ${f}` },
    { name: 'resources and non-resource URLs together', yaml: `${head}rules:\n- level: Metadata\n  namespaces: [a]\n  nonResourceURLs: ["/x"]\n`,
      error: (f) => `loading audit policy file: rules[0].nonResourceURLs: Invalid value: []string{"/x"}: rules cannot apply to both regular resources and non-resource URLs: from file ${f}` },
    { name: 'a group with a version, resourceNames without resources', yaml: `${head}rules:\n- level: Metadata\n  resources:\n  - group: rbac.authorization.platform/v1\n  - group: ""\n    resourceNames: [x]\n`,
      error: (f) => `loading audit policy file: [rules[0].resources.group: Invalid value: "rbac.authorization.platform/v1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*'), rules[0].resources.resourceNames: Invalid value: []string{"x"}: using resourceNames requires at least one resource]: from file ${f}` },
    { name: 'omitStages', yaml: `${head}rules:\n- level: Metadata\n  omitStages: [Done]\n`,
      error: (f) => `loading audit policy file: rules[0].omitStages[0]: Invalid value: "Done": allowed stages are RequestReceived,ResponseStarted,ResponseComplete,Panic: from file ${f}` },
  ];
  cases.forEach((c, i) => {
    it(c.name, () => {
      const f = writePolicy(dir, c.yaml, `p${i}.yaml`);
      assert.throws(() => loadPolicyFile(f), (e: Error) => { assert.equal(e.message, c.error(f)); return true; });
    });
  });

  it('a missing file', () => {
    assert.throws(() => loadPolicyFile('/nonexistent/policy.yaml'), { message: 'loading audit policy file: failed to read file path "/nonexistent/policy.yaml": open /nonexistent/policy.yaml: no such file or directory' });
  });

  it('JSON is read too', () => {
    const f = writePolicy(dir, JSON.stringify({ apiVersion: 'audit.platform/v1', kind: 'Policy', omitStages: ['RequestReceived'], rules: [{ level: 'Request' }] }), 'p.json');
    const p = loadPolicyFile(f);
    assert.equal(p.rules[0]!.level, 'Request');
    assert.deepEqual(p.omitStages, ['RequestReceived']);
  });

  it('plat apiserver refuses to start with a bad policy file (exit 1)', async () => {
    const f = writePolicy(dir, head, 'empty.yaml');
    const r = await bootRefusal('apiserver', ['--audit-policy-file', f, '--secure-port', '0', '--data-dir', tempDir()]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`plat apiserver: loading audit policy file: loaded illegal policy with 0 rules: from file ${f}\\n$`));
  });
});
