// core/authn/jwt.ts: every algorithm round-trips and verifies in node:crypto independently; keys
// never verify outside their family; shapes that are not compact JWS are refused.
import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, verify, constants, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  audiences, decodeJwt, importJwk, JOSE_ALGORITHMS, JwtError, keyFitsAlgorithm, keyId, MAX_JWT_BYTES, peekIssuer, publicJwk, signJwt, verifySignature,
  type JoseAlgorithm,
} from '../../core/authn/jwt.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const ec: Record<string, KeyObject> = {
  ES256: generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey,
  ES384: generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey,
  ES512: generateKeyPairSync('ec', { namedCurve: 'secp521r1' }).privateKey,
};
const keyFor = (alg: JoseAlgorithm) => (alg.startsWith('ES') ? ec[alg]! : rsa);

describe('JWS', () => {
  for (const alg of JOSE_ALGORITHMS) {
    it(`${alg}: signs, verifies, and an independent node:crypto check agrees`, () => {
      const key = keyFor(alg);
      const token = signJwt({ iss: 'x', n: 1 }, key, { alg, kid: 'k1' });
      const jwt = decodeJwt(token);
      assert.deepEqual(jwt.header, { alg, kid: 'k1' });
      assert.ok(verifySignature(jwt, createPublicKey(key), alg));
      const hash = `sha${alg.slice(2)}`;
      const opts = alg.startsWith('ES') ? { key: createPublicKey(key), dsaEncoding: 'ieee-p1363' as const }
        : alg.startsWith('PS') ? { key: createPublicKey(key), padding: constants.RSA_PKCS1_PSS_PADDING, saltLength: Number(alg.slice(2)) / 8 }
          : { key: createPublicKey(key) };
      assert.ok(verify(hash, jwt.signingInput, opts, jwt.signature));
      const tampered = decodeJwt(token.replace(/\.[^.]+\./, `.${Buffer.from('{"iss":"y","n":1}').toString('base64url')}.`));
      assert.ok(!verifySignature(tampered, createPublicKey(key), alg));
    });
  }

  it('judges an RSA key once, not on every token: no key export per verification', () => {
    // Exporting a KeyObject costs several times the verification itself; a token authenticator
    // verifies with the same long-lived keys on every request.
    const key = createPublicKey(rsa);
    const token = decodeJwt(signJwt({ iss: 'x' }, rsa, { alg: 'RS256' }));
    const proto = Object.getPrototypeOf(key) as { export: (...a: unknown[]) => unknown };
    const original = proto.export;
    let exports = 0;
    proto.export = function (this: KeyObject, ...a: unknown[]) { exports++; return original.apply(this, a); };
    try {
      for (let i = 0; i < 3; i++) assert.ok(verifySignature(token, key, 'RS256'));
      for (let i = 0; i < 3; i++) assert.ok(verifySignature(token, key, 'PS256') === false);
    } finally {
      proto.export = original;
    }
    assert.ok(exports <= 1, `${exports} exports for 6 verifications with one key`);
  });

  it('a header naming critical extensions never verifies (go-jose v2); null and [] name none', () => {
    const pub = createPublicKey(rsa);
    const signed = (header: Record<string, unknown>) => decodeJwt(signJwt({ iss: 'x' }, rsa, { alg: 'RS256', header }));
    assert.ok(!verifySignature(signed({ crit: ['exp'], exp: 1 }), pub, 'RS256'));
    assert.ok(!verifySignature(signed({ crit: 'exp' }), pub, 'RS256'));
    assert.ok(verifySignature(signed({ crit: [] }), pub, 'RS256'));
    assert.ok(verifySignature(signed({ crit: null }), pub, 'RS256'));
  });

  it('a key verifies only with its own family and curve', () => {
    assert.ok(!keyFitsAlgorithm(rsa, 'ES256'));
    assert.ok(!keyFitsAlgorithm(ec['ES256']!, 'ES384'));
    assert.ok(!keyFitsAlgorithm(ec['ES256']!, 'RS256'));
    const token = decodeJwt(signJwt({}, rsa, { alg: 'RS256' }));
    assert.ok(!verifySignature(token, createPublicKey(rsa), 'PS256'), 'PKCS#1 v1.5 signature is not a PSS one');
  });

  it('refuses what is not a compact JWS', () => {
    for (const bad of ['', 'a.b', 'a.b.c.d', '!!.e30.', 'e30.bm90LWpzb24.', 'W10.e30.', `e30.${'A'.repeat(MAX_JWT_BYTES)}.`]) {
      assert.throws(() => decodeJwt(bad), JwtError, bad.slice(0, 20));
    }
    assert.equal(peekIssuer('e30.eyJpc3MiOiJodHRwczovL2EifQ.'), 'https://a');
    assert.equal(peekIssuer('garbage'), undefined);
    assert.equal(peekIssuer('e30.eyJpc3MiOjF9.'), undefined, 'a non-string iss routes nowhere');
  });

  it('JWKs: kid is the SHA-256 of the SPKI, public only, importable', () => {
    const jwk = publicJwk(ec['ES256']!);
    assert.equal(jwk['kid'], keyId(ec['ES256']!));
    assert.equal(jwk['alg'], 'ES256');
    assert.equal(jwk.d, undefined);
    const back = importJwk(jwk);
    assert.equal(keyId(back), jwk['kid']);
    assert.throws(() => importJwk({ ...jwk, d: 'AAAA' }), /private key/);
    assert.throws(() => importJwk({ kty: 'oct', k: 'AAAA' }), /unsupported JWK key type/);
  });

  it('aud is a string or a list of strings', () => {
    assert.deepEqual(audiences({ aud: 'a' }), ['a']);
    assert.deepEqual(audiences({ aud: ['a', 'b'] }), ['a', 'b']);
    assert.deepEqual(audiences({}), []);
    assert.throws(() => audiences({ aud: [1] }), JwtError);
  });
});
