// A Status answered under a wire alias names the resource as the client addressed it, as upstream
// builds its texts from the request's group (errors.NewInvalid's GroupKind, NewNotFound's and
// NewForbidden's GroupResource): `.authorization.k8s.io "" is invalid: ...` (the reviews' REST handlers name the decoded object's empty Kind),
// and details.group is that group. The same request under plat's own group names plat's. A
// forbidden request's reason still names the group the authorizers were asked about (plat's).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const MISSING_USER = 'spec.user: Invalid value: "": at least one of user or group must be specified';
const NO_ATTRIBUTES = 'spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified';
const VERBLESS = 'rules[0].verbs: Required value: verbs must contain at least one value';

interface Case {
  name: string; method: 'POST' | 'GET';
  /** The path and the body's apiVersion under `group`. */
  path: (group: string) => string; body?: (group: string) => unknown;
  /** plat's group and the alias's. */
  groups: [string, string];
  code: number;
  /** The message and details.kind with `group` in it. */
  message: (group: string) => string; kind: string | undefined;
}

const review = (kind: string, spec: unknown, meta: Record<string, string> = {}) => (group: string) =>
  ({ apiVersion: `${group}/v1`, kind, metadata: meta, spec });
const AUTHZ: [string, string] = ['authorization.platform', 'authorization.k8s.io'];
const RBAC: [string, string] = ['rbac.authorization.platform', 'rbac.authorization.k8s.io'];

const CASES: Case[] = [
  { name: 'SubjectAccessReview, no user or group', method: 'POST', groups: AUTHZ, code: 422, kind: undefined,
    path: (g) => `/apis/${g}/v1/subjectaccessreviews`, body: review('SubjectAccessReview', { resourceAttributes: { verb: 'get', resource: 'pods' } }),
    message: (g) => `.${g} "" is invalid: ${MISSING_USER}` },
  { name: 'SelfSubjectAccessReview, no attributes', method: 'POST', groups: AUTHZ, code: 422, kind: undefined,
    path: (g) => `/apis/${g}/v1/selfsubjectaccessreviews`, body: review('SelfSubjectAccessReview', {}),
    message: (g) => `.${g} "" is invalid: ${NO_ATTRIBUTES}` },
  { name: 'LocalSubjectAccessReview, another namespace', method: 'POST', groups: AUTHZ, code: 422, kind: undefined,
    path: (g) => `/apis/${g}/v1/namespaces/team/localsubjectaccessreviews`,
    body: review('LocalSubjectAccessReview', { user: 'u', resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'other' } }, { namespace: 'team' }),
    message: (g) => `.${g} "" is invalid: spec.resourceAttributes.namespace: Invalid value: "other": must match metadata.namespace` },
  { name: 'ClusterRole, a rule without verbs', method: 'POST', groups: RBAC, code: 422, kind: 'ClusterRole',
    path: (g) => `/apis/${g}/v1/clusterroles`,
    body: (g) => ({ apiVersion: `${g}/v1`, kind: 'ClusterRole', metadata: { name: 'verbless' }, rules: [{ apiGroups: [''], resources: ['pods'] }] }),
    message: (g) => `ClusterRole.${g} "verbless" is invalid: ${VERBLESS}` },
  { name: 'Role, not found', method: 'GET', groups: RBAC, code: 404, kind: 'roles',
    path: (g) => `/apis/${g}/v1/namespaces/default/roles/nowhere`, message: (g) => `roles.${g} "nowhere" not found` },
  { name: 'ClusterRole, already exists', method: 'POST', groups: RBAC, code: 409, kind: 'clusterroles',
    path: (g) => `/apis/${g}/v1/clusterroles`,
    body: (g) => ({ apiVersion: `${g}/v1`, kind: 'ClusterRole', metadata: { name: 'existing' }, rules: [] }),
    message: (g) => `clusterroles.${g} "existing" already exists` },
];

describe('Statuses under a wire alias name the group the client used', () => {
  let plat: RunningPlat;
  before(async () => {
    const dir = tempDir('plat-alias-status-');
    writeFileSync(path.join(dir, 'tokens.csv'), 'token-for-nobody,nobody,nobody-uid\n');
    plat = await startInProcess({ args: ['--authorization-mode=RBAC', '--token-auth-file', path.join(dir, 'tokens.csv')] });
    const made = await plat.admin.post(`/apis/${RBAC[0]}/v1/clusterroles`, { apiVersion: `${RBAC[0]}/v1`, kind: 'ClusterRole', metadata: { name: 'existing' }, rules: [] });
    assert.equal(made.status, 201, made.text);
  });
  after(async () => { await plat?.stop(); });

  for (const c of CASES) {
    it(`${c.name}: under ${c.groups[1]} named so, under ${c.groups[0]} named so`, async () => {
      for (const group of [c.groups[1], c.groups[0]]) {
        const r = await plat.admin.request(c.method, c.path(group), c.body?.(group));
        assert.equal(r.status, c.code, r.text);
        const s = r.json as { message: string; details: { group: string; kind?: string } };
        assert.equal(s.message, c.message(group));
        assert.deepEqual([s.details.group, s.details.kind], [group, c.kind]);
      }
    });
  }

  // [what, path under the group, the resource]: each refused to a user no authorizer allows anything.
  const FORBIDDEN: [string, (g: string) => string, string, [string, string]][] = [
    ['TokenReview', (g) => `/apis/${g}/v1/tokenreviews`, 'tokenreviews', ['authentication.platform', 'authentication.k8s.io']],
    ['SubjectAccessReview', (g) => `/apis/${g}/v1/subjectaccessreviews`, 'subjectaccessreviews', AUTHZ],
    ['ClusterRole', (g) => `/apis/${g}/v1/clusterroles`, 'clusterroles', RBAC],
  ];
  for (const [what, at, resource, [own, alias]] of FORBIDDEN) {
    it(`${what}: forbidden under ${alias} names it, and the group authorized (${own})`, async () => {
      const nobody = plat.admin.with({ token: 'token-for-nobody' });
      for (const group of [alias, own]) {
        const r = await nobody.post(at(group), {});
        assert.equal(r.status, 403, r.text);
        const s = r.json as { message: string; details: { group: string; kind?: string } };
        assert.equal(s.message, `${resource}.${group} is forbidden: User "nobody" cannot create resource "${resource}" in API group "${own}" at the cluster scope`);
        assert.deepEqual([s.details.group, s.details.kind], [group, resource]);
      }
    });
  }
});
