// RequestHeaderAuthenticator: identity headers believed only from a front-proxy certificate
// (openssl-made, its own CA, separate from --client-ca-file), at hook level and end to end through
// `plat all` over HTTPS, where the CSR created carries the asserted identity.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import http2 from 'node:http2';
import https from 'node:https';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StartupError } from '../../core/plugin.js';
import type { UserInfo } from '../../core/authn/user.js';
import { AnonymousAuthenticator } from '../../plugins/authn-anonymous/index.js';
import { createRequestHeaderAuthenticator, getProxyClientCredentials } from '../../plugins/authn-requestheader/index.js';
import { extraFromHeaders, headerValues, unescapeExtraKey } from '../../core/authn/identity-headers.js';
import { createX509Authenticator } from '../../plugins/authn-x509/index.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { Client, startInProcess, type RunningPlat } from '../helpers/plat.js';
import { boot, request } from './support.js';

const CONFIG = `
[req]
distinguished_name = dn
prompt = no
[dn]
CN = unused
[ca]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
[client]
basicConstraints = critical,CA:FALSE
keyUsage = critical,digitalSignature
extendedKeyUsage = clientAuth
authorityKeyIdentifier = keyid
`;

interface Issued { readonly pem: string; readonly der: Buffer; readonly keyPem: string; readonly certFile: string; readonly keyFile: string }

interface ProxyPki {
  readonly dir: string;
  readonly caFile: string;
  readonly ca: Issued;
  /** CN=front-proxy, signed by the front-proxy CA. */
  readonly proxy: Issued;
  /** CN=other-proxy, signed by the front-proxy CA but not an allowed name. */
  readonly otherProxy: Issued;
  /** CN=front-proxy, signed by an unrelated CA. */
  readonly foreign: Issued;
}

function createProxyPki(): ProxyPki {
  const dir = mkdtempSync(join(tmpdir(), 'plat-requestheader-'));
  writeFileSync(join(dir, 'openssl.cnf'), CONFIG);
  const run = (args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  let serial = 2000;
  const load = (name: string): Issued => {
    const certFile = join(dir, `${name}.crt`);
    const keyFile = join(dir, `${name}.key`);
    const pem = readFileSync(certFile, 'utf8');
    return { pem, der: new X509Certificate(pem).raw, keyPem: readFileSync(keyFile, 'utf8'), certFile, keyFile };
  };
  const key = (name: string) => run(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', `${name}.key`]);
  const root = (name: string, cn: string): Issued => {
    key(name);
    run(['req', '-new', '-x509', '-config', 'openssl.cnf', '-key', `${name}.key`, '-subj', `/CN=${cn}`, '-days', '3650', '-extensions', 'ca', '-sha256', '-out', `${name}.crt`]);
    return load(name);
  };
  const issue = (name: string, cn: string, issuer: string): Issued => {
    key(name);
    run(['req', '-new', '-config', 'openssl.cnf', '-key', `${name}.key`, '-subj', `/CN=${cn}`, '-out', `${name}.csr`]);
    run(['x509', '-req', '-in', `${name}.csr`, '-CA', `${issuer}.crt`, '-CAkey', `${issuer}.key`, '-set_serial', String(serial++),
      '-days', '365', '-sha256', '-extfile', 'openssl.cnf', '-extensions', 'client', '-out', `${name}.crt`]);
    return load(name);
  };
  const ca = root('front-proxy-ca', 'front-proxy-ca');
  root('foreign-ca', 'foreign-ca');
  return {
    dir, caFile: ca.certFile, ca,
    proxy: issue('proxy', 'front-proxy', 'front-proxy-ca'),
    otherProxy: issue('other-proxy', 'other-proxy', 'front-proxy-ca'),
    foreign: issue('foreign', 'front-proxy', 'foreign-ca'),
  };
}

let pki: ProxyPki;
before(() => { pki = createProxyPki(); });
after(() => rmSync(pki.dir, { recursive: true, force: true }));

const FLAGS = () => [
  `--requestheader-client-ca-file=${pki.caFile}`,
  '--requestheader-username-headers=X-Remote-User,X-Remote-User-Fallback',
  '--requestheader-group-headers=X-Remote-Group',
  '--requestheader-extra-headers-prefix=X-Remote-Extra-',
  '--requestheader-uid-headers=X-Remote-Uid',
  '--requestheader-allowed-names=front-proxy',
];

const IDENTITY = {
  'x-remote-user': 'alice',
  'x-remote-uid': 'alice-uid',
  'x-remote-group': ['dev', 'ops'],
  'x-remote-extra-scopes': 'a',
  'x-remote-extra-foo%2fbar': 'b',
};

describe('identity headers', () => {
  it('reads the first non-empty username header in flag order, every group value, prefixed extras', () => {
    const values = headerValues({
      headers: {},
      rawHeaders: ['X-Remote-Group', 'dev', 'x-remote-group', 'ops, qa', 'X-Remote-Extra-Scopes', 'a', 'X-REMOTE-EXTRA-scopes', 'c'],
    });
    assert.deepEqual(values.get('x-remote-group'), ['dev', 'ops, qa']);
    assert.deepEqual(extraFromHeaders(values, ['X-Remote-Extra-']), { scopes: ['a', 'c'] });
  });

  it('falls back to Node headers when rawHeaders are absent', () => {
    const values = headerValues({ headers: { 'x-remote-group': ['a', 'b'], 'x-remote-user': 'bob', 'x-none': undefined } });
    assert.deepEqual(values.get('x-remote-group'), ['a', 'b']);
    assert.deepEqual(values.get('x-remote-user'), ['bob']);
    assert.equal(values.has('x-none'), false);
  });

  it('unescapes extra keys as url.PathUnescape, keeping malformed ones as given', () => {
    assert.equal(unescapeExtraKey('foo%2fbar'), 'foo/bar');
    assert.equal(unescapeExtraKey('example.org%2fteam%20name'), 'example.org/team name');
    assert.equal(unescapeExtraKey('a+b'), 'a+b');
    assert.equal(unescapeExtraKey('bad%zz'), 'bad%zz');
    assert.equal(unescapeExtraKey('trailing%2'), 'trailing%2');
    assert.equal(unescapeExtraKey('%c3%a9t%c3%a9'), 'été');
  });
});

describe('RequestHeaderAuthenticator at hook level', () => {
  const withAnonymous = () => boot([createRequestHeaderAuthenticator(), AnonymousAuthenticator], FLAGS());

  it('believes the headers from an allowed front-proxy certificate', async () => {
    const { host } = withAnonymous();
    const req = request({ headers: { ...IDENTITY, 'x-remote-user': '', 'x-remote-user-fallback': 'carol' }, peerChain: [pki.proxy.der] });
    const user = await host.hooks.authenticate.promise(req);
    assert.deepEqual(user, {
      name: 'carol', uid: 'alice-uid', groups: ['dev', 'ops'], extra: { scopes: ['a'], 'foo/bar': ['b'] },
    });
    assert.equal(req.rejected, false);
  });

  it('ignores the headers without a client certificate (anonymous decides)', async () => {
    const { host } = withAnonymous();
    const req = request({ headers: IDENTITY });
    assert.equal((await host.hooks.authenticate.promise(req))?.name, 'system:anonymous');
    assert.equal(req.rejected, false);
  });

  it('refuses a certificate from another CA: headers ignored, never anonymous', async () => {
    const { host } = withAnonymous();
    const req = request({ headers: IDENTITY, peerChain: [pki.foreign.der] });
    assert.equal(await host.hooks.authenticate.promise(req), undefined);
    assert.equal(req.reasons.length, 1);
    assert.match(req.reasons[0]!, /unknown authority/);
  });

  it('refuses a front-proxy CA certificate whose CN is not allowed', async () => {
    const { host } = withAnonymous();
    const req = request({ headers: IDENTITY, peerChain: [pki.otherProxy.der] });
    assert.equal(await host.hooks.authenticate.promise(req), undefined);
    assert.deepEqual(req.reasons, ['x509: subject with cn=other-proxy is not in the allowed list']);
  });

  it('accepts any certificate of the CA when allowed-names is empty', async () => {
    const { host } = boot([createRequestHeaderAuthenticator()], FLAGS().filter((f) => !f.includes('allowed-names')));
    const user = await host.hooks.authenticate.promise(request({ headers: IDENTITY, peerChain: [pki.otherProxy.der] }));
    assert.equal(user?.name, 'alice');
  });

  it('has no opinion when the proxy sends no username header (falls through)', async () => {
    const { host } = withAnonymous();
    const req = request({ headers: { 'x-remote-group': 'dev' }, peerChain: [pki.proxy.der] });
    assert.equal((await host.hooks.authenticate.promise(req))?.name, 'system:anonymous');
    assert.equal(req.rejected, false);
  });

  it('runs before X509Authenticator even when both trust the same CA', async () => {
    const { host } = boot([createX509Authenticator(), createRequestHeaderAuthenticator()], [...FLAGS(), `--client-ca-file=${pki.caFile}`]);
    const viaProxy = await host.hooks.authenticate.promise(request({ headers: IDENTITY, peerChain: [pki.proxy.der] }));
    assert.equal(viaProxy?.name, 'alice');
    // Without identity headers the same certificate is an ordinary client certificate.
    const direct = await host.hooks.authenticate.promise(request({ peerChain: [pki.proxy.der] }));
    assert.equal(direct?.name, 'front-proxy');
  });

  it('is off without --requestheader-client-ca-file', async () => {
    const { host } = boot([createRequestHeaderAuthenticator()], ['--requestheader-username-headers=X-Remote-User']);
    assert.equal(await host.hooks.authenticate.promise(request({ headers: IDENTITY, peerChain: [pki.proxy.der] })), undefined);
  });

  it('checks validity at the injected clock', async () => {
    const { host } = boot([createRequestHeaderAuthenticator({ now: () => new Date('2000-01-01T00:00:00Z') })], FLAGS());
    const req = request({ headers: IDENTITY, peerChain: [pki.proxy.der] });
    assert.equal(await host.hooks.authenticate.promise(req), undefined);
    assert.match(req.reasons[0] ?? '', /expired or is not yet valid/);
  });
});

describe('RequestHeaderAuthenticator start-up', () => {
  const startupError = (argv: string[], pattern: RegExp) =>
    assert.throws(() => boot([createRequestHeaderAuthenticator()], argv), (e: Error) => e instanceof StartupError && pattern.test(e.message));

  it('fails on a missing or empty CA file', () => {
    startupError([`--requestheader-client-ca-file=${join(pki.dir, 'nope.crt')}`], /^open .*nope\.crt: no such file or directory$/);
    startupError([`--requestheader-client-ca-file=${pki.proxy.keyFile}`], /does not contain any valid RSA or ECDSA certificates/);
  });

  it('fails on a half-given or mismatched proxy client pair, loads a good one', () => {
    startupError([`--proxy-client-cert-file=${pki.proxy.certFile}`], /--proxy-client-cert-file is set but --proxy-client-key-file is not/);
    startupError([`--proxy-client-key-file=${pki.proxy.keyFile}`], /--proxy-client-key-file is set but --proxy-client-cert-file is not/);
    startupError([`--proxy-client-cert-file=${pki.proxy.certFile}`, `--proxy-client-key-file=${pki.foreign.keyFile}`], /private key does not match public key/);
    startupError([`--proxy-client-cert-file=${pki.proxy.keyFile}`, `--proxy-client-key-file=${pki.proxy.keyFile}`], /unable to load proxy client certificate/);
    startupError([`--proxy-client-cert-file=${pki.proxy.certFile}`, `--proxy-client-key-file=${pki.proxy.certFile}`], /unable to load proxy client key/);
    const { host } = boot([createRequestHeaderAuthenticator()], [...FLAGS(), `--proxy-client-cert-file=${pki.proxy.certFile}`, `--proxy-client-key-file=${pki.proxy.keyFile}`]);
    const creds = getProxyClientCredentials(host);
    assert.equal(creds?.certPem, pki.proxy.pem);
    assert.equal(creds?.privateKey.asymmetricKeyType, 'ec');
    assert.equal(getProxyClientCredentials(boot([createRequestHeaderAuthenticator()]).host), undefined);
  });

  it('warns when the proxy client certificate is not from the request-header CA', () => {
    const { logs } = boot([createRequestHeaderAuthenticator()], [...FLAGS(), `--proxy-client-cert-file=${pki.foreign.certFile}`, `--proxy-client-key-file=${pki.foreign.keyFile}`]);
    assert.ok(logs.some((l) => l.includes('not issued by a certificate of --requestheader-client-ca-file')), logs.join('\n'));
  });

  it('refuses blank header names, warns on non-standard ones', () => {
    assert.throws(() => boot([createRequestHeaderAuthenticator()], ['--requestheader-username-headers=X-Remote-User, ']), /empty value in "requestheader-username-headers"/);
    const { logs } = boot([createRequestHeaderAuthenticator()], [`--requestheader-client-ca-file=${pki.caFile}`, '--requestheader-username-headers=X-User']);
    assert.ok(logs.some((l) => l.includes('without specifying the standard X-Remote-User header')), logs.join('\n'));
  });
});

describe('RequestHeaderAuthenticator end to end (plat all over HTTPS)', () => {
  let plat: RunningPlat;
  let ca: string;
  const fx = fixtures();
  const headers = IDENTITY as unknown as Record<string, string>;

  before(async () => {
    plat = await startInProcess({ args: FLAGS() });
    ca = plat.admin.creds.ca;
  });
  after(async () => { await plat.stop(); });

  const client = (c: Issued) => new Client(plat.url, { ca, cert: c.pem, key: c.keyPem });
  const csrPath = '/apis/certificates.platform/v1/certificatesigningrequests';
  const stored = async (name: string) => plat.admin.get(`${csrPath}/${name}`);

  it('a CSR created through the front proxy carries the asserted user', async () => {
    const res = await client(pki.proxy).post(csrPath, baseCsr(fx, 'via-proxy'), headers);
    assert.equal(res.status, 201, res.text);
    const got = await stored('via-proxy');
    assert.equal(got.status, 200);
    const spec = got.json.spec as { username: string; uid?: string; groups: string[]; extra: UserInfo['extra'] };
    assert.equal(spec.username, 'alice');
    assert.equal(spec.uid, 'alice-uid');
    assert.deepEqual(spec.groups, ['dev', 'ops', 'system:authenticated']);
    assert.deepEqual(spec.extra, { scopes: ['a'], 'foo/bar': ['b'] });
  });

  it('reads repeated headers one by one over HTTP/2 as well', async () => {
    const session = http2.connect(plat.url, { ca, cert: pki.proxy.pem, key: pki.proxy.keyPem });
    try {
      const body = JSON.stringify(baseCsr(fx, 'via-proxy-h2'));
      const status = await new Promise<number>((resolve, reject) => {
        const stream = session.request({
          ':method': 'POST', ':path': csrPath, 'content-type': 'application/json', ...IDENTITY, 'x-remote-group': ['dev', 'ops, qa'],
        });
        stream.on('response', (h) => resolve(Number(h[':status'])));
        stream.on('error', reject);
        stream.resume();
        stream.end(body);
      });
      assert.equal(status, 201);
    } finally {
      session.close();
    }
    const spec = (await stored('via-proxy-h2')).json.spec as { username: string; groups: string[] };
    assert.equal(spec.username, 'alice');
    assert.deepEqual(spec.groups, ['dev', 'ops, qa', 'system:authenticated']);
  });

  it('reads names past ASCII as Go does, the UTF-8 bytes the proxy sends (HTTP/1.1 and HTTP/2)', async () => {
    // What a Go proxy (or Node given the bytes) puts on the wire for these names.
    const wire = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
    const asserted = { 'x-remote-user': wire('josé'), 'x-remote-group': [wire('開発'), 'ops'], 'x-remote-extra-scopes': wire('über') };
    const body = Buffer.from(JSON.stringify(baseCsr(fx, 'via-proxy-utf8')));
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(csrPath, plat.url);
      const req = https.request(url, {
        method: 'POST', ca, cert: pki.proxy.pem, key: pki.proxy.keyPem,
        headers: { 'content-type': 'application/json', 'content-length': body.length, ...asserted },
      }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
      req.on('error', reject);
      // A Buffer: node:http would write a string body together with the head in UTF-8, head included.
      req.end(body);
    });
    assert.equal(status, 201);
    const spec = (await stored('via-proxy-utf8')).json.spec as { username: string; groups: string[]; extra: UserInfo['extra'] };
    assert.deepEqual([spec.username, spec.groups, spec.extra], ['josé', ['開発', 'ops', 'system:authenticated'], { scopes: ['über'] }]);

    const session = http2.connect(plat.url, { ca, cert: pki.proxy.pem, key: pki.proxy.keyPem });
    try {
      const h2 = await new Promise<number>((resolve, reject) => {
        const stream = session.request({ ':method': 'POST', ':path': csrPath, 'content-type': 'application/json', ...asserted });
        stream.on('response', (h) => resolve(Number(h[':status'])));
        stream.on('error', reject);
        stream.resume();
        stream.end(JSON.stringify(baseCsr(fx, 'via-proxy-utf8-h2')));
      });
      assert.equal(h2, 201);
    } finally {
      session.close();
    }
    assert.equal(((await stored('via-proxy-utf8-h2')).json.spec as { username: string }).username, 'josé');
  });

  it("ignores identity headers on the admin's own client certificate", async () => {
    const res = await plat.admin.post(csrPath, baseCsr(fx, 'admin-with-headers'), headers);
    assert.equal(res.status, 201, res.text);
    const spec = (await stored('admin-with-headers')).json.spec as { username: string; groups: string[]; extra?: Record<string, string[]> };
    assert.equal(spec.username, 'plat-admin');
    assert.ok(!spec.groups.includes('dev'));
    assert.equal(spec.extra?.['scopes'], undefined);
  });

  for (const [what, cert] of [['a CN not in --requestheader-allowed-names', 'otherProxy'], ['a certificate from another CA', 'foreign']] as const) {
    it(`refuses identity headers from ${what}: 401, nothing stored`, async () => {
      const name = `refused-${cert.toLowerCase()}`;
      const res = await client(pki[cert]).post(csrPath, baseCsr(fx, name), headers);
      assert.equal(res.status, 401, res.text);
      assert.equal(res.json?.kind, 'Status');
      assert.equal((await stored(name)).status, 404);
    });
  }

  it('without a username header the proxy certificate is not a user (401 here, anonymous is off)', async () => {
    const res = await client(pki.proxy).post(csrPath, baseCsr(fx, 'proxy-no-user'), { 'x-remote-group': 'dev' });
    assert.equal(res.status, 401, res.text);
    assert.equal((await stored('proxy-no-user')).status, 404);
  });

  it('identity headers without any client certificate are ignored (401)', async () => {
    const res = await plat.admin.with({ anonymous: true }).post(csrPath, baseCsr(fx, 'no-cert'), headers);
    assert.equal(res.status, 401, res.text);
  });

  it('declares its flags under Authentication options, as the spec types them', () => {
    const { flags } = boot([createRequestHeaderAuthenticator()]);
    const owned = flags.specs().filter((s) => s.owner === 'RequestHeaderAuthenticator').map((s) => `${s.name}:${s.type}:${s.section}`);
    assert.deepEqual(owned, [
      'requestheader-client-ca-file:string:Authentication options',
      'requestheader-allowed-names:strings:Authentication options',
      'requestheader-username-headers:strings:Authentication options',
      'requestheader-group-headers:strings:Authentication options',
      'requestheader-extra-headers-prefix:strings:Authentication options',
      'requestheader-uid-headers:strings:Authentication options',
      'proxy-client-cert-file:string:Authentication options',
      'proxy-client-key-file:string:Authentication options',
    ]);
  });
});
