// Service accounts end to end over HTTPS: ServiceAccounts through the API, tokens from the
// TokenRequest subresource, CSRs created with those tokens, the issuer discovery documents, and
// every way a token can be bad (each 401 with nothing stored).
import assert from 'node:assert/strict';
import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { signJwt } from '../../core/authn/jwt.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { Kubectl } from '../helpers/kubectl.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const SAS = (ns: string) => `/api/v1/namespaces/${ns}/serviceaccounts`;
const TOKEN = (ns: string, name: string) => `${SAS(ns)}/${name}/token`;
const ISSUER = 'https://platform.default.svc.cluster.local';

const b64json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
const claimsOf = (token: string) => b64json(token.split('.')[1]!);
const headerOf = (token: string) => b64json(token.split('.')[0]!);
const tokenRequest = (spec: Record<string, unknown> = {}, apiVersion = 'authentication.platform/v1') => ({ apiVersion, kind: 'TokenRequest', spec });

async function requestToken(plat: RunningPlat, ns: string, name: string, spec: Record<string, unknown> = {}): Promise<string> {
  const r = await plat.admin.post(TOKEN(ns, name), tokenRequest(spec));
  assert.equal(r.status, 201, r.text);
  return r.json.status.token as string;
}

describe('service account tokens (plat all: its own issuer and key)', () => {
  let plat: RunningPlat;
  let saKey: KeyObject;
  let saUid: string;
  const fx = fixtures();
  const created: string[] = [];
  /** Creates a CSR with `token`: its stored spec, or the refusal. */
  const createWith = async (token: string, name: string) => {
    const r = await plat.admin.with({ token }).post(CSRS, baseCsr(fx, name));
    if (r.status === 201) created.push(name);
    return r;
  };
  const assertRefused = async (token: string, name: string, why: string) => {
    const r = await createWith(token, name);
    assert.equal(r.status, 401, `${why}: ${r.text}`);
    assert.equal(r.json.kind, 'Status');
    assert.equal(r.json.reason, 'Unauthorized');
    assert.equal((await plat.admin.get(`${CSRS}/${name}`)).status, 404, `${why}: nothing stored`);
  };
  /** A token exactly like the server's, with `patch` applied to its claims, signed by `key`. */
  const forged = async (patch: (c: Record<string, any>) => void, key: KeyObject = saKey, opts: { alg?: 'ES256' | 'RS256' } = {}) => {
    const c = claimsOf(await requestToken(plat, 'default', 'robot'));
    patch(c);
    return signJwt(c, key, opts);
  };

  const review = async (token: string) => {
    const r = await plat.admin.post('/apis/authentication.platform/v1/tokenreviews', { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token } });
    assert.equal(r.status, 201, r.text);
    return r.json.status;
  };

  before(async () => {
    plat = await startInProcess();
    saKey = createPrivateKey(readFileSync(path.join(plat.dataDir, 'pki', 'sa.key')));
    const r = await plat.admin.post(SAS('default'), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
    assert.equal(r.status, 201, r.text);
    saUid = r.json.metadata.uid;
  });
  after(async () => { await plat?.stop(); });

  it('the private key of the issuer is written 0600', () => {
    assert.equal(statSync(path.join(plat.dataDir, 'pki', 'sa.key')).mode & 0o777, 0o600);
  });

  it('a TokenRequest answers a signed token with upstream defaults', async () => {
    const before = Date.now();
    const r = await plat.admin.post(TOKEN('default', 'robot'), tokenRequest());
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.apiVersion, 'authentication.platform/v1');
    assert.equal(r.json.kind, 'TokenRequest');
    assert.equal(r.json.metadata.name, 'robot');
    assert.equal(r.json.metadata.namespace, 'default');
    assert.deepEqual(r.json.spec.audiences, [ISSUER]);
    assert.equal(r.json.spec.expirationSeconds, 3600);
    const token = r.json.status.token as string;
    const c = claimsOf(token);
    assert.equal(headerOf(token).alg, 'ES256');
    assert.equal(c.iss, ISSUER);
    assert.equal(c.sub, 'system:serviceaccount:default:robot');
    assert.deepEqual(c.aud, [ISSUER]);
    assert.equal(c.exp - c.iat, 3600);
    assert.equal(c.nbf, c.iat);
    assert.ok(c.iat * 1000 >= before - 1000 && c.iat * 1000 <= Date.now());
    assert.deepEqual(c.platform, { namespace: 'default', serviceaccount: { name: 'robot', uid: saUid } });
    assert.equal(Date.parse(r.json.status.expirationTimestamp), c.exp * 1000);
  });

  it('a body in upstream\'s apiVersion (kubectl\'s typed client) is answered in it', async () => {
    const r = await plat.admin.post(TOKEN('default', 'robot'), tokenRequest({ audiences: ['vault'] }, 'authentication.k8s.io/v1'));
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.apiVersion, 'authentication.k8s.io/v1');
    assert.deepEqual(claimsOf(r.json.status.token).aud, ['vault']);
  });

  it('a CSR created with the token carries the service account as requestor', async () => {
    const token = await requestToken(plat, 'default', 'robot');
    const r = await createWith(token, 'sa-csr-1');
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.spec.username, 'system:serviceaccount:default:robot');
    assert.equal(r.json.spec.uid, saUid);
    assert.deepEqual(r.json.spec.groups, ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated']);
    assert.deepEqual(r.json.spec.extra, { 'authentication.platform/credential-id': [`JTI=${claimsOf(token).jti}`] });
  });

  it('TokenRequest validation: lifetime bounds, names, missing accounts, bindings', async () => {
    let r = await plat.admin.post(TOKEN('default', 'robot'), tokenRequest({ expirationSeconds: 599 }));
    assert.equal(r.status, 422, r.text);
    assert.equal(r.json.message, 'TokenRequest.authentication.platform "" is invalid: spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes');
    r = await plat.admin.post(TOKEN('default', 'robot'), tokenRequest({ expirationSeconds: 2 ** 32 + 1 }));
    assert.equal(r.status, 422, r.text);
    assert.match(r.json.message, /may not specify a duration larger than 2\^32 seconds/);
    r = await plat.admin.post(TOKEN('default', 'robot'), { ...tokenRequest(), metadata: { name: 'other' } });
    assert.equal(r.status, 422, r.text);
    assert.match(r.json.message, /metadata\.name: Invalid value: "other": must match the service account name if specified/);
    r = await plat.admin.post(TOKEN('default', 'ghost'), tokenRequest());
    assert.equal(r.status, 404, r.text);
    assert.equal(r.json.message, 'serviceaccounts "ghost" not found');
    r = await plat.admin.post(TOKEN('default', 'robot'), tokenRequest({ boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'p1' } }));
    assert.equal(r.status, 404, r.text);
    assert.equal(r.json.message, 'pods "p1" not found');
    r = await plat.admin.post(TOKEN('default', 'robot'), tokenRequest({ boundObjectRef: { kind: 'ConfigMap', apiVersion: 'v1', name: 'p' } }));
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.message, 'cannot bind token to object of type /v1, Kind=ConfigMap');
    r = await plat.admin.post(TOKEN('default', 'robot'), { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: {} });
    assert.equal(r.status, 400, r.text);
    r = await plat.admin.post(TOKEN('default', 'robot'), tokenRequest({ expirationSeconds: 'soon' }));
    assert.equal(r.status, 400, r.text);
    r = await plat.admin.post(`${SAS('default')}/robot/token?dryRun=All`, tokenRequest());
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.status.token, '', 'a dry run signs nothing');
  });

  it('a token bound to a Secret lives as long as the Secret (same uid)', async () => {
    let r = await plat.admin.post('/api/v1/namespaces/default/secrets', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'anchor' } });
    assert.equal(r.status, 201, r.text);
    const uid = r.json.metadata.uid as string;
    r = await plat.admin.post(TOKEN('default', 'robot'), tokenRequest({ boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'anchor', uid: 'not-the-uid' } }));
    assert.equal(r.status, 409, r.text);
    assert.equal(r.json.message, 'Operation cannot be fulfilled on Secret "anchor": the UID in the bound object reference (not-the-uid) does not match the UID in record. The object might have been deleted and then recreated');
    // An apiVersion schema.ParseGroupVersion refuses is no group and no version: still a core Secret.
    assert.deepEqual(claimsOf(await requestToken(plat, 'default', 'robot', { boundObjectRef: { kind: 'Secret', apiVersion: 'a/b/c', name: 'anchor' } })).platform.secret, { name: 'anchor', uid });
    const token = await requestToken(plat, 'default', 'robot', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'anchor', uid } });
    assert.deepEqual(claimsOf(token).platform.secret, { name: 'anchor', uid });
    assert.equal((await createWith(token, 'bound-ok')).status, 201);
    assert.equal((await plat.admin.delete('/api/v1/namespaces/default/secrets/anchor')).status, 200);
    await assertRefused(token, 'bound-gone', 'Secret deleted');
    assert.equal((await review(token)).error, '[invalid bearer token, service account token has been invalidated]');
  });

  it('a token bound to a Node carries the node and lives as long as the Node', async () => {
    let r = await plat.admin.post('/api/v1/nodes', { apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    assert.equal(r.status, 201, r.text);
    const uid = r.json.metadata.uid as string;
    const token = await requestToken(plat, 'default', 'robot', { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'n1', uid } });
    assert.deepEqual(claimsOf(token).platform.node, { name: 'n1', uid });
    const ok = await review(token);
    assert.equal(ok.authenticated, true, JSON.stringify(ok));
    assert.deepEqual(ok.user.extra['authentication.platform/node-name'], ['n1']);
    assert.deepEqual(ok.user.extra['authentication.platform/node-uid'], [uid]);
    r = await plat.admin.delete('/api/v1/nodes/n1');
    assert.equal(r.status, 200, r.text);
    assert.equal((await review(token)).error, '[invalid bearer token, service account token has been invalidated]');
  });

  it('a deleted (or re-created) service account\'s tokens stop working', async () => {
    await plat.admin.post(SAS('default'), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'short-lived' } });
    const token = await requestToken(plat, 'default', 'short-lived');
    assert.equal((await createWith(token, 'sl-1')).status, 201);
    const deleted = await plat.admin.delete(`${SAS('default')}/short-lived`);
    assert.equal(deleted.status, 200);
    // ReturnDeletedObject, as upstream's serviceaccount storage: the object, not a Status.
    assert.equal(deleted.json.kind, 'ServiceAccount', deleted.text);
    assert.equal(deleted.json.metadata.name, 'short-lived');
    await assertRefused(token, 'sl-2', 'account deleted');
    // The getter's NotFound, as upstream passes it on.
    assert.equal((await review(token)).error, '[invalid bearer token, serviceaccounts "short-lived" not found]');
    await plat.admin.post(SAS('default'), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'short-lived' } });
    await assertRefused(token, 'sl-3', 'account re-created with another uid');
  });

  it('bad tokens are 401 with nothing stored', async () => {
    const now = Math.floor(Date.now() / 1000);
    const good = await requestToken(plat, 'default', 'robot');
    const [h, p] = good.split('.') as [string, string];
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${p}.`;
    const hsHeader = Buffer.from(JSON.stringify({ alg: 'HS256' })).toString('base64url');
    // The classic confusion attack: HMAC keyed with the public key.
    const pubPem = createPublicKey(saKey).export({ type: 'spki', format: 'pem' });
    const hs = `${hsHeader}.${p}.${createHmac('sha256', pubPem).update(`${hsHeader}.${p}`).digest('base64url')}`;
    const cases: [string, string][] = [
      ['malformed: two parts', `${h}.${p}`],
      ['malformed: bad signature encoding', `${h}.${p}.***`],
      ['malformed: header not JSON', `${Buffer.from('{nope').toString('base64url')}.${p}.${good.split('.')[2]}`],
      ['expired', await forged((c) => { c.iat = now - 7200; c.nbf = now - 7200; c.exp = now - 120; })],
      ['not yet valid', await forged((c) => { c.nbf = now + 600; c.iat = now; })],
      ['issued in the future', await forged((c) => { c.iat = now + 600; c.nbf = now; })],
      ['signed by another key', await forged(() => {}, other)],
      ['signed by another RSA key', await forged(() => {}, rsa, { alg: 'RS256' })],
      ['wrong audience', await forged((c) => { c.aud = ['someone-else']; })],
      ['wrong issuer (one nobody configured)', await forged((c) => { c.iss = 'https://evil.example'; })],
      ['alg none', none],
      ['HS256 keyed with the public key', hs],
      ['subject not matching the account claim', await forged((c) => { c.sub = 'system:serviceaccount:default:admin'; })],
      ['missing private claims', await forged((c) => { delete c.platform; })],
      ['forged uid', await forged((c) => { c.platform.serviceaccount.uid = '00000000-0000-0000-0000-000000000000'; })],
      ['oversized', await forged((c) => { c.pad = 'x'.repeat(70_000); })],
      ['a critical header extension (go-jose v2 understands none)', signJwt(claimsOf(good), saKey, { header: { crit: ['foo'], foo: 1 } })],
      ['tampered payload', `${h}.${Buffer.from(JSON.stringify({ ...claimsOf(good), sub: 'system:serviceaccount:default:x' })).toString('base64url')}.${good.split('.')[2]}`],
    ];
    for (const [i, [why, token]] of cases.entries()) await assertRefused(token, `bad-${i}`, why);
    assert.equal((await createWith(good, 'bad-control')).status, 201, 'the unmodified token still works');
  });

  it('TokenReview says why, after the loopback authenticator\'s invalid bearer token', async () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
    const kid = headerOf(await requestToken(plat, 'default', 'robot')).kid as string;
    const cases: [string, string, string][] = [
      ['no kid, no key verifies', await forged(() => {}, other), '[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]'],
      ['our kid, another key', signJwt(claimsOf(await requestToken(plat, 'default', 'robot')), other, { kid }), '[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]'],
      ['a kid no key has', signJwt(claimsOf(await requestToken(plat, 'default', 'robot')), saKey, { kid: 'unknown' }), '[invalid bearer token, invalid signature, no keys found]'],
      ['alg none', `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${(await requestToken(plat, 'default', 'robot')).split('.')[1]}.`, '[invalid bearer token, go-jose/go-jose: error in cryptographic primitive]'],
      ['not a service-account token', 'abc.def', 'invalid bearer token'],
    ];
    for (const [why, token, error] of cases) {
      const st = await review(token);
      assert.equal(st.authenticated, false, why);
      assert.equal(st.error, error, why);
    }
  });

  it('a token without exp is held to its other claims only (go-jose checks exp when present)', async () => {
    const st = await review(await forged((c) => { delete c.exp; }));
    assert.equal(st.authenticated, true, JSON.stringify(st));
  });

  it('the server log says the authenticator\'s error, never the token', async () => {
    const logs: string[] = [];
    const { createLogger } = await import('../../core/log.js');
    const p2 = await startInProcess({ logger: createLogger({ verbosity: 2, write: (l) => logs.push(l) }) });
    try {
      await p2.admin.post(SAS('default'), { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } });
      const token = await requestToken(p2, 'default', 'robot', { audiences: ['elsewhere'] });
      const r = await p2.admin.with({ token }).get(CSRS);
      assert.equal(r.status, 401);
      const line = logs.find((l) => l.includes('Unable to authenticate the request'));
      assert.ok(line, logs.join('\n'));
      assert.match(line, /^E.*\] Unable to authenticate the request err="token audiences \[\\"elsewhere\\"\] is invalid for the target audiences \[\\"https:\/\/platform.default.svc.cluster.local\\"\]"$/);
      assert.ok(!logs.some((l) => l.includes(token.split('.')[2]!)), 'the token is not logged');
    } finally { await p2.stop(); }
  });

  it('TokenReview checks the requested audiences and reports those the token is good for', async () => {
    const token = await requestToken(plat, 'default', 'robot', { audiences: ['vault', 'x'] });
    let r = await plat.admin.post('/apis/authentication.platform/v1/tokenreviews', { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token, audiences: ['vault', 'y'] } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.status.authenticated, true);
    assert.equal(r.json.status.user.username, 'system:serviceaccount:default:robot');
    assert.deepEqual(r.json.status.audiences, ['vault']);
    assert.deepEqual((await review(await requestToken(plat, 'default', 'robot'))).audiences, [ISSUER], 'no spec.audiences: the API audiences');
    r = await plat.admin.post('/apis/authentication.platform/v1/tokenreviews', { apiVersion: 'authentication.platform/v1', kind: 'TokenReview', spec: { token } });
    assert.equal(r.json.status.authenticated, false, 'not for the API server');
    assert.match(r.json.status.error, /token audiences \["vault" "x"\] is invalid for the target audiences \["https:\/\/platform\.default\.svc\.cluster\.local"\]/);
  });

  it('serves the issuer discovery document and a JWKS that verifies issued tokens', async () => {
    const r = await plat.admin.get('/.well-known/openid-configuration');
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /^application\/json/);
    assert.equal(r.headers['cache-control'], 'public, max-age=3600');
    const u = new URL(plat.url);
    assert.deepEqual(r.json, {
      issuer: ISSUER, jwks_uri: `https://${u.host}/openid/v1/jwks`,
      response_types_supported: ['id_token'], subject_types_supported: ['public'], id_token_signing_alg_values_supported: ['ES256'],
    });
    const k = await plat.admin.get('/openid/v1/jwks');
    assert.equal(k.status, 200);
    assert.match(String(k.headers['content-type']), /^application\/jwk-set\+json/);
    assert.equal(k.json.keys.length, 1);
    const jwk = k.json.keys[0];
    assert.equal(jwk.use, 'sig');
    assert.equal(jwk.alg, 'ES256');
    assert.equal(jwk.d, undefined, 'no private part');
    const token = await requestToken(plat, 'default', 'robot');
    assert.equal(headerOf(token).kid, jwk.kid);
    const [h, p, s] = token.split('.') as [string, string, string];
    assert.ok(verify('sha256', Buffer.from(`${h}.${p}`), { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url')));
  });

  it('discovery lists serviceaccounts/token as a create-only TokenRequest subresource', async () => {
    const r = await plat.admin.get('/api/v1');
    const token = r.json.resources.find((x: { name: string }) => x.name === 'serviceaccounts/token');
    assert.deepEqual(token, { name: 'serviceaccounts/token', singularName: '', namespaced: true, group: 'authentication.platform', version: 'v1', kind: 'TokenRequest', verbs: ['create'] });
    const sa = r.json.resources.find((x: { name: string }) => x.name === 'serviceaccounts');
    assert.deepEqual(sa.shortNames, ['sa']);
  });
});

describe('kubectl create serviceaccount / create token, then kubectl with that token', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess(); });
  after(async () => { await plat?.stop(); });

  it('creates a CSR as the service account', async () => {
    const admin = new Kubectl(plat.kubeconfig);
    let r = await admin.run(['create', 'serviceaccount', 'builder', '-n', 'default']);
    assert.equal(r.code, 0, r.stderr);
    r = await admin.run(['get', 'sa', 'builder', '-n', 'default']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^NAME\s+SECRETS\s+AGE\nbuilder\s+0\s+/);
    r = await admin.run(['create', 'token', 'builder', '-n', 'default', '--duration=15m']);
    assert.equal(r.code, 0, r.stderr);
    const token = r.stdout.trim();
    const c = claimsOf(token);
    assert.equal(c.exp - c.iat, 900);

    const dir = tempDir('plat-sa-kubectl-');
    const ca = readFileSync(path.join(plat.dataDir, 'pki', 'ca.crt'), 'utf8');
    const kubeconfig = path.join(dir, 'sa.conf');
    writeFileSync(kubeconfig, [
      'apiVersion: v1', 'kind: Config',
      'clusters:', '- name: plat', '  cluster:', `    server: ${plat.url}`, `    certificate-authority-data: ${Buffer.from(ca).toString('base64')}`,
      'users:', '- name: builder', '  user:', `    token: ${token}`,
      'contexts:', '- name: builder', '  context:', '    cluster: plat', '    user: builder',
      'current-context: builder', '',
    ].join('\n'));
    const fx = fixtures();
    const csrFile = path.join(dir, 'csr.json');
    writeFileSync(csrFile, JSON.stringify(baseCsr(fx, 'from-sa')));
    const sa = new Kubectl(kubeconfig);
    r = await sa.run(['create', '-f', csrFile]);
    assert.equal(r.code, 0, r.stderr);
    r = await sa.run(['get', 'certificatesigningrequests.v1.certificates.platform', 'from-sa', '-o', 'jsonpath={.spec.username}']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'system:serviceaccount:default:builder');
  });
});
