// authentication.platform/v1 TokenReview and SelfSubjectReview over HTTPS: answered through the
// authenticate hook, never stored.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const G = '/apis/authentication.platform/v1';

describe('authentication review APIs', () => {
  let plat: RunningPlat;
  before(async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'tokens.csv'), 'review-me,erin,erin-uid,"audit"\n');
    plat = await startInProcess({ args: ['--token-auth-file', path.join(dir, 'tokens.csv')] });
  });
  after(async () => { await plat?.stop(); });

  it('TokenReview: a known token is authenticated with its user', async () => {
    const r = await plat.admin.post(`${G}/tokenreviews`, { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token: 'review-me' } });
    assert.equal(r.status, 201, r.text);
    // The token file is audience-agnostic: its tokens are good for the API audiences (plat all's: its issuer).
    assert.deepEqual(r.json.status, {
      authenticated: true, user: { username: 'erin', uid: 'erin-uid', groups: ['audit', 'system:authenticated'] },
      audiences: ['https://platform.default.svc.cluster.local'],
    });
    assert.equal(r.json.spec.token, 'review-me');
  });

  it('TokenReview: an unknown token is not authenticated, with the reason; an empty token is 400', async () => {
    const r = await plat.admin.post(`${G}/tokenreviews`, { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token: 'nope' } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.status.authenticated, false);
    assert.match(r.json.status.error, /invalid bearer token/);
    const empty = await plat.admin.post(`${G}/tokenreviews`, { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: {} });
    assert.equal(empty.status, 400);
    assert.equal(empty.json.message, 'token is required for TokenReview in authentication');
  });

  it('SelfSubjectReview: the caller as the server sees it', async () => {
    const r = await plat.admin.post(`${G}/selfsubjectreviews`, { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.status.userInfo.username, 'plat-admin');
    assert.deepEqual(r.json.status.userInfo.groups, ['system:masters', 'system:authenticated']);
    assert.match(r.json.status.userInfo.extra['authentication.platform/credential-id'][0], /^X509SHA256=[0-9a-f]{64}$/);
    const token = await plat.admin.with({ token: 'review-me' }).post(`${G}/selfsubjectreviews`, { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' });
    assert.equal(token.json.status.userInfo.username, 'erin');
  });

  it('reviews are create-only and never stored', async () => {
    assert.equal((await plat.admin.get(`${G}/tokenreviews`)).status, 405);
    const disc = await plat.admin.get(G);
    assert.deepEqual(disc.json.resources.map((r: any) => [r.name, r.verbs]), [['selfsubjectreviews', ['create']], ['tokenreviews', ['create']]]);
  });
});
