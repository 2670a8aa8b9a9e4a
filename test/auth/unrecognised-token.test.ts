// A bearer token that no token authenticator accepts is a 401, never anonymous, as soon as one
// token authenticator is on (upstream's bearertoken wrapper around the token union, inside
// NewFailOnError): one kind of token authenticator at a time, each with anonymous access on, and
// `plat all` end to end. Without any token authenticator a token is no credential at all.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '../../core/plugin.js';
import { AnonymousAuthenticator } from '../../plugins/authn-anonymous/index.js';
import { BootstrapTokenAuthenticator } from '../../plugins/authn-bootstrap-token/index.js';
import { OidcAuthenticator } from '../../plugins/authn-oidc/index.js';
import { TokenFileAuthenticator } from '../../plugins/authn-token-file/index.js';
import { Client, startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { boot, request } from './support.js';

const dir = tempDir();
const tokenFile = path.join(dir, 'tokens.csv');
writeFileSync(tokenFile, 'known-token,alice,alice-uid\n');

// Header and claims of a JWT from an issuer nobody here trusts, with a signature that is not one.
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
const foreignJwt = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64({ iss: 'https://elsewhere.example', sub: 'x', aud: 'plat', exp: 4102444800 })}.c2ln`;
const bootstrapShaped = 'abcdef.0123456789abcdef';
const tokens = ['not-a-known-token', bootstrapShaped, foreignJwt];

const kinds: { name: string; plugins: Plugin[]; argv: string[] }[] = [
  { name: 'a token file', plugins: [TokenFileAuthenticator], argv: ['--token-auth-file', tokenFile] },
  { name: 'bootstrap tokens', plugins: [BootstrapTokenAuthenticator], argv: ['--enable-bootstrap-token-auth'] },
  { name: 'OIDC (--oidc-* flags)', plugins: [OidcAuthenticator], argv: ['--oidc-issuer-url', 'https://issuer.example', '--oidc-client-id', 'plat'] },
];

describe('a bearer token no token authenticator accepts', () => {
  for (const kind of kinds) {
    it(`is refused, not anonymous, with ${kind.name} on`, async () => {
      const { host } = boot([...kind.plugins, AnonymousAuthenticator], kind.argv);
      for (const token of tokens) {
        const req = request({ headers: { authorization: `Bearer ${token}` } });
        assert.equal(await host.hooks.authenticate.promise(req), undefined, token);
        // A token of bootstrap form is the bootstrap authenticator's to refuse (here: no store to look in).
        if (token === bootstrapShaped && kind.plugins.includes(BootstrapTokenAuthenticator)) assert.ok(req.reasons.length > 0, token);
        else assert.deepEqual(req.reasons, ['invalid bearer token'], token);
      }
      assert.equal((await host.hooks.authenticate.promise(request()))?.name, 'system:anonymous', 'no token is still anonymous');
      assert.equal((await host.hooks.authenticate.promise(request({ headers: { authorization: 'Basic YTpi' } })))?.name, 'system:anonymous', 'not a bearer token');
    });
  }

  it('is no credential at all without a token authenticator (anonymous), as upstream has no bearer token step then', async () => {
    const { host } = boot([AnonymousAuthenticator]);
    const req = request({ headers: { authorization: 'Bearer not-a-known-token' } });
    assert.equal((await host.hooks.authenticate.promise(req))?.name, 'system:anonymous');
    assert.deepEqual(req.reasons, []);
  });
});

describe('plat all: a bearer token nobody accepts', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: ['--anonymous-auth=true', '--authorization-mode=RBAC'] }); });
  after(() => plat.stop());

  // plat all runs service-account and bootstrap token authentication; anonymous access is turned on
  // (plat all's default is off) and RBAC's system:public-info-viewer lets the anonymous user read /version.
  it('gets 401 Unauthorized where no credential is anonymous', async () => {
    const ca = plat.admin.creds.ca;
    const anonymous = await new Client(plat.url, { ca }).get('/version');
    assert.equal(anonymous.status, 200, anonymous.text);
    for (const token of tokens) {
      const r = await new Client(plat.url, { ca, token }).get('/version');
      assert.equal(r.status, 401, `${token}: ${r.text}`);
      assert.equal(r.json.reason, 'Unauthorized');
    }
  });
});

describe('a space too many after "Bearer"', () => {
  // Upstream's bearertoken authenticator splits on single spaces: `Bearer  <token>` has an empty
  // token, which is no credential, and warns the client (invalidTokenWithSpaceWarning).
  const warning = '299 - "the provided Authorization header contains extra space before the bearer token, and is ignored"';
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: ['--anonymous-auth=true', '--authorization-mode=RBAC'] }); });
  after(() => plat.stop());

  const cases = [
    { name: 'is no credential: the request is anonymous, and warned', path: '/version', status: 200 },
    { name: 'a 401 or 403 answer carries the warning too', path: '/apis/certificates.platform/v1/certificatesigningrequests', status: 403 },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const r = await new Client(plat.url, { ca: plat.admin.creds.ca }).get(c.path, { authorization: 'Bearer  not-a-known-token' });
      assert.equal(r.status, c.status, r.text);
      assert.equal(r.headers['warning'], warning);
    });
  }

  it('one space is a token as before, and no warning', async () => {
    const r = await new Client(plat.url, { ca: plat.admin.creds.ca }).get('/version', { authorization: 'Bearer not-a-known-token' });
    assert.equal(r.status, 401);
    assert.equal(r.headers['warning'], undefined);
  });
});
