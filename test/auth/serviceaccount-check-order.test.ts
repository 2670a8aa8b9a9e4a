// A service-account token that fails several checks at once is refused for the one upstream checks
// first: audience before time (jwtTokenAuthenticator, then the validator), then go-jose v2's
// ValidateWithLeeway order nbf, exp, iat, then the account's uid before its deletion (1.32's
// claims.go). The words are what a TokenReview reports and the server logs.
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { signJwt } from '../../core/authn/jwt.js';
import type { AuthenticationRequest } from '../../core/authn/user.js';
import { servedStore } from '../../core/registry/stores.js';
import { ServiceAccountTokenAuthenticator } from '../../plugins/serviceaccounts/token-authenticator.js';
import { robotToken } from './robot-token.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const SAS = '/api/v1/namespaces/default/serviceaccounts';
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

describe('service-account token checks: which failure is reported', () => {
  let plat: RunningPlat;
  let saKey: KeyObject;
  let template: Record<string, any>;

  before(async () => {
    plat = await startInProcess();
    saKey = createPrivateKey(readFileSync(path.join(plat.dataDir, 'pki', 'sa.key')));
    template = claimsOf(await robotToken(plat.admin));
  });
  after(async () => { await plat?.stop(); });

  const forged = (patch: (c: Record<string, any>) => void) => {
    const c = structuredClone(template);
    patch(c);
    return signJwt(c, saKey);
  };
  const reviewError = async (token: string) => {
    const r = await plat.admin.post('/apis/authentication.platform/v1/tokenreviews', { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.status.authenticated, false, r.text);
    return r.json.status.error as string;
  };

  it('reports the first failing check, in upstream\'s order', async () => {
    const now = Math.floor(Date.now() / 1000);
    const wrongAud = `token audiences ["elsewhere"] is invalid for the target audiences ${JSON.stringify(template.aud).replace(/,/g, ' ')}`;
    const cases: [string, (c: Record<string, any>) => void, string][] = [
      ['expired and not yet valid', (c) => { c.exp = now - 3600; c.nbf = now + 3600; c.iat = now; }, 'service account token is not valid yet'],
      ['expired, not yet valid and issued in the future', (c) => { c.exp = now - 3600; c.nbf = now + 3600; c.iat = now + 3600; }, 'service account token is not valid yet'],
      ['expired and issued in the future', (c) => { c.exp = now - 3600; c.nbf = now; c.iat = now + 3600; }, 'service account token has expired'],
      ['not yet valid and issued in the future', (c) => { c.nbf = now + 3600; c.iat = now + 3600; }, 'service account token is not valid yet'],
      ['wrong audience and expired', (c) => { c.aud = ['elsewhere']; c.exp = now - 3600; }, wrongAud],
      ['wrong audience and not yet valid', (c) => { c.aud = ['elsewhere']; c.nbf = now + 3600; }, wrongAud],
      ['expired and a forged account uid', (c) => { c.exp = now - 3600; c.platform.serviceaccount.uid = 'forged'; }, 'service account token has expired'],
      ['not yet valid and bound to a missing Secret', (c) => { c.nbf = now + 3600; c.platform.secret = { name: 'gone', uid: 'u' }; }, 'service account token is not valid yet'],
    ];
    for (const [why, patch, want] of cases) {
      assert.equal(await reviewError(forged(patch)), `[invalid bearer token, ${want}]`, why);
    }
  });

  it('a token go-jose\'s ParseSigned refuses is not the service-account authenticator\'s to word', async () => {
    const good = forged(() => {});
    const [h, p, sig] = good.split('.') as [string, string, string];
    const header = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const cases: [string, string][] = [
      ['signature not base64url', `${h}.${p}.***`],
      ['header not JSON', `${Buffer.from('{nope').toString('base64url')}.${p}.${sig}`],
      ['header a JSON array', `${header(['ES256'])}.${p}.${sig}`],
      ['kid a number', signJwt(claimsOf(good), saKey, { header: { kid: 7 } })],
      ['alg a number', `${header({ alg: 256 })}.${p}.${sig}`],
    ];
    // Upstream's AuthenticateToken answers (nil, false, nil): only the bearer wrapper's words remain.
    for (const [why, token] of cases) assert.equal(await reviewError(token), 'invalid bearer token', why);
    // A null kid is no kid (Go's header map holds no value for it): still ours, and good.
    const r = await plat.admin.post('/apis/authentication.platform/v1/tokenreviews', {
      apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token: signJwt(claimsOf(good), saKey, { header: { kid: null } }) },
    });
    assert.equal(r.json.status.authenticated, true, r.text);
  });

  it('a null time claim is an absent one (Go leaves the *NumericDate nil)', async () => {
    const r = await plat.admin.post('/apis/authentication.platform/v1/tokenreviews', {
      apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token: forged((c) => { c.nbf = null; c.iat = null; }) },
    });
    assert.equal(r.json.status.authenticated, true, r.text);
  });

  /** The plugin's authenticator over plat's own stores, at a clock of the test's choosing. */
  const authenticatorAt = (now: () => number) => {
    const host = plat.host!;
    const store = (plural: string) => () => servedStore(host, '', 'v1', plural);
    return new ServiceAccountTokenAuthenticator({
      issuers: [template.iss], keys: [createPublicKey(saKey)], apiAudiences: template.aud,
      lookup: { serviceAccounts: store('serviceaccounts'), secrets: store('secrets'), nodes: store('nodes'), pods: store('pods') },
      now,
    });
  };
  /** The reasons `authn` refuses `token` with. */
  const refusals = async (authn: ServiceAccountTokenAuthenticator, token: string) => {
    const reasons: string[] = [];
    const req: AuthenticationRequest = {
      method: 'GET', path: '/api', headers: { authorization: `Bearer ${token}` }, peerCertificate: undefined, peerChain: [],
      reject: (r) => { reasons.push(r); }, get rejected() { return reasons.length > 0; },
    };
    assert.equal(await authn.authenticate(req), undefined);
    return reasons;
  };

  it('exp is whole seconds, as go-jose v2\'s NumericDate (Go truncates the JSON number)', async () => {
    const second = Math.floor(Date.now() / 1000) + 10;
    // 60.3 s past second - 60 (expired after the leeway), 59.8 s past exp as written.
    const authn = authenticatorAt(() => second * 1000 + 300);
    assert.deepEqual(await refusals(authn, forged((c) => { c.exp = second - 60 + 0.5; })), ['service account token has expired']);
  });

  it('a token naming an account deleted over a minute ago, with another uid, is refused for the uid first', async () => {
    const made = await plat.admin.post(SAS, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'held', finalizers: ['example.com/hold'] } });
    assert.equal(made.status, 201, made.text);
    const del = await plat.admin.delete(`${SAS}/held`);
    assert.equal(del.status, 200, del.text);
    // Two minutes on: the deletion is older than the minute's leeway.
    const authn = authenticatorAt(() => Date.now() + 120_000);
    const tokenFor = (uid: string) => forged((c) => {
      c.sub = 'system:serviceaccount:default:held';
      c.platform.serviceaccount = { name: 'held', uid };
    });
    try {
      assert.deepEqual(await refusals(authn, tokenFor('another-uid')), [`service account UID (${made.json.metadata.uid}) does not match claim (another-uid)`]);
      assert.deepEqual(await refusals(authn, tokenFor(made.json.metadata.uid)), ['service account default/held has been deleted']);
    } finally {
      await plat.admin.patch(`${SAS}/held`, [{ op: 'remove', path: '/metadata/finalizers' }], 'application/json-patch+json');
    }
  });
});
