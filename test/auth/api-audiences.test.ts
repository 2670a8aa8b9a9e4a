// The token authenticators that know no audiences (the token file, bootstrap tokens, OIDC), as
// kube-apiserver wraps them (WrapAudienceAgnosticToken): a TokenReview's token is good for the
// asked-for audiences that are the API server's own (--api-audiences; plat all's default, its
// service-account issuer), reported in status.audiences; for none of them it is not authenticated,
// `invalid bearer token`. An authenticator that accepts a token and reports no audience makes the
// review a 500 (tokenreview's badAuthenticatorAuds). Ordinary requests are for the API audiences.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '../../core/plugin.js';
import { TestOidcIssuer } from '../helpers/oidc-issuer.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const API_AUDIENCE = 'https://platform.default.svc.cluster.local';
const TOKEN_REVIEWS = '/apis/authentication.platform/v1/tokenreviews';
const SELF_REVIEWS = '/apis/authentication.platform/v1/selfsubjectreviews';
const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const UNAWARE_TOKEN = 'audience-unaware-token';

/** A third-party authenticator that accepts one token and, unlike plat's own, reports no audiences. */
const AudienceUnawareAuthenticator: Plugin = {
  name: 'AudienceUnawareAuthenticator',
  apply(host) {
    host.hooks.authenticate.tap({ name: 'AudienceUnawareAuthenticator', stage: -1 }, (req) =>
      (req.headers.authorization === `Bearer ${UNAWARE_TOKEN}` ? { name: 'unaware', groups: [] } : undefined));
  },
};

describe('API audiences for the audience-agnostic token authenticators', () => {
  const issuer = new TestOidcIssuer();
  let plat: RunningPlat;
  const tokens: Record<string, { token: () => string; username: string }> = {
    'token file': { token: () => 'static-token-0123456789', username: 'erin' },
    'bootstrap token': { token: () => 'abcdef.0123456789abcdef', username: 'system:bootstrap:abcdef' },
    'OIDC token': { token: () => issuer.sign(issuer.claims()), username: '' },
  };

  before(async () => {
    const dir = tempDir();
    await issuer.start();
    writeFileSync(path.join(dir, 'tokens.csv'), 'static-token-0123456789,erin,erin-uid\n');
    writeFileSync(path.join(dir, 'issuer-ca.crt'), issuer.caPem);
    tokens['OIDC token']!.username = `${issuer.url}#alice-sub`;
    plat = await startInProcess({
      args: [
        '--token-auth-file', path.join(dir, 'tokens.csv'), '--enable-bootstrap-token-auth',
        '--oidc-issuer-url', issuer.url, '--oidc-client-id', 'plat-client', '--oidc-ca-file', path.join(dir, 'issuer-ca.crt'),
      ],
      plugins: [AudienceUnawareAuthenticator],
    });
    const secret = await plat.admin.post('/api/v1/namespaces/plat-system/secrets', {
      apiVersion: 'v1', kind: 'Secret', metadata: { name: 'bootstrap-token-abcdef' }, type: 'bootstrap.platform/token',
      stringData: { 'token-id': 'abcdef', 'token-secret': '0123456789abcdef', 'usage-bootstrap-authentication': 'true' },
    });
    assert.equal(secret.status, 201, secret.text);
    // Bounded: the issuer's keys are fetched in the background after start-up.
    const deadline = Date.now() + 20_000;
    while ((await plat.admin.with({ token: tokens['OIDC token']!.token() }).get(CSRS)).status === 401) {
      assert.ok(Date.now() < deadline, 'timed out waiting for the issuer keys');
      await new Promise((r) => setTimeout(r, 20));
    }
  });
  after(async () => { await plat?.stop(); await issuer.stop(); });

  const review = async (token: string, audiences?: string[]) => {
    const r = await plat.admin.post(TOKEN_REVIEWS, {
      apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token, ...(audiences ? { audiences } : {}) },
    });
    assert.equal(r.status, 201, r.text);
    return r.json.status;
  };

  const cases: Array<{ name: string; audiences?: string[]; want: { audiences: string[] } | 'refused' }> = [
    { name: 'no spec.audiences: the API audiences', want: { audiences: [API_AUDIENCE] } },
    { name: 'an API audience among others: that one', audiences: ['other-api', API_AUDIENCE], want: { audiences: [API_AUDIENCE] } },
    { name: 'only foreign audiences: not authenticated', audiences: ['other-api', 'third-api'], want: 'refused' },
  ];
  for (const [kind, t] of Object.entries(tokens)) {
    for (const c of cases) {
      it(`${kind}, ${c.name}`, async () => {
        const status = await review(t.token(), c.audiences);
        if (c.want === 'refused') {
          assert.deepEqual(status, { authenticated: false, error: 'invalid bearer token' });
          return;
        }
        assert.equal(status.authenticated, true, JSON.stringify(status));
        assert.equal(status.user.username, t.username);
        assert.deepEqual(status.audiences, c.want.audiences);
      });
    }
    it(`${kind}: an ordinary request bearing it is still that user`, async () => {
      const r = await plat.admin.with({ token: t.token() }).post(SELF_REVIEWS, { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' });
      assert.equal(r.status, 201, r.text);
      assert.equal(r.json.status.userInfo.username, t.username);
    });
  }

  it('a token accepted by an authenticator that reports no audiences: 500 error validating audiences', async () => {
    const r = await plat.admin.post(TOKEN_REVIEWS, { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token: UNAWARE_TOKEN } });
    assert.equal(r.status, 500, r.text);
    assert.equal(r.json.reason, 'InternalError');
    assert.equal(r.json.message, 'Internal error occurred: error validating audiences');
    const ordinary = await plat.admin.with({ token: UNAWARE_TOKEN }).post(SELF_REVIEWS, { apiVersion: 'authentication.platform/v1', kind: 'SelfSubjectReview' });
    assert.equal(ordinary.status, 201, 'the request filter accepts a response without audiences');
  });
});

describe('API audiences default to every service-account issuer', () => {
  let plat: RunningPlat;
  const ISSUERS = ['https://issuer-a.example', 'https://issuer-b.example'];
  before(async () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'tokens.csv'), 'static-token-0123456789,erin,erin-uid\n');
    plat = await startInProcess({
      args: ['--token-auth-file', path.join(dir, 'tokens.csv'), ...ISSUERS.flatMap((i) => ['--service-account-issuer', i])],
    });
  });
  after(async () => { await plat?.stop(); });

  it('a token is good for both issuers, and for the second one alone when asked for it', async () => {
    const review = async (audiences?: string[]) => (await plat.admin.post(TOKEN_REVIEWS, {
      apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token: 'static-token-0123456789', ...(audiences ? { audiences } : {}) },
    })).json.status;
    assert.deepEqual((await review()).audiences, ISSUERS);
    assert.deepEqual((await review([ISSUERS[1]!])).audiences, [ISSUERS[1]]);
  });
});
