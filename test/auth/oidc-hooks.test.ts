// OidcAuthenticator at the hook level, against the real HTTPS test issuer: username prefix
// defaulting of the flags, no opinion on other issuers, the key refresh limiter with an injected
// clock, background initialisation, and `plat apiserver --help`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnonymousAuthenticator } from '../../plugins/authn-anonymous/index.js';
import { CelCompiler, RefreshLimiter, celInput, celStringList, createOidcAuthenticator, evaluate, hasSelect } from '../../plugins/authn-oidc/index.js';
import { cel } from '../../core/cel-modules.js';
import { generateSigningKey, TestOidcIssuer } from '../helpers/oidc-issuer.js';
import { runPlat } from '../helpers/run-plat.js';
import { boot, request } from './support.js';

const issuer = new TestOidcIssuer();
let dir: string;
let caFile: string;
before(async () => {
  await issuer.start();
  dir = mkdtempSync(join(tmpdir(), 'plat-oidc-hooks-'));
  caFile = join(dir, 'ca.crt');
  writeFileSync(caFile, issuer.caPem);
});
after(async () => {
  await issuer.stop();
  rmSync(dir, { recursive: true, force: true });
});

type Booted = ReturnType<typeof boot>;
const booted: Booted[] = [];
after(() => { for (const b of booted) b.host.hooks.shutdown.callAsync(() => {}); });

async function start(args: string[], deps: Parameters<typeof createOidcAuthenticator>[0] = {}): Promise<Booted> {
  const b = boot([createOidcAuthenticator(deps), AnonymousAuthenticator],
    ['--oidc-issuer-url', issuer.url, '--oidc-client-id', 'plat-client', '--oidc-ca-file', caFile, ...args]);
  booted.push(b);
  await b.host.hooks.start.promise({ signal: new AbortController().signal });
  return b;
}

async function auth(b: Booted, token: string) {
  const req = request({ headers: { authorization: `Bearer ${token}` } });
  const user = await b.host.hooks.authenticate.promise(req);
  return { user, reasons: req.reasons };
}

async function untilReady(b: Booted, token: string) {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await auth(b, token);
    if (r.user && r.user.name !== 'system:anonymous') return r.user;
    assert.ok(Date.now() < deadline, `not ready: ${r.reasons.join('; ')}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

describe('username prefixes of the --oidc-* flags', () => {
  const cases: Array<[string, string[], Record<string, unknown>, string]> = [
    ['sub, no prefix: the issuer URL and #', [], {}, '#alice-sub'],
    ['prefix -: none', ['--oidc-username-prefix', '-'], {}, 'alice-sub'],
    ['a given prefix', ['--oidc-username-prefix', 'oidc:'], {}, 'oidc:alice-sub'],
    ['claim email: none', ['--oidc-username-claim', 'email'], { email: 'a@example.com' }, 'a@example.com'],
    ['another claim: the issuer URL and #', ['--oidc-username-claim', 'name'], { name: 'Alice' }, '#Alice'],
  ];
  for (const [name, args, claims, want] of cases) {
    it(name, async () => {
      const b = await start(args);
      const user = await untilReady(b, issuer.sign(issuer.claims(claims)));
      assert.equal(user.name, want.startsWith('#') ? `${issuer.url}${want}` : want);
      assert.deepEqual(user.groups, []);
    });
  }
});

describe('routing and refusals at the hook level', () => {
  it('has no opinion on tokens of other issuers or non-JWTs: the bearer token step refuses them, not anonymous', async () => {
    const b = await start([]);
    await untilReady(b, issuer.sign(issuer.claims()));
    for (const t of [issuer.sign(issuer.claims({ iss: 'https://elsewhere.example' })), 'opaque-token', 'a.b.c']) {
      const r = await auth(b, t);
      assert.deepEqual(r.reasons, ['invalid bearer token']);
      assert.equal(r.user, undefined);
    }
  });

  it('rejects a token of its issuer with upstream\'s reasons', async () => {
    const b = await start(['--oidc-signing-algs', 'RS256,ES256']);
    await untilReady(b, issuer.sign(issuer.claims()));
    const reason = async (t: string) => (await auth(b, t)).reasons.join('; ');
    assert.match(await reason(issuer.sign(issuer.claims({ aud: 'x' }))), /^oidc: verify token: oidc: expected audience "plat-client" got \["x"\]$/);
    assert.match(await reason(issuer.sign(issuer.claims(), { key: generateSigningKey('PS256'), alg: 'PS256' })),
      /^oidc: verify token: oidc: id token signed with unsupported algorithm, expected \["RS256" "ES256"\] got "PS256"$/);
    assert.match(await reason(issuer.sign(issuer.claims({ exp: 1 }))), /^oidc: verify token: oidc: token is expired \(Token Expiry: 1970-01-01 00:00:01 \+0000 UTC\)$/);
    // nbf within go-oidc's minute of leeway passes.
    const now = Math.floor(Date.now() / 1000);
    assert.equal(await reason(issuer.sign(issuer.claims({ nbf: now + 30 }))), '');
    assert.match(await reason(issuer.sign(issuer.claims({ nbf: now + 600 }))), /before the nbf \(not before\) time/);
    assert.match(await reason(issuer.sign(issuer.claims(), { key: generateSigningKey('RS256') })), /failed to verify signature/);
  });

  it('without a kid, tries every key', async () => {
    const b = await start([]);
    await untilReady(b, issuer.sign(issuer.claims()));
    assert.equal((await auth(b, issuer.sign(issuer.claims({ sub: 'nokid' }), { kid: null }))).user?.name, `${issuer.url}#nokid`);
  });
});

describe('key refreshes', () => {
  it('RefreshLimiter: a burst, then one per interval (injected clock)', () => {
    let now = 0;
    const l = new RefreshLimiter(3, 10_000, () => now);
    assert.deepEqual([l.tryTake(), l.tryTake(), l.tryTake(), l.tryTake()], [true, true, true, false]);
    now += 9_999;
    assert.equal(l.tryTake(), false);
    now += 1;
    assert.deepEqual([l.tryTake(), l.tryTake()], [true, false]);
    now += 1_000_000;
    assert.deepEqual([l.tryTake(), l.tryTake(), l.tryTake(), l.tryTake()], [true, true, true, false]);
  });

  it('fetches keys for unknown kids at most as the limiter allows, until time passes', async () => {
    let now = Date.now();
    const b = await start([], { now: () => now, refreshBurst: 2, refreshIntervalMs: 60_000 });
    await untilReady(b, issuer.sign(issuer.claims()));
    const before = issuer.jwksRequests;
    const stranger = generateSigningKey('RS256');
    for (let i = 0; i < 10; i++) await auth(b, issuer.sign(issuer.claims(), { key: stranger, kid: `nope-${i}` }));
    assert.equal(issuer.jwksRequests - before, 2);
    issuer.rotate();
    assert.match((await auth(b, issuer.sign(issuer.claims()))).reasons.join(), /failed to verify signature/, 'limited: the new kid is not fetched yet');
    now += 60_000;
    assert.equal((await auth(b, issuer.sign(issuer.claims()))).user?.name, `${issuer.url}#alice-sub`);
    assert.equal(issuer.jwksRequests - before, 3);
  });

  it('reports "authenticator not initialized" while discovery fails, and recovers', async () => {
    issuer.mode = 'error500';
    try {
      const b = await start([], { retryDelaysMs: [3_600_000] });
      const r = await auth(b, issuer.sign(issuer.claims()));
      assert.deepEqual(r.reasons, ['oidc: authenticator not initialized']);
      assert.equal(r.user, undefined, 'a rejected token is never anonymous');
      issuer.mode = 'ok';
      // Requests nudge a new attempt (the background retry is an hour away here).
      assert.equal((await untilReady(b, issuer.sign(issuer.claims()))).name, `${issuer.url}#alice-sub`);
    } finally {
      issuer.mode = 'ok';
    }
  });

  it('refuses a discovery document whose issuer differs', async () => {
    issuer.advertisedIssuer = 'https://impostor.example';
    try {
      const logs = (await start([], { retryDelaysMs: [3_600_000] })).logs;
      const deadline = Date.now() + 10_000;
      while (!logs.some((l) => l.includes('issuer did not match the issuer returned by provider'))) {
        assert.ok(Date.now() < deadline, 'no discovery failure logged');
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      issuer.advertisedIssuer = undefined;
    }
  });
});

describe('CEL helpers', () => {
  const compiler = new CelCompiler();
  it('evaluates claims with whole numbers as ints and lists of strings', () => {
    const claims = celInput({ n: 3, f: 1.5, groups: ['a', '', 'b'], nested: { k: 'v' } });
    assert.equal(evaluate(compiler.program('claims.n + 1 == 4', 'claimValidation'), claims), true);
    assert.equal(evaluate(compiler.program('claims.f > 1.0', 'claimValidation'), claims), true);
    assert.deepEqual(celStringList(evaluate(compiler.program('claims.groups', 'claimMapping'), claims)), ['a', 'b']);
    assert.deepEqual(celStringList(evaluate(compiler.program('claims.nested.k', 'claimMapping'), claims)), ['v']);
    assert.deepEqual(celStringList(evaluate(compiler.program('null', 'claimMapping'), claims)), []);
    assert.throws(() => celStringList(evaluate(compiler.program('claims.n', 'claimMapping'), claims)), /expression must return a string or a list of strings/);
    assert.throws(() => evaluate(compiler.program('claims.missing == 1', 'claimValidation'), claims));
  });
  it('finds claims.email and claims.email_verified as upstream does', () => {
    assert.equal(hasSelect(cel().parse('claims.email').expr, 'claims', 'email'), true);
    assert.equal(hasSelect(cel().parse('[claims.email_verified].exists(x, x)').expr, 'claims', 'email_verified'), true);
    assert.equal(hasSelect(cel().parse('claims.emails').expr, 'claims', 'email'), false);
    assert.equal(hasSelect(cel().parse('other.email').expr, 'claims', 'email'), false);
  });
});

describe('plat apiserver --help', () => {
  it('lists every --oidc-* flag and --authentication-config with the spec defaults, as supported', () => {
    const r = runPlat(['apiserver', '--help']);
    assert.equal(r.code, 0, r.stderr);
    const block = (flag: string) => {
      const lines = r.stdout.split('\n');
      const i = lines.findIndex((l) => new RegExp(`^\\s+--${flag}\\b`).test(l));
      assert.ok(i >= 0, `--${flag} listed`);
      let text = lines[i]!;
      for (let j = i + 1; j < lines.length && !/^\s+-/.test(lines[j]!) && lines[j]!.trim() !== ''; j++) text += ` ${lines[j]!.trim()}`;
      assert.ok(!text.includes('not supported'), `--${flag} is supported: ${text}`);
      return text;
    };
    assert.match(block('authentication-config'), /--authentication-config string/);
    assert.match(block('oidc-issuer-url'), /--oidc-issuer-url string/);
    assert.match(block('oidc-client-id'), /--oidc-client-id string/);
    assert.match(block('oidc-ca-file'), /--oidc-ca-file string/);
    assert.match(block('oidc-username-claim'), /--oidc-username-claim string.*\(default "sub"\)/);
    assert.match(block('oidc-username-prefix'), /--oidc-username-prefix string/);
    assert.match(block('oidc-groups-claim'), /--oidc-groups-claim string/);
    assert.match(block('oidc-groups-prefix'), /--oidc-groups-prefix string/);
    assert.match(block('oidc-required-claim'), /--oidc-required-claim/);
    assert.match(block('oidc-signing-algs'), /--oidc-signing-algs strings.*\(default \[RS256\]\)/);
  });
});
