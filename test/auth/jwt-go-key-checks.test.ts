// JWT signatures as go-jose checks them (service-account and OIDC tokens alike), against plat all
// with a real OIDC issuer on loopback: an RSA key Go's crypto/rsa refuses verifies nothing (with
// e = 1 a "signature" is the padded digest, so anyone could write tokens for an issuer whose key
// set lists such a key), and PS256 takes any salt length, as rsa.VerifyPSS(..., nil) does.
import assert from 'node:assert/strict';
import { constants, createPrivateKey, generateKeyPairSync, sign } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { baseCsr, fixtures } from '../certificates/fixtures.js';
import { TestOidcIssuer } from '../helpers/oidc-issuer.js';
import { startInProcess, type RunningPlat } from '../helpers/plat.js';

const CSRS = '/apis/certificates.platform/v1/certificatesigningrequests';

describe('OIDC token signatures Go refuses or accepts', () => {
  const issuer = new TestOidcIssuer();
  const dir = mkdtempSync(join(tmpdir(), 'plat-jwt-keys-'));
  let plat: RunningPlat;
  let n = 0;

  before(async () => {
    await issuer.start();
    const caFile = join(dir, 'issuer-ca.crt');
    writeFileSync(caFile, issuer.caPem);
    plat = await startInProcess({ args: ['--oidc-issuer-url', issuer.url, '--oidc-client-id', 'plat-client', '--oidc-ca-file', caFile, '--oidc-signing-algs', 'RS256,PS256'] });
  });
  after(async () => {
    await plat.stop();
    await issuer.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Status of a CSR create with `token`, polling while the issuer's keys are still being fetched. */
  const statusWith = async (token: string): Promise<number> => {
    const name = `jwt-keys-${n++}`;
    return (await plat.admin.with({ token }).post(CSRS, baseCsr(fixtures(), name))).status;
  };

  it('takes a token of a good key', async () => {
    const token = issuer.sign(issuer.claims());
    let status = 0;
    for (let i = 0; i < 200 && status !== 201; i++) {
      status = await statusWith(token);
      if (status !== 201) await new Promise((r) => setTimeout(r, 25));
    }
    assert.equal(status, 201);
  });

  it('refuses a token "signed" for a listed RSA key with e = 1 (d = 1: no secret involved)', async () => {
    const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
    const one = Buffer.from([1]).toString('base64url');
    const key = createPrivateKey({ key: { ...jwk, e: one, d: one, dp: one, dq: one }, format: 'jwk' });
    issuer.addKey('RS256', key);
    assert.equal(await statusWith(issuer.sign(issuer.claims())), 401);
  });

  it('takes PS256 by a key its JWK lists with alg RS256 (go-jose ignores a JWK\'s alg)', async () => {
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const kid = issuer.addKey('RS256', key);
    assert.equal(await statusWith(issuer.sign(issuer.claims(), { key, alg: 'PS256', kid })), 201);
  });

  it('takes PS256 with a salt longer than the hash (Go signs so with rsa.SignPSS(..., nil))', async () => {
    const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const kid = issuer.addKey('PS256', key);
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const input = `${b64({ alg: 'PS256', kid })}.${b64(issuer.claims())}`;
    const signature = sign('sha256', Buffer.from(input), { key, padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: constants.RSA_PSS_SALTLEN_MAX_SIGN });
    assert.equal(await statusWith(`${input}.${signature.toString('base64url')}`), 201);
  });
});
