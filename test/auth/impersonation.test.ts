// Impersonation over HTTPS: a caller allowed to impersonate acts as the other user (a CSR it
// creates names that user), each header is authorized separately, and anything not allowed is a
// 403 that names the resource, as upstream's filter does.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { tableAuthorizer } from '../helpers/table-authorizer.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const ALICE = 'alice-token-0123456789';

const rules = tableAuthorizer([
  { group: 'system:masters', decision: 'allow' },
  { user: 'alice', verb: 'impersonate', resource: 'users', name: 'bob', decision: 'allow' },
  { user: 'alice', verb: 'impersonate', resource: 'users', name: 'system:anonymous', decision: 'allow' },
  { user: 'alice', verb: 'impersonate', resource: 'groups', name: 'team-a', decision: 'allow' },
  { user: 'alice', verb: 'impersonate', resource: 'serviceaccounts', namespace: 'default', name: 'robot', decision: 'allow' },
  { user: 'alice', verb: 'impersonate', apiGroup: 'authentication.platform', resource: 'userextras', subresource: 'example.com/scopes', name: 'view', decision: 'allow' },
  { user: 'alice', verb: 'impersonate', apiGroup: 'authentication.platform', resource: 'uids', name: 'uid-of-bob', decision: 'allow' },
  { user: 'alice', verb: 'impersonate', resource: 'users', name: 'mallory', decision: 'deny', reason: 'nobody becomes mallory' },
  { verb: 'create', resource: 'certificatesigningrequests', decision: 'allow' },
]);

describe('impersonation', () => {
  let plat: RunningPlat;
  const fx = fixtures();
  let n = 0;
  before(async () => {
    const dir = tempDir('plat-impersonation-');
    const tokens = path.join(dir, 'tokens.csv');
    writeFileSync(tokens, `${ALICE},alice,uid-a\n`);
    plat = await startInProcess({ args: ['--authorization-mode=AlwaysDeny', `--token-auth-file=${tokens}`, '--anonymous-auth=false'], plugins: [rules] });
  });
  after(async () => { await plat?.stop(); });

  const create = (headers: Record<string, string | string[]>) =>
    plat.admin.with({ token: ALICE }).request('POST', CSRS, baseCsr(fx, `imp-${n++}`), headers as Record<string, string>);

  it('acts as an allowed user: the CSR names the impersonated user, with system:authenticated', async () => {
    const r = await create({ 'Impersonate-User': 'bob' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.spec.username, 'bob');
    assert.deepEqual(r.json.spec.groups, ['system:authenticated']);
    assert.equal(r.json.spec.uid, undefined);
  });

  it('groups, extra (key unescaped and lowercased) and uid, each authorized', async () => {
    const r = await create({ 'Impersonate-User': 'bob', 'Impersonate-Group': 'team-a', 'Impersonate-Extra-Example.com%2fScopes': 'view', 'Impersonate-Uid': 'uid-of-bob' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.spec.username, 'bob');
    assert.equal(r.json.spec.uid, 'uid-of-bob');
    assert.deepEqual(r.json.spec.groups, ['team-a', 'system:authenticated']);
    assert.deepEqual(r.json.spec.extra, { 'example.com/scopes': ['view'] });
  });

  it('a service account gets its fixed groups when none are given', async () => {
    const r = await create({ 'Impersonate-User': 'system:serviceaccount:default:robot' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.spec.username, 'system:serviceaccount:default:robot');
    assert.deepEqual(r.json.spec.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
  });

  it('anonymous is in system:unauthenticated, not system:authenticated', async () => {
    const r = await create({ 'Impersonate-User': 'system:anonymous' });
    assert.equal(r.status, 201, r.text);
    assert.deepEqual(r.json.spec.groups, ['system:unauthenticated']);
  });

  it('anything not allowed is 403 naming the resource; nothing is stored', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ 'Impersonate-User': 'carol' }, 'users "carol" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope: Everything is forbidden.'],
      [{ 'Impersonate-User': 'mallory' }, 'users "mallory" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope: nobody becomes mallory'],
      [{ 'Impersonate-User': 'bob', 'Impersonate-Group': 'system:masters' }, 'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope: Everything is forbidden.'],
      [{ 'Impersonate-User': 'system:serviceaccount:kube:robot' }, 'serviceaccounts "robot" is forbidden: User "alice" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "kube": Everything is forbidden.'],
      [{ 'Impersonate-User': 'bob', 'Impersonate-Extra-Scopes': 'admin' }, 'userextras.authentication.platform "admin" is forbidden: User "alice" cannot impersonate resource "userextras/scopes" in API group "authentication.platform" at the cluster scope: Everything is forbidden.'],
    ];
    for (const [headers, message] of cases) {
      const name = `imp-${n}`;
      const r = await create(headers);
      assert.equal(r.status, 403, r.text);
      assert.equal(r.json.message, message);
      assert.equal((await plat.admin.get(`${CSRS}/${name}`)).status, 404);
    }
  });

  it('groups or extras without a user are refused', async () => {
    const r = await create({ 'Impersonate-Group': 'team-a' });
    assert.equal(r.status, 500, r.text);
    assert.match(r.json.message, /requested \[Group team-a\] without impersonating a user/);
  });

  it('repeated Impersonate-Group headers are separate groups', async () => {
    const rules2 = plat.admin.with({ token: ALICE });
    const r = await rules2.request('POST', CSRS, baseCsr(fx, `imp-${n++}`), { 'Impersonate-User': 'bob', 'Impersonate-Group': ['team-a', 'team-b'] } as unknown as Record<string, string>);
    assert.equal(r.status, 403, 'team-b is not allowed, and "team-a, team-b" is not read as one group');
    assert.match(r.json.message, /^groups "team-b" is forbidden/);
  });
});
