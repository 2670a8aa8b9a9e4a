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
  // Not valid service account names (SplitUsername validates): these are plain users.
  { user: 'alice', verb: 'impersonate', resource: 'users', name: 'system:serviceaccount:ns1:Bad_Name', decision: 'allow' },
  { user: 'alice', verb: 'impersonate', resource: 'users', name: 'system:serviceaccount:ns1:a b', decision: 'allow' },
  { user: 'alice', verb: 'impersonate', resource: 'users', name: 'system:serviceaccount:NS1:x', decision: 'allow' },
  { user: 'alice', verb: 'impersonate', resource: 'users', name: 'system:serviceaccount:ns1:', decision: 'allow' },
  { user: 'alice', verb: 'impersonate', resource: 'serviceaccounts', namespace: 'ns1', name: 'robot.v2', decision: 'allow' },
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

  it('header names in any case, as Go canonicalises them', async () => {
    for (const user of ['IMPERSONATE-USER', 'impersonate-user', 'iMpErSoNaTe-UsEr']) {
      const r = await create({ [user]: 'bob' });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json.spec.username, 'bob', user);
    }
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

  it('a user name that is not a valid service account name is a plain user: users, no service account groups', async () => {
    const cases: [string, string, string[]][] = [
      ['system:serviceaccount:ns1:Bad_Name', 'system:serviceaccount:ns1:Bad_Name', ['system:authenticated']],
      ['system:serviceaccount:ns1:a b', 'system:serviceaccount:ns1:a b', ['system:authenticated']],
      ['system:serviceaccount:NS1:x', 'system:serviceaccount:NS1:x', ['system:authenticated']],
      ['system:serviceaccount:ns1:', 'system:serviceaccount:ns1:', ['system:authenticated']],
      // A DNS-1123 subdomain is a valid service account name.
      ['system:serviceaccount:ns1:robot.v2', 'system:serviceaccount:ns1:robot.v2', ['system:serviceaccounts', 'system:serviceaccounts:ns1', 'system:authenticated']],
    ];
    for (const [as, username, groups] of cases) {
      const r = await create({ 'Impersonate-User': as });
      assert.equal(r.status, 201, `${as}: ${r.text}`);
      assert.equal(r.json.spec.username, username);
      assert.deepEqual(r.json.spec.groups, groups, as);
    }
    const denied = await create({ 'Impersonate-User': 'system:serviceaccount:NS2:x' });
    assert.equal(denied.status, 403, denied.text);
    assert.equal(denied.json.message, 'users "system:serviceaccount:NS2:x" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope: Everything is forbidden.');
  });

  it('groups, extras or a uid without a user: upstream\'s plain-text 500 with the %v of the object references', async () => {
    const cases: [Record<string, string | string[]>, string][] = [
      [{ 'Impersonate-Group': ['devs', 'ops'] }, '[{Group  devs    } {Group  ops    }]'],
      [{ 'Impersonate-Uid': 'u1' }, '[{UID  u1  authentication.platform/v1  }]'],
      [{ 'Impersonate-Extra-Scopes': 'a' }, '[{UserExtra  a  authentication.platform/v1  scopes}]'],
      [{ 'Impersonate-Group': 'devs', 'Impersonate-Extra-Example.com%2fScopes': 'view', 'Impersonate-Uid': 'u1' },
        '[{Group  devs    } {UserExtra  view  authentication.platform/v1  example.com/scopes} {UID  u1  authentication.platform/v1  }]'],
    ];
    for (const [headers, refs] of cases) {
      const r = await plat.admin.with({ token: ALICE }).request('POST', `${CSRS}?dryRun=All&x=%3C%22a%22%3E`, baseCsr(fx, `imp-${n++}`), headers as Record<string, string>);
      assert.equal(r.status, 500, r.text);
      assert.equal(r.headers['content-type'], 'text/plain; charset=utf-8');
      assert.equal(r.headers['x-content-type-options'], 'nosniff');
      assert.equal(r.text, `Internal Server Error: "${CSRS}?dryRun=All&amp;x=%3C%22a%22%3E": requested ${refs} without impersonating a user\n`);
    }
  });

  it('repeated Impersonate-Group headers are separate groups', async () => {
    const rules2 = plat.admin.with({ token: ALICE });
    const r = await rules2.request('POST', CSRS, baseCsr(fx, `imp-${n++}`), { 'Impersonate-User': 'bob', 'Impersonate-Group': ['team-a', 'team-b'] } as unknown as Record<string, string>);
    assert.equal(r.status, 403, 'team-b is not allowed, and "team-a, team-b" is not read as one group');
    assert.match(r.json.message, /^groups "team-b" is forbidden/);
  });
});
