// OidcAuthenticator against go-oidc v2 (what Kubernetes 1.32 vendors), at the hook level with the
// real HTTPS test issuer: a minute of nbf leeway, `crit` refused, claims decoded as Go's
// encoding/json decodes them, Google's scheme-less issuer, the order of the checks, and the texts.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnonymousAuthenticator } from '../../plugins/authn-anonymous/index.js';
import { createOidcAuthenticator } from '../../plugins/authn-oidc/index.js';
import { goUnixTimeText } from '../../core/go-time-text.js';
import { generateSigningKey, TestOidcIssuer } from '../helpers/oidc-issuer.js';
import { boot, request, type Booted } from './support.js';

const issuer = new TestOidcIssuer();
let dir: string;
let n = 0;
const booted: Booted[] = [];
before(async () => {
  await issuer.start();
  dir = mkdtempSync(join(tmpdir(), 'plat-oidc-go-'));
  writeFileSync(join(dir, 'ca.crt'), issuer.caPem);
});
after(async () => {
  for (const b of booted) b.host.hooks.shutdown.callAsync(() => {});
  await issuer.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function start(args: string[]): Promise<Booted> {
  const b = boot([createOidcAuthenticator(), AnonymousAuthenticator], args);
  booted.push(b);
  await b.host.hooks.start.promise({ signal: new AbortController().signal });
  return b;
}
const withFlags = (args: string[] = []) =>
  start(['--oidc-issuer-url', issuer.url, '--oidc-client-id', 'plat-client', '--oidc-ca-file', join(dir, 'ca.crt'), ...args]);
const indent = (text: string, spaces: number) => text.split('\n').map((l) => ' '.repeat(spaces) + l).join('\n');
function withFile(i: TestOidcIssuer, lines: string[], url = i.url): Promise<Booted> {
  const file = join(dir, `authn-${n++}.yaml`);
  writeFileSync(file, ['apiVersion: apiserver.platform/v1beta1', 'kind: AuthenticationConfiguration', 'jwt:', '- issuer:',
    `    url: ${url}`, ...(url !== i.url ? [`    discoveryURL: ${i.discoveryUrl}`] : []),
    '    certificateAuthority: |', indent(i.caPem.trim(), 6), ...lines, ''].join('\n'));
  return start(['--authentication-config', file]);
}

async function auth(b: Booted, token: string) {
  const req = request({ headers: { authorization: `Bearer ${token}` } });
  const user = await b.host.hooks.authenticate.promise(req);
  return { user, reason: req.reasons.join('; ') };
}
async function untilReady(b: Booted, token: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await auth(b, token);
    if (r.user && r.user.name !== 'system:anonymous') return r.user;
    assert.ok(Date.now() < deadline, `not ready: ${r.reason}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}
const secs = () => Math.floor(Date.now() / 1000);
const verify = (why: string) => `oidc: verify token: ${why}`;
const unmarshal = (why: string) => verify(`oidc: failed to unmarshal claims: ${why}`);

describe('go-oidc v2 verification (the --oidc-* flags)', () => {
  let b: Booted;
  before(async () => {
    b = await withFlags(['--oidc-username-prefix', '-']);
    await untilReady(b, issuer.sign(issuer.claims()));
  });

  it('allows one minute of nbf skew, refusing with a Go time and monotonic reading', async () => {
    const now = secs();
    assert.equal((await auth(b, issuer.sign(issuer.claims({ nbf: now + 30 })))).reason, '');
    const r = await auth(b, issuer.sign(issuer.claims({ nbf: now + 120 })));
    assert.equal(r.user, undefined);
    const nbf = goUnixTimeText(BigInt(now + 120)).replace(/[.+]/g, '\\$&');
    assert.match(r.reason, new RegExp(`^oidc: verify token: oidc: current time \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(\\.\\d+)? \\+0000 UTC m=\\+\\d+\\.\\d{9} before the nbf \\(not before\\) time: ${nbf}$`));
  });

  it('refuses a token naming critical header extensions as a bad signature, as go-jose v2 does', async () => {
    const badSig = verify('failed to verify signature: failed to verify id token signature');
    const sign = (header: Record<string, unknown>) => issuer.sign(issuer.claims(), { header });
    assert.equal((await auth(b, sign({ crit: ['foo'], foo: 1 }))).reason, badSig);
    assert.equal((await auth(b, sign({ crit: 'foo' }))).reason, badSig);
    assert.equal((await auth(b, sign({ crit: [] }))).reason, '', 'an empty list names nothing');
    assert.equal((await auth(b, sign({ crit: null }))).reason, '');
  });

  const now = secs();
  const cases: Array<[string, Record<string, unknown>, string | RegExp | { name: string }]> = [
    ['exp as a quoted number', { exp: String(now + 3600) }, { name: 'alice-sub' }],
    ['exp as a quoted far future', { exp: '99999999999' }, { name: 'alice-sub' }],
    ['exp as a quoted non-number', { exp: 'soon' }, unmarshal('json: invalid number literal, trying to unmarshal "\\"soon\\"" into Number')],
    ['exp null', { exp: null }, unmarshal('strconv.ParseFloat: parsing "": invalid syntax')],
    ['exp a bool', { exp: true }, unmarshal('json: cannot unmarshal bool into Go struct field idToken.exp of type json.Number')],
    ['exp a fraction, truncated', { exp: 1.9 }, verify('oidc: token is expired (Token Expiry: 1970-01-01 00:00:01 +0000 UTC)')],
    ['exp beyond int64 (amd64 conversion)', { exp: 1e300 }, /^oidc: verify token: oidc: token is expired \(Token Expiry: /],
    ['no exp: the zero time', { exp: undefined }, verify('oidc: token is expired (Token Expiry: 0001-01-01 00:00:00 +0000 UTC)')],
    ['exp under a key of another case', { exp: undefined, EXP: now + 3600 }, { name: 'alice-sub' }],
    ['nbf null: no check', { nbf: null }, { name: 'alice-sub' }],
    ['nbf quoted', { nbf: String(now - 10) }, { name: 'alice-sub' }],
    ['iat quoted', { iat: String(now) }, { name: 'alice-sub' }],
    ['iat null', { iat: null }, unmarshal('strconv.ParseFloat: parsing "": invalid syntax')],
    ['sub not a string', { sub: 42 }, unmarshal('json: cannot unmarshal number into Go struct field idToken.sub of type string')],
    ['sub null: an empty username', { sub: null }, { name: '' }],
    ['nonce not a string', { nonce: 1 }, unmarshal('json: cannot unmarshal number into Go struct field idToken.nonce of type string')],
    ['aud null: one empty audience', { aud: null }, verify('oidc: expected audience "plat-client" got [""]')],
    ['aud with a number', { aud: ['plat-client', 1] }, unmarshal('json: cannot unmarshal number into Go struct field idToken.aud of type string')],
    ['aud an object', { aud: {} }, unmarshal('json: cannot unmarshal object into Go struct field idToken.aud of type []string')],
    ['a type error is reported even after a later field decodes', { sub: 1, exp: now + 3600 }, unmarshal('json: cannot unmarshal number into Go struct field idToken.sub of type string')],
    ['a distributed claim without its source', { _claim_names: { groups: 'src1' } }, verify('oidc: source does not exist')],
    ['a distributed claim with an empty source', { _claim_names: { groups: '' }, _claim_sources: {} }, verify('oidc: failed to obtain source from claim name')],
  ];
  for (const [name, claims, want] of cases) {
    it(`claims: ${name}`, async () => {
      const r = await auth(b, issuer.sign(issuer.claims(claims)));
      if (typeof want === 'string' || want instanceof RegExp) {
        if (typeof want === 'string') assert.equal(r.reason, want);
        else assert.match(r.reason, want);
        assert.equal(r.user, undefined);
      } else {
        assert.equal(r.reason, '');
        assert.equal(r.user?.name, want.name);
      }
    });
  }

  it('checks iss, aud, exp and nbf before the algorithm and the signature', async () => {
    const ps = { key: generateSigningKey('PS256'), alg: 'PS256' as const };
    assert.equal((await auth(b, issuer.sign(issuer.claims({ aud: 'x' }), ps))).reason, verify('oidc: expected audience "plat-client" got ["x"]'));
    assert.equal((await auth(b, issuer.sign(issuer.claims({ exp: 1 }), { key: generateSigningKey() }))).reason,
      verify('oidc: token is expired (Token Expiry: 1970-01-01 00:00:01 +0000 UTC)'));
  });

  it('refuses with go-oidc\'s "fetching keys" when the key set cannot be fetched', async () => {
    issuer.mode = 'error500';
    try {
      const r = await auth(b, issuer.sign(issuer.claims(), { key: generateSigningKey(), kid: 'unknown-kid' }));
      assert.match(r.reason, /^oidc: verify token: failed to verify signature: fetching keys oidc: get keys failed: 500 /);
    } finally {
      issuer.mode = 'ok';
    }
  });
});

describe('claims as Go decodes them for the mappings', () => {
  it('email_verified null is false: email not verified', async () => {
    const b = await withFlags(['--oidc-username-claim', 'email']);
    await untilReady(b, issuer.sign(issuer.claims({ email: 'a@example.com' })));
    assert.equal((await auth(b, issuer.sign(issuer.claims({ email: 'a@example.com', email_verified: null })))).reason, 'oidc: email not verified');
    assert.equal((await auth(b, issuer.sign(issuer.claims({ email: null })))).user?.name, '', 'a null email is an empty name');
  });

  it('groups with null entries are empty groups; required claims null are empty', async () => {
    const b = await withFlags(['--oidc-groups-claim', 'groups', '--oidc-groups-prefix', 'g:', '--oidc-required-claim', 'hd=']);
    const user = await untilReady(b, issuer.sign(issuer.claims({ groups: [null, 'a'], hd: null })));
    assert.deepEqual(user.groups, ['g:', 'g:a']);
  });
});

describe('the authentication configuration file', () => {
  it('lists several audiences sorted, and checks them after the signature', async () => {
    const b = await withFile(issuer, ['    audiences: [zeta, alpha]', '    audienceMatchPolicy: MatchAny', '  claimMappings:', '    username: {claim: sub, prefix: ""}']);
    await untilReady(b, issuer.sign(issuer.claims({}, 'zeta')));
    assert.equal((await auth(b, issuer.sign(issuer.claims({}, 'x')))).reason, verify('oidc: expected audience in ["alpha" "zeta"] got ["x"]'));
    assert.equal((await auth(b, issuer.sign(issuer.claims({}, 'x'), { key: generateSigningKey() }))).reason,
      verify('failed to verify signature: failed to verify id token signature'));
  });

  it('wraps CEL errors as upstream\'s mapper, extra mappings unprefixed', async () => {
    const b = await withFile(issuer, ['    audiences: [plat-client]', '  claimMappings:',
      '    username:', '      expression: "claims.sub"',
      '    extra:', '    - key: example.com/a', '      valueExpression: "claims.a"', '    - key: example.com/b', '      valueExpression: "claims.b"']);
    await untilReady(b, issuer.sign(issuer.claims({ a: 'x', b: 'y' })));
    const missingB = (await auth(b, issuer.sign(issuer.claims({ a: 1 })))).reason;
    assert.match(missingB, /^expression 'claims\.b' resulted in error: /, 'every extra expression is evaluated before any is converted');
    assert.equal((await auth(b, issuer.sign(issuer.claims({ a: 1, b: 'y' })))).reason,
      'oidc: error evaluating extra claim expression: claims.a: expression must return a string or a list of strings');
    assert.match((await auth(b, issuer.sign(issuer.claims({ sub: undefined, a: 'x', b: 'y' })))).reason,
      /^oidc: error evaluating username claim expression: expression 'claims\.sub' resulted in error: /);
  });

  it('takes Google\'s scheme-less issuer for https://accounts.google.com', async () => {
    const google = new TestOidcIssuer();
    google.advertisedIssuer = 'https://accounts.google.com';
    await google.start();
    try {
      const b = await withFile(google, ['    audiences: [plat-client]', '  claimMappings:', '    username: {claim: sub, prefix: ""}'], 'https://accounts.google.com');
      const claims = (iss: string) => google.claims({ iss });
      assert.equal((await untilReady(b, google.sign(claims('accounts.google.com')))).name, 'alice-sub');
      assert.equal((await auth(b, google.sign(claims('https://accounts.google.com')))).user?.name, 'alice-sub');
    } finally {
      await google.stop();
    }
  });
});
