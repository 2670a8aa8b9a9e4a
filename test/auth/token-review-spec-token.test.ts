// A TokenReview's spec.token goes to the token authenticators as it is (upstream's tokenreview REST
// calls AuthenticateToken with it), not through an Authorization header, whose bearer token ends
// at the first space: `<a valid token> anything` is not that token, and a token-file token with a
// space in it is one.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const TOKEN_REVIEWS = '/apis/authentication.platform/v1/tokenreviews';

describe('TokenReview spec.token', () => {
  let plat: RunningPlat;
  before(async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'tokens.csv'), 'sekret,alice,uid-a\n"two words",bob,uid-b\n');
    plat = await startInProcess({ args: ['--token-auth-file', path.join(dir, 'tokens.csv')] });
  });
  after(async () => { await plat?.stop(); });

  const review = async (token: string) => {
    const r = await plat.admin.post(TOKEN_REVIEWS, { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token } });
    assert.equal(r.status, 201, r.text);
    return r.json.status as { authenticated?: boolean; user?: { username: string }; error?: string };
  };

  // [spec.token, the user (or undefined: not authenticated)]
  const CASES: [string, string | undefined][] = [
    ['sekret', 'alice'],
    ['sekret trailing', undefined],
    ['sekret ', undefined],
    [' sekret', undefined],
    ['two words', 'bob'],
    ['two', undefined],
  ];
  for (const [token, user] of CASES) {
    it(`${JSON.stringify(token)}: ${user ?? 'not authenticated'}`, async () => {
      const status = await review(token);
      assert.equal(status.user?.username, user, JSON.stringify(status));
      assert.equal(status.authenticated ?? false, user !== undefined);
      if (user === undefined) assert.equal(status.error, 'invalid bearer token');
    });
  }
});
