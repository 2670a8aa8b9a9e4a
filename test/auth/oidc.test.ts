// OidcAuthenticator end to end: `plat all` in-process over HTTPS, a test issuer serving discovery
// and a JWKS over HTTPS on loopback with its own CA, tokens in real requests creating CSRs whose
// spec.username/uid/groups/extra must be exactly what the mapping says.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '../../core/log.js';
import { StartupError } from '../../core/plugin.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { generateSigningKey, TestOidcIssuer } from '../helpers/oidc-issuer.js';
import { startInProcess, type Client, type RunningPlat } from '../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const b64url = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
const TOKENS: string[] = [];
const remember = (t: string) => { TOKENS.push(t); return t; };

let dir: string;
let n = 0;
const issuer = new TestOidcIssuer();
let caFile: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plat-oidc-'));
  await issuer.start();
  caFile = join(dir, 'issuer-ca.crt');
  writeFileSync(caFile, issuer.caPem);
});
after(async () => {
  await issuer.stop();
  rmSync(dir, { recursive: true, force: true });
});

function writeConfig(yaml: string): string {
  const file = join(dir, `authn-${n++}.yaml`);
  writeFileSync(file, yaml);
  return file;
}

const indent = (text: string, spaces: number) => text.split('\n').map((l) => ' '.repeat(spaces) + l).join('\n');

/** Bounded poll: the issuer's keys are fetched in the background after start-up. */
async function until(what: string, fn: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await fn()) return;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function assertUnauthorized(plat: RunningPlat, token: string, name: string): Promise<void> {
  const res = await plat.admin.with({ token: remember(token) }).post(CSRS, baseCsr(fixtures(), name));
  assert.equal(res.status, 401, `${name}: ${res.text}`);
  assert.equal(res.json?.kind, 'Status', name);
  assert.equal(res.json?.code, 401, name);
  assert.equal(res.json?.reason, 'Unauthorized', name);
  assert.equal((await plat.admin.get(`${CSRS}/${name}`)).status, 404, `${name}: nothing stored`);
}

async function createAs(plat: RunningPlat, token: string, name: string): Promise<any> {
  const res = await plat.admin.with({ token: remember(token) }).post(CSRS, baseCsr(fixtures(), name));
  assert.equal(res.status, 201, res.text);
  const stored = await plat.admin.get(`${CSRS}/${name}`);
  assert.equal(stored.status, 200);
  return stored.json.spec;
}

const ready = (client: Client) => async () => (await client.get(CSRS)).status === 200;

describe('OIDC with the --oidc-* flags (issuer URL as username prefix, groups, required claim)', () => {
  let plat: RunningPlat;
  const logs: string[] = [];

  before(async () => {
    plat = await startInProcess({
      logger: createLogger({ verbosity: 10, write: (l) => logs.push(l) }),
      args: [
        '--oidc-issuer-url', issuer.url, '--oidc-client-id', 'plat-client', '--oidc-ca-file', caFile,
        '--oidc-groups-claim', 'groups', '--oidc-groups-prefix', 'oidc:', '--oidc-required-claim', 'hd=example.com',
      ],
    });
    const t = issuer.sign(issuer.claims({ hd: 'example.com' }));
    await until('the issuer keys', ready(plat.admin.with({ token: remember(t) })));
  });
  after(async () => { await plat.stop(); });

  const good = (extra: Record<string, unknown> = {}) => issuer.sign(issuer.claims({ hd: 'example.com', groups: ['dev', 'ops'], ...extra }));

  it('creates a CSR as `<issuer>#<sub>` with prefixed groups', async () => {
    const spec = await createAs(plat, good(), 'oidc-flags');
    assert.equal(spec.username, `${issuer.url}#alice-sub`);
    assert.deepEqual(spec.groups, ['oidc:dev', 'oidc:ops', 'system:authenticated']);
    assert.equal(spec.uid, undefined);
    assert.equal(spec.extra, undefined);
  });

  it('takes a single string as one group', async () => {
    const spec = await createAs(plat, good({ groups: 'admins' }), 'oidc-flags-string-group');
    assert.deepEqual(spec.groups, ['oidc:admins', 'system:authenticated']);
  });

  it('answers 401 with a Status and stores nothing for every bad token', async () => {
    const now = Math.floor(Date.now() / 1000);
    const claims = issuer.claims({ hd: 'example.com' });
    const header = { alg: 'RS256', kid: issuer.currentKid };
    await assertUnauthorized(plat, `${b64url('{not json')}.${b64url(claims)}.${b64url('sig')}`, 'malformed');
    await assertUnauthorized(plat, 'not-a-jwt-at-all', 'not-a-jwt');
    await assertUnauthorized(plat, good({ exp: now - 60, iat: now - 3600 }), 'expired');
    await assertUnauthorized(plat, good({ nbf: now + 3600 }), 'not-yet-valid');
    await assertUnauthorized(plat, issuer.sign(claims, { key: generateSigningKey('RS256') }), 'wrong-signature');
    await assertUnauthorized(plat, good({ aud: ['someone-else'] }), 'wrong-audience');
    await assertUnauthorized(plat, good({ iss: 'https://issuer.invalid' }), 'wrong-issuer');
    await assertUnauthorized(plat, `${b64url({ alg: 'none', kid: issuer.currentKid })}.${b64url(claims)}.`, 'alg-none');
    const hsInput = `${b64url({ ...header, alg: 'HS256' })}.${b64url(claims)}`;
    await assertUnauthorized(plat, `${hsInput}.${createHmac('sha256', 'secret').update(hsInput).digest('base64url')}`, 'hs256');
    await assertUnauthorized(plat, issuer.sign(issuer.claims({ groups: ['dev'] })), 'required-claim-missing');
    await assertUnauthorized(plat, good({ hd: 'evil.example' }), 'required-claim-wrong');
    await assertUnauthorized(plat, good({ sub: 42 }), 'username-not-a-string');
    await assertUnauthorized(plat, good({ groups: [1, 2] }), 'groups-not-strings');
    await assertUnauthorized(plat, good({ exp: undefined }), 'no-exp');
  });

  it('refuses a token larger than 64 KiB without looking at it', async () => {
    const big = good({ padding: 'x'.repeat(70 * 1024) });
    await assertUnauthorized(plat, big, 'oversized');
    // In a TokenReview body it reaches the authenticators too, which do not accept it.
    const review = await plat.admin.post('/apis/authentication.platform/v1/tokenreviews',
      { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token: big } });
    assert.equal(review.status, 201, review.text);
    assert.equal(review.json.status.authenticated, false);
  });

  it('answers TokenReviews, audience-agnostic as upstream: review audiences must meet the server\'s', async () => {
    const review = async (audiences?: string[]) => (await plat.admin.post('/apis/authentication.platform/v1/tokenreviews', {
      apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token: remember(good()), ...(audiences ? { audiences } : {}) },
    })).json.status;
    const plain = await review();
    assert.equal(plain.authenticated, true);
    assert.equal(plain.user.username, `${issuer.url}#alice-sub`);
    // plat all's --api-audiences default: its service-account issuer.
    assert.equal((await review(['https://platform.default.svc.cluster.local'])).authenticated, true);
    assert.equal((await review(['somebody-else'])).authenticated, false);
  });

  it('logs which authenticator refused a token and why, never the token', async () => {
    await assertUnauthorized(plat, good({ aud: ['nobody'] }), 'logged-audience');
    const line = logs.find((l) => l.includes('Unable to authenticate the request') && l.includes('nobody'));
    assert.ok(line, 'the refusal is logged');
    assert.ok(line.startsWith('E') && line.endsWith('Unable to authenticate the request err="oidc: verify token: oidc: expected audience \\"plat-client\\" got [\\"nobody\\"]"'), line);
    assert.ok(logs.some((l) => l.includes('err="oidc: required claim hd not present in ID token"')));
    assert.ok(logs.some((l) => l.includes('oidc: token is expired')));
    assert.ok(logs.some((l) => l.includes('id token signed with unsupported algorithm')));
    for (const t of TOKENS) {
      const sig = t.split('.')[2];
      assert.ok(!logs.some((l) => l.includes(t)), 'a token was logged');
      if (sig && sig.length > 20) assert.ok(!logs.some((l) => l.includes(sig)), 'a token signature was logged');
    }
  });

  it('picks up a rotated key: a token with a new kid verifies after one refetch', async () => {
    const before = issuer.jwksRequests;
    issuer.rotate();
    const spec = await createAs(plat, good(), 'after-rotation');
    assert.equal(spec.username, `${issuer.url}#alice-sub`);
    assert.equal(issuer.jwksRequests, before + 1);
    assert.equal((await plat.admin.with({ token: remember(good()) }).get(CSRS)).status, 200);
    assert.equal(issuer.jwksRequests, before + 1, 'the new key is cached');
  });

  it('picks up a key replaced under the same kid: the known kid does not verify, so the keys are fetched again (go-oidc)', async () => {
    const kid = issuer.currentKid;
    const before = issuer.jwksRequests;
    issuer.rekey();
    const spec = await createAs(plat, good(), 'after-rekey');
    assert.equal(issuer.currentKid, kid);
    assert.equal(spec.username, `${issuer.url}#alice-sub`);
    assert.equal(issuer.jwksRequests, before + 1);
  });

  it('does not let a flood of unknown kids hammer the issuer', async () => {
    const before = issuer.jwksRequests;
    const stranger = generateSigningKey('RS256');
    for (let i = 0; i < 25; i++) {
      const t = remember(issuer.sign(issuer.claims({ hd: 'example.com' }), { key: stranger, kid: `unknown-${i}-${randomBytes(4).toString('hex')}` }));
      assert.equal((await plat.admin.with({ token: t }).get(CSRS)).status, 401);
    }
    assert.ok(issuer.jwksRequests - before <= 5, `${issuer.jwksRequests - before} key set fetches for 25 tokens`);
  });
});

describe('OIDC with --oidc-username-claim email (no prefix) and the email_verified rule', () => {
  let plat: RunningPlat;
  before(async () => {
    plat = await startInProcess({ args: ['--oidc-issuer-url', issuer.url, '--oidc-client-id', 'plat-client', '--oidc-ca-file', caFile, '--oidc-username-claim', 'email'] });
    await until('the issuer keys', ready(plat.admin.with({ token: remember(issuer.sign(issuer.claims({ email: 'a@example.com' }))) })));
  });
  after(async () => { await plat.stop(); });

  it('uses the email as is, with email_verified true or absent', async () => {
    assert.equal((await createAs(plat, issuer.sign(issuer.claims({ email: 'alice@example.com', email_verified: true })), 'email-verified')).username, 'alice@example.com');
    assert.equal((await createAs(plat, issuer.sign(issuer.claims({ email: 'bob@example.com' })), 'email-no-claim')).username, 'bob@example.com');
  });

  it('refuses email_verified false (or not a boolean) and a missing email', async () => {
    await assertUnauthorized(plat, issuer.sign(issuer.claims({ email: 'eve@example.com', email_verified: false })), 'email-unverified');
    await assertUnauthorized(plat, issuer.sign(issuer.claims({ email: 'eve@example.com', email_verified: 'true' })), 'email-verified-string');
    await assertUnauthorized(plat, issuer.sign(issuer.claims()), 'email-missing');
  });
});

describe('OIDC with --authentication-config: CEL mappings and validation rules', () => {
  let plat: RunningPlat;
  const logs: string[] = [];
  const issuerWithPath = new TestOidcIssuer({ path: '/tenant-a' });

  before(async () => {
    await issuerWithPath.start();
    const file = writeConfig([
      'apiVersion: apiserver.platform/v1beta1',
      'kind: AuthenticationConfiguration',
      'jwt:',
      '- issuer:',
      `    url: ${issuer.url}`,
      '    audiences: [plat-client, other-client]',
      '    audienceMatchPolicy: MatchAny',
      '    certificateAuthority: |',
      indent(issuer.caPem.trim(), 6),
      '  claimValidationRules:',
      '  - expression: "claims.tenant == \'acme\'"',
      '    message: tenant must be acme',
      '  - claim: hd',
      '    requiredValue: example.com',
      '  claimMappings:',
      '    username:',
      '      expression: "\'acme:\' + claims.preferred_username"',
      '    groups:',
      '      expression: "claims.roles.filter(r, r != \'\').map(r, \'role:\' + r)"',
      '    uid:',
      '      claim: sub',
      '    extra:',
      '    - key: example.com/tenant',
      '      valueExpression: claims.tenant',
      '    - key: example.com/scopes',
      '      valueExpression: "claims.scope.split(\' \')"',
      '    - key: example.com/absent',
      '      valueExpression: "has(claims.nothing) ? claims.nothing : null"',
      '  userValidationRules:',
      '  - expression: "!user.username.startsWith(\'acme:system:\')"',
      '    message: no system users through OIDC',
      '- issuer:',
      `    url: ${issuerWithPath.url}`,
      `    discoveryURL: ${issuerWithPath.discoveryUrl}`,
      '    audiences: [plat-client]',
      '    certificateAuthority: |',
      indent(issuerWithPath.caPem.trim(), 6),
      '  claimMappings:',
      '    username:',
      '      claim: sub',
      '      prefix: "tenant-a:"',
      '',
    ].join('\n'));
    plat = await startInProcess({ args: ['--authentication-config', file], logger: createLogger({ verbosity: 10, write: (l) => logs.push(l) }) });
    await until('the issuer keys', ready(plat.admin.with({ token: remember(issuer.sign(valid())) })));
    await until('the second issuer keys', ready(plat.admin.with({ token: remember(issuerWithPath.sign(issuerWithPath.claims())) })));
  });
  after(async () => {
    await plat.stop();
    await issuerWithPath.stop();
  });

  function valid(extra: Record<string, unknown> = {}) {
    return issuer.claims({ preferred_username: 'alice', tenant: 'acme', hd: 'example.com', roles: ['admin', '', 'dev'], scope: 'read write', ...extra }, 'other-client');
  }

  it('maps username, groups, uid and extra through CEL', async () => {
    const spec = await createAs(plat, issuer.sign(valid()), 'oidc-cel');
    assert.equal(spec.username, 'acme:alice');
    assert.equal(spec.uid, 'alice-sub');
    assert.deepEqual(spec.groups, ['role:admin', 'role:dev', 'system:authenticated']);
    assert.deepEqual(spec.extra, { 'example.com/tenant': ['acme'], 'example.com/scopes': ['read', 'write'] });
  });

  it('serves a second issuer (path and discoveryURL) with its own prefix', async () => {
    const spec = await createAs(plat, issuerWithPath.sign(issuerWithPath.claims({ sub: 'carol' })), 'oidc-second-issuer');
    assert.equal(spec.username, 'tenant-a:carol');
    assert.deepEqual(spec.groups, ['system:authenticated']);
    // The first issuer's key does not sign for the second.
    await assertUnauthorized(plat, issuer.sign(issuerWithPath.claims({ sub: 'mallory' })), 'cross-issuer-key');
  });

  it('refuses failing claim and user validation rules, with the rule message in the log', async () => {
    await assertUnauthorized(plat, issuer.sign(valid({ tenant: 'umbrella' })), 'claim-rule');
    await assertUnauthorized(plat, issuer.sign(valid({ preferred_username: 'system:admin' })), 'user-rule');
    await assertUnauthorized(plat, issuer.sign(valid({ hd: undefined })), 'required-value-missing');
    await assertUnauthorized(plat, issuer.sign(valid({ preferred_username: 7 })), 'username-type-error');
    await assertUnauthorized(plat, issuer.sign(valid({ aud: ['third-client'] })), 'audience-none-match');
    assert.ok(logs.some((l) => l.includes("validation expression 'claims.tenant == \\'acme\\'' failed: tenant must be acme")
      || l.includes("validation expression 'claims.tenant == 'acme'' failed: tenant must be acme")), 'claim rule message logged');
    assert.ok(logs.some((l) => l.includes('failed: no system users through OIDC')), 'user rule message logged');
  });

  it('accepts any algorithm the key fits (ES256) when configured by file', async () => {
    issuer.addKey('ES256');
    const spec = await createAs(plat, issuer.sign(valid({ preferred_username: 'es' })), 'oidc-es256');
    assert.equal(spec.username, 'acme:es');
  });
});

describe('OIDC with a broken issuer at start-up', () => {
  const down = new TestOidcIssuer();
  const failing = new TestOidcIssuer();
  let plat: RunningPlat;
  const logs: string[] = [];

  before(async () => {
    await down.start();
    await down.stop();
    await failing.start();
    failing.mode = 'error500';
    const tokens = join(dir, 'tokens.csv');
    writeFileSync(tokens, 'static-token-for-oidc-test,static-user,uid-1\n');
    TOKENS.push('static-token-for-oidc-test');
    const issuerYaml = (i: TestOidcIssuer) => [
      '- issuer:', `    url: ${i.url}`, '    audiences: [plat-client]', '    certificateAuthority: |', indent(i.caPem.trim(), 6),
      '  claimMappings:', '    username: {claim: sub, prefix: ""}',
    ];
    const file = writeConfig(['apiVersion: apiserver.platform/v1beta1', 'kind: AuthenticationConfiguration', 'jwt:',
      ...issuerYaml(down), ...issuerYaml(failing), ''].join('\n'));
    plat = await startInProcess({ args: ['--authentication-config', file, '--token-auth-file', tokens], logger: createLogger({ verbosity: 10, write: (l) => logs.push(l) }) });
  });
  after(async () => {
    await plat.stop();
    await down.stop();
    await failing.stop();
  });

  it('starts, keeps other authentication working, refuses the issuers\' tokens until they recover', async () => {
    assert.equal((await plat.admin.get(CSRS)).status, 200, 'client certificates work');
    assert.equal((await plat.admin.with({ token: 'static-token-for-oidc-test' }).get(CSRS)).status, 200, 'static tokens work');
    await assertUnauthorized(plat, down.sign(down.claims()), 'issuer-down');
    await assertUnauthorized(plat, failing.sign(failing.claims()), 'issuer-500');
    assert.ok(logs.some((l) => l.includes('oidc: authenticator not initialized')));

    failing.mode = 'ok';
    await until('the failing issuer to recover', ready(plat.admin.with({ token: remember(failing.sign(failing.claims())) })));
    await down.start();
    await until('the unreachable issuer to come up', ready(plat.admin.with({ token: remember(down.sign(down.claims())) })));
    const spec = await createAs(plat, down.sign(down.claims({ sub: 'recovered' })), 'after-recovery');
    assert.equal(spec.username, 'recovered');
  });
});

describe('the anonymous section of --authentication-config', () => {
  let plat: RunningPlat;
  before(async () => {
    const file = writeConfig('apiVersion: apiserver.platform/v1beta1\nkind: AuthenticationConfiguration\nanonymous:\n  enabled: true\n  conditions:\n  - path: /healthz\n  - path: /readyz\n');
    plat = await startInProcess({ args: ['--authentication-config', file, '--oidc-issuer-url', issuer.url, '--oidc-client-id', 'plat-client', '--oidc-ca-file', caFile] });
  });
  after(async () => { await plat.stop(); });

  it('lets anonymous requests reach only the configured paths', async () => {
    const anonymous = plat.admin.with({ anonymous: true });
    assert.equal((await anonymous.get('/healthz')).status, 200);
    assert.equal((await anonymous.get('/readyz')).status, 200);
    for (const p of ['/livez', '/healthz/ping', CSRS, '/version']) {
      const res = await anonymous.get(p);
      assert.equal(res.status, 401, p);
      assert.equal(res.json?.kind, 'Status', p);
    }
    assert.equal((await plat.admin.get('/livez')).status, 200, 'credentials still work elsewhere');
  });

  it('still refuses a bad token on an anonymous path (never downgraded to anonymous)', async () => {
    const res = await plat.admin.with({ token: remember(issuer.sign(issuer.claims({ aud: ['nobody'] }))) }).get('/healthz');
    assert.equal(res.status, 401);
  });

  it('refuses start-up when --anonymous-auth is also given', async () => {
    const file = writeConfig('apiVersion: apiserver.platform/v1beta1\nkind: AuthenticationConfiguration\nanonymous:\n  enabled: false\n');
    await assert.rejects(startInProcess({ args: ['--authentication-config', file, '--anonymous-auth=false'] }),
      (e: unknown) => e instanceof StartupError && e.message === 'authentication-config file and anonymous-auth flag are mutually exclusive');
  });

  it('turns anonymous access off with enabled: false', async () => {
    const file = writeConfig('apiVersion: apiserver.platform/v1beta1\nkind: AuthenticationConfiguration\nanonymous:\n  enabled: false\n');
    const off = await startInProcess({ args: ['--authentication-config', file] });
    try {
      assert.equal((await off.admin.with({ anonymous: true }).get('/healthz')).status, 401);
    } finally {
      await off.stop();
    }
  });
});
