// Base64 padding and whitespace in compact JWS tokens, as Kubernetes 1.32 reads them. go-jose v2's
// ParseSigned (both service-account and OIDC tokens) strips whitespace and trailing '=' from every
// part and checks the signature over the parts re-encoded unpadded; but both authenticators first
// route by the payload's `iss` with base64.RawURLEncoding (hasCorrectIssuer, untrustedIssuer), which
// skips CR/LF and refuses '=': a padded payload is nobody's token, a padded header or signature is fine.
import assert from 'node:assert/strict';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { signJwt } from '../../core/authn/jwt.js';
import { startOidcPlat, TestOidcIssuer } from '../helpers/oidc-issuer.js';
import { robotToken } from './robot-token.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const REVIEWS = '/apis/authentication.platform/v1/tokenreviews';
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
/** The part with the '=' padding standard base64 would give it (at least one '=' added regardless). */
const padded = (part: string) => {
  const pad = (4 - (part.length % 4)) % 4;
  return part + '='.repeat(pad === 0 ? 1 : pad);
};

async function review(plat: RunningPlat, token: string): Promise<{ authenticated?: boolean; user?: { username: string } }> {
  const r = await plat.admin.post(REVIEWS, { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token } });
  assert.equal(r.status, 201, r.text);
  return r.json.status;
}

/** The variants of a good token, each with whether upstream authenticates it. */
function variants(token: string): [string, string, boolean][] {
  const [h, p, s] = token.split('.') as [string, string, string];
  return [
    ['as signed', token, true],
    ['header padded', `${padded(h)}.${p}.${s}`, true],
    ['signature padded', `${h}.${p}.${padded(s)}`, true],
    ['header and signature over-padded', `${h}===.${p}.${s}====`, true],
    ['Go whitespace in header and signature', `${h.slice(0, 5)}\t\n${h.slice(5)}.${p}.${s.slice(0, 9)}\r\n\u3000${s.slice(9)}`, true],
    ['line break in payload', `${h}.${p.slice(0, 7)}\n${p.slice(7)}.${s}`, true],
    ['payload padded', `${h}.${padded(p)}.${s}`, false],
  ];
}

describe('service-account tokens: padding and whitespace as go-jose v2 and hasCorrectIssuer read them', () => {
  let plat: RunningPlat;
  let token: string;
  let saKey: KeyObject;

  before(async () => {
    plat = await startInProcess();
    saKey = createPrivateKey(readFileSync(path.join(plat.dataDir, 'pki', 'sa.key')));
    token = await robotToken(plat.admin);
  });
  after(async () => { await plat?.stop(); });

  it('accepts padded header and signature, refuses a padded payload', async () => {
    for (const [why, t, ok] of variants(token)) {
      const s = await review(plat, t);
      assert.equal(s.authenticated, ok, why);
      if (ok) assert.equal(s.user?.username, 'system:serviceaccount:default:robot', why);
    }
  });

  it('checks the signature over the unpadded re-encoding, not the token text', async () => {
    // Signed over the padded header text: go-jose computes the input unpadded, so this never verifies.
    const claims = claimsOf(token);
    const [h] = signJwt(claims, saKey).split('.') as [string];
    const input = `${padded(h)}.${token.split('.')[1]}`;
    const { sign } = await import('node:crypto');
    const alg = JSON.parse(Buffer.from(h, 'base64url').toString()).alg;
    assert.equal(alg, 'ES256', 'the test key signs ES256');
    const sig = sign('sha256', Buffer.from(input), { key: saKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    assert.equal((await review(plat, `${input}.${sig}`)).authenticated, false);
  });
});

describe('OIDC tokens: padding and whitespace as go-oidc and go-jose v2 read them', () => {
  const issuer = new TestOidcIssuer();
  let plat: RunningPlat;

  before(async () => {
    await issuer.start();
    plat = await startOidcPlat(issuer, async (p, t) => (await review(p, t)).authenticated === true);
  });
  after(async () => {
    await plat?.stop();
    await issuer.stop();
  });

  it('accepts padded header and signature, refuses a padded payload', async () => {
    for (const [why, t, ok] of variants(issuer.sign(issuer.claims()))) {
      const s = await review(plat, t);
      assert.equal(s.authenticated, ok, why);
      if (ok) assert.equal(s.user?.username, `${issuer.url}#alice-sub`, why);
    }
  });
});
