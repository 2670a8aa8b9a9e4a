// The service-account flags: several issuers (first signs, all verify), several verifying keys of
// both kinds, --api-audiences, the expiry cap, --service-account-jwks-uri, lookup off, and the
// start-up errors of invalid combinations.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { signJwt } from '../../core/authn/jwt.js';
import { StartupError } from '../../core/plugin.js';
import { ApiServerPlugin } from '../../plugins/apiserver/index.js';
import { AlwaysAllowAuthorizer } from '../../plugins/authz-always/index.js';
import { ServiceAccountsPlugin } from '../../plugins/serviceaccounts/index.js';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { runPlat } from '../helpers/run-plat.js';
import { startInProcess, tempDir, type RunningPlat } from '../helpers/plat.js';
import { boot } from './support.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';
const SAS = '/api/v1/namespaces/default/serviceaccounts';
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

function keyFiles(dir: string) {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ec384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' });
  const files = {
    rsaKey: path.join(dir, 'rsa.key'), rsaPub: path.join(dir, 'rsa.pub'), oldKey: path.join(dir, 'old.pem'), junk: path.join(dir, 'junk.pem'),
    ed: path.join(dir, 'ed.pem'),
  };
  writeFileSync(files.rsaKey, rsa.privateKey.export({ type: 'pkcs1', format: 'pem' }), { mode: 0o600 });
  writeFileSync(files.rsaPub, rsa.publicKey.export({ type: 'spki', format: 'pem' }));
  // A retired key still trusted for verification: its private half as an SEC1 "EC PRIVATE KEY".
  writeFileSync(files.oldKey, ec384.privateKey.export({ type: 'sec1', format: 'pem' }), { mode: 0o600 });
  writeFileSync(files.junk, 'not a key\n');
  writeFileSync(files.ed, generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));
  return { files, old: ec384.privateKey };
}

describe('service-account flags end to end', () => {
  let plat: RunningPlat;
  let keys: ReturnType<typeof keyFiles>;
  const fx = fixtures();
  before(async () => {
    keys = keyFiles(tempDir('plat-sa-keys-'));
    plat = await startInProcess({
      args: [
        '--service-account-issuer', 'https://issuer-a.example', '--service-account-issuer', 'https://issuer-b.example',
        '--service-account-key-file', keys.files.rsaPub, '--service-account-key-file', keys.files.oldKey,
        '--service-account-signing-key-file', keys.files.rsaKey,
        '--api-audiences', 'plat-api,other-api',
        '--service-account-max-token-expiration', '1h',
        '--service-account-jwks-uri', 'https://keys.example/jwks',
      ],
    });
    assert.equal((await plat.admin.post(SAS, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } })).status, 201);
  });
  after(async () => { await plat?.stop(); });

  it('the first issuer signs with the RSA key (RS256), audiences default to --api-audiences, lifetimes are capped', async () => {
    const r = await plat.admin.post(`${SAS}/robot/token`, { apiVersion: 'authentication.platform/v1', kind: 'TokenRequest', spec: { expirationSeconds: 7200 } });
    assert.equal(r.status, 201, r.text);
    assert.equal(r.json.spec.expirationSeconds, 3600, 'capped by --service-account-max-token-expiration');
    assert.equal(r.headers['warning'], '299 - "requested expiration of 7200 seconds shortened to 3600 seconds"');
    assert.deepEqual(r.json.spec.audiences, ['plat-api', 'other-api']);
    const token = r.json.status.token as string;
    const c = claimsOf(token);
    assert.equal(c.iss, 'https://issuer-a.example');
    assert.equal(c.exp - c.iat, 3600);
    assert.equal(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).alg, 'RS256');
    const csr = await plat.admin.with({ token }).post(CSRS, baseCsr(fx, 'rs256'));
    assert.equal(csr.status, 201, csr.text);
    assert.equal(csr.json.spec.username, 'system:serviceaccount:default:robot');
  });

  it('a token of the second issuer signed by a retired (verify-only) ES384 key is accepted; audience must be one of --api-audiences', async () => {
    const r = await plat.admin.post(`${SAS}/robot/token`, { apiVersion: 'authentication.platform/v1', kind: 'TokenRequest', spec: {} });
    const c = claimsOf(r.json.status.token);
    c.iss = 'https://issuer-b.example';
    c.aud = ['other-api'];
    const token = signJwt(c, keys.old);
    const ok = await plat.admin.with({ token }).post(CSRS, baseCsr(fx, 'es384'));
    assert.equal(ok.status, 201, ok.text);
    c.aud = ['https://issuer-a.example'];
    const refused = await plat.admin.with({ token: signJwt(c, keys.old) }).post(CSRS, baseCsr(fx, 'es384-aud'));
    assert.equal(refused.status, 401, 'the issuer is not an audience once --api-audiences is given');
  });

  it('the discovery document names the overriding JWKS URI and lists both algorithms', async () => {
    const r = await plat.admin.get('/.well-known/openid-configuration');
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.issuer, 'https://issuer-a.example');
    assert.equal(r.json.jwks_uri, 'https://keys.example/jwks');
    assert.deepEqual(r.json.id_token_signing_alg_values_supported, ['ES384', 'RS256']);
    const k = await plat.admin.get('/openid/v1/jwks');
    assert.deepEqual(k.json.keys.map((j: { kty: string; alg: string }) => `${j.kty}/${j.alg}`).sort(), ['EC/ES384', 'RSA/RS256']);
  });
});

describe('--service-account-lookup=false', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: ['--service-account-lookup=false'] }); });
  after(async () => { await plat?.stop(); });
  // Upstream's flag governs only legacy Secret tokens: bound tokens are always looked up.
  it('a bound token dies with its account all the same', async () => {
    await plat.admin.post(SAS, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'gone' } });
    const r = await plat.admin.post(`${SAS}/gone/token`, { apiVersion: 'authentication.platform/v1', kind: 'TokenRequest', spec: {} });
    const token = r.json.status.token as string;
    assert.equal((await plat.admin.delete(`${SAS}/gone`)).status, 200);
    const csr = await plat.admin.with({ token }).post(CSRS, baseCsr(fixtures(), 'after-delete'));
    assert.equal(csr.status, 401, csr.text);
  });
});

describe('plat all with an operator\'s issuer keeps its own signing key', () => {
  let plat: RunningPlat;
  before(async () => { plat = await startInProcess({ args: ['--service-account-issuer', 'https://custom.example'] }); });
  after(async () => { await plat?.stop(); });
  it('TokenRequest is served and its tokens authenticate', async () => {
    assert.equal((await plat.admin.post(SAS, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'robot' } })).status, 201);
    const r = await plat.admin.post(`${SAS}/robot/token`, { apiVersion: 'authentication.platform/v1', kind: 'TokenRequest', spec: {} });
    assert.equal(r.status, 201, r.text);
    const token = r.json.status.token as string;
    assert.equal(claimsOf(token).iss, 'https://custom.example');
    const csr = await plat.admin.with({ token }).post(CSRS, baseCsr(fixtures(), 'custom-issuer'));
    assert.equal(csr.status, 201, csr.text);
  });
});

describe('service-account start-up errors', () => {
  const { files } = keyFiles(tempDir('plat-sa-bad-'));
  const plugins = [ApiServerPlugin, AlwaysAllowAuthorizer, ServiceAccountsPlugin];
  const cases: [string, string[], RegExp][] = [
    ['key file without issuer', ['--service-account-key-file', files.rsaPub], /--service-account-key-file requires --service-account-issuer/],
    ['signing key without issuer', ['--service-account-signing-key-file', files.rsaKey], /--service-account-signing-key-file requires --service-account-issuer/],
    ['issuer without any key', ['--service-account-issuer', 'https://a.example'], /service-account-key-file is a required flag/],
    ['duplicate issuer', ['--service-account-issuer', 'https://a.example', '--service-account-issuer', 'https://a.example', '--service-account-key-file', files.rsaPub], /service-account-issuer "https:\/\/a\.example" is already specified/],
    ['issuer with a colon that is no URL', ['--service-account-issuer', '://a.example', '--service-account-key-file', files.rsaPub], /contained a ':' but was not a valid URL/],
    ['max expiration under an hour', ['--service-account-issuer', 'https://a.example', '--service-account-key-file', files.rsaPub, '--service-account-max-token-expiration', '30m'], /must be between 1 hour and 2\^32 seconds/],
    ['jwks uri over http', ['--service-account-issuer', 'https://a.example', '--service-account-key-file', files.rsaPub, '--service-account-jwks-uri', 'http://keys.example/jwks'], /service-account-jwks-uri requires https scheme/],
    ['key file that holds no key', ['--service-account-issuer', 'https://a.example', '--service-account-key-file', files.junk, '--service-account-signing-key-file', files.rsaKey], /--service-account-key-file: .*junk\.pem: no RSA or ECDSA public or private key found/],
    ['Ed25519 key', ['--service-account-issuer', 'https://a.example', '--service-account-key-file', files.ed, '--service-account-signing-key-file', files.rsaKey], /unsupported key type ed25519/],
    ['missing key file', ['--service-account-issuer', 'https://a.example', '--service-account-key-file', path.join(files.junk, 'nope'), '--service-account-signing-key-file', files.rsaKey], /^open .*nope: (not a directory|no such file or directory)$/],
    // kube-apiserver's validateTokenRequest: an issuer or API audiences without a signer.
    ['issuer and verifying key without a signing key', ['--service-account-issuer', 'https://a.example', '--service-account-key-file', files.rsaPub], /^--service-account-signing-key-file, --service-account-issuer, and --api-audiences should be specified together$/],
    ['api audiences without issuer', ['--api-audiences', 'plat-api'], /--api-audiences requires --service-account-issuer/],
    ['signing key that is only public', ['--service-account-issuer', 'https://a.example', '--service-account-key-file', files.rsaPub, '--service-account-signing-key-file', files.rsaPub], /--service-account-signing-key-file: .*rsa\.pub: no RSA or ECDSA private key found/],
  ];
  for (const [name, argv, message] of cases) {
    it(name, () => {
      assert.throws(() => boot(plugins, argv), (e: unknown) => e instanceof StartupError && message.test(e.message));
    });
  }

  it('the serving key is the default verifying key', () => {
    const { logs } = boot(plugins, ['--service-account-issuer', 'https://a.example', '--tls-private-key-file', files.rsaKey, '--service-account-signing-key-file', files.oldKey]);
    assert.ok(logs.some((l) => l.includes('service account tokens enabled') && l.includes('keys=1')), logs.join('\n'));
  });

  it('the external signer endpoint is refused as not implemented, and the process exits 2', () => {
    const out = runPlat(['apiserver', '--service-account-signing-endpoint', '/run/signer.sock', '--data-dir', tempDir()]);
    assert.equal(out.code, 2, out.stderr);
    assert.match(out.stderr, /--service-account-signing-endpoint/);
  });
});

describe('plat apiserver --help lists the service-account flags with the spec defaults', () => {
  it('shows each flag', () => {
    const out = runPlat(['apiserver', '--help']);
    assert.equal(out.code, 0, out.stderr);
    for (const f of ['--service-account-issuer', '--service-account-jwks-uri', '--service-account-key-file', '--service-account-signing-key-file', '--service-account-max-token-expiration', '--api-audiences']) {
      assert.match(out.stdout, new RegExp(`^\\s+${f}\\b`, 'm'), f);
    }
    const block = (flag: string) => out.stdout.split(/\n(?=\s+--)/).find((b) => b.trimStart().startsWith(`${flag} `)) ?? '';
    assert.match(block('--service-account-lookup'), /\(default true\)/);
    assert.match(block('--service-account-extend-token-expiration'), /\(default true\)/);
  });
});
