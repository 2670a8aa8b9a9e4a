// A real plat with --authorization-mode=RBAC and static-token users, for the RBAC end-to-end tests.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { startInProcess, tempDir, type Client, type RunningPlat } from '../helpers/plat.js';
import type { Plugin } from '../../core/plugin.js';

export const RBAC = '/apis/rbac.authorization.platform/v1';
export const CLUSTER_ROLES = `${RBAC}/clusterroles`;
export const CLUSTER_ROLE_BINDINGS = `${RBAC}/clusterrolebindings`;
export const ROLES = (ns: string) => `${RBAC}/namespaces/${ns}/roles`;
export const ROLE_BINDINGS = (ns: string) => `${RBAC}/namespaces/${ns}/rolebindings`;
export const NAMESPACES = '/api/v1/namespaces';
export const SECRETS = (ns: string) => `/api/v1/namespaces/${ns}/secrets`;
export const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

export interface TestUser { readonly name: string; readonly groups?: readonly string[] }

export interface RbacPlat extends RunningPlat {
  /** A client authenticated as one of the token users. */
  as(name: string): Client;
}

/** `plat all --authorization-mode=RBAC` with a token file: user `u` has token `token-u`. */
export async function startRbac(users: readonly TestUser[], opts: { args?: string[]; dataDir?: string; plugins?: Plugin[] } = {}): Promise<RbacPlat> {
  const dir = tempDir('plat-rbac-tokens-');
  const file = path.join(dir, 'tokens.csv');
  writeFileSync(file, users.map((u, i) => `token-${u.name},${u.name},uid-${i},"${(u.groups ?? []).join(',')}"`).join('\n') + '\n');
  const plat = await startInProcess({
    args: ['--authorization-mode=RBAC', `--token-auth-file=${file}`, ...(opts.args ?? [])],
    ...(opts.dataDir ? { dataDir: opts.dataDir } : {}),
    ...(opts.plugins ? { plugins: opts.plugins } : {}),
  });
  return Object.assign(plat, { as: (name: string) => plat.admin.with({ token: `token-${name}` }) });
}

export const rule = (verbs: string[], apiGroups: string[], resources: string[], resourceNames?: string[]) =>
  ({ verbs, apiGroups, resources, ...(resourceNames ? { resourceNames } : {}) });

export const clusterRole = (name: string, rules: unknown[], extra: Record<string, unknown> = {}) =>
  ({ apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRole', metadata: { name }, rules, ...extra });

export const role = (name: string, rules: unknown[]) =>
  ({ apiVersion: 'rbac.authorization.platform/v1', kind: 'Role', metadata: { name }, rules });

export const user = (name: string) => ({ kind: 'User', apiGroup: 'rbac.authorization.platform', name });
export const group = (name: string) => ({ kind: 'Group', apiGroup: 'rbac.authorization.platform', name });

export const clusterRoleBinding = (name: string, roleName: string, subjects: unknown[]) => ({
  apiVersion: 'rbac.authorization.platform/v1', kind: 'ClusterRoleBinding', metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.platform', kind: 'ClusterRole', name: roleName }, subjects,
});

export const roleBinding = (name: string, kind: 'Role' | 'ClusterRole', roleName: string, subjects: unknown[]) => ({
  apiVersion: 'rbac.authorization.platform/v1', kind: 'RoleBinding', metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.platform', kind, name: roleName }, subjects,
});

/** POSTs as `client` and insists on 201. */
export async function created(client: Client, p: string, body: unknown): Promise<any> {
  const r = await client.post(p, body);
  assert.equal(r.status, 201, `POST ${p}: ${r.text}`);
  return r.json;
}

export async function namespace(plat: RunningPlat, name: string): Promise<void> {
  await created(plat.admin, NAMESPACES, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
}
