// ECDSA P-256 in the WASM core against RFC 6979 vectors, node:crypto and @noble/curves.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { p256 } from '@noble/curves/nist';
import {
  wasmP256PublicKey, wasmP256Sign, wasmP256SignBatch, wasmP256SignDigest, wasmP256Verify,
  wasmP256VerifyCode, wasmP256VerifyDigest,
} from '../../core/crypto/wasm/p256.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const sha256 = (m: Uint8Array): Uint8Array => new Uint8Array(createHash('sha256').update(m).digest());
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const int32 = (x: bigint): string => x.toString(16).padStart(64, '0');

/** Minimal DER for (r, s) as hex, for hand-built signatures. */
function derOf(r: bigint, s: bigint): Uint8Array {
  const int = (x: bigint): string => {
    let h = x.toString(16);
    if (h.length % 2) h = '0' + h;
    if (parseInt(h.slice(0, 2), 16) >= 0x80) h = '00' + h;
    return '02' + (h.length / 2).toString(16).padStart(2, '0') + h;
  };
  const body = int(r) + int(s);
  return unhex('30' + (body.length / 2).toString(16).padStart(2, '0') + body);
}

function parseDer(sig: Uint8Array): { r: bigint; s: bigint } {
  const { r, s } = p256.Signature.fromDER(sig);
  return { r, s };
}

function nodeKey(): { priv: Uint8Array; pub: Uint8Array; privateKey: KeyObject; publicKey: KeyObject } {
  const generated = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  // Read back from PKCS#8: a JWK export of a key straight from generateKeyPairSync can deadlock Node 20.
  const privateKey = createPrivateKey(generated.privateKey.export({ format: 'pem', type: 'pkcs8' }));
  const publicKey = generated.publicKey;
  const d = privateKey.export({ format: 'jwk' }).d!;
  const pub = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(-65));
  return { priv: new Uint8Array(Buffer.from(d, 'base64url')), pub, privateKey, publicKey };
}

// RFC 6979 appendix A.2.5, P-256 with SHA-256.
const RFC = {
  x: 'c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721',
  ux: '60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6',
  uy: '7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299',
  cases: [
    { msg: 'sample', k: 'a6e3c57dd01abe90086538398355dd4c3b17aa873382b0f24d6129493d8aad60',
      r: 'efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716',
      s: 'f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8' },
    { msg: 'test', k: 'd16b6ae827f17175e040871a1c7ec3500192c4c92677336ec2537acaee0008e0',
      r: 'f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367',
      s: '019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083' },
  ],
};

describe('wasm p256: RFC 6979 A.2.5 vectors', () => {
  it('derives the public key U', () => {
    assert.equal(hex(wasmP256PublicKey(unhex(RFC.x))), '04' + RFC.ux + RFC.uy);
  });
  for (const c of RFC.cases) {
    it(`signs "${c.msg}" byte-identically (k, r, s)`, () => {
      const sig = wasmP256Sign(unhex(RFC.x), new TextEncoder().encode(c.msg));
      const { r, s } = parseDer(sig);
      assert.equal(int32(r), c.r, `${c.msg}: r`);
      assert.equal(int32(s), c.s, `${c.msg}: s`);
      assert.deepEqual(sig, derOf(BigInt('0x' + c.r), BigInt('0x' + c.s)), `${c.msg}: DER`);
      // r is x(kG) mod n, so the nonce was the RFC's k.
      assert.equal(p256.ProjectivePoint.BASE.multiply(BigInt('0x' + c.k)).x % N, r, `${c.msg}: k`);
    });
  }
});

describe('wasm p256: against node:crypto and noble', () => {
  it('public keys equal node\'s, signatures verify in node and noble and equal noble\'s', () => {
    for (let i = 0; i < 40; i++) {
      const { priv, pub, publicKey } = nodeKey();
      assert.deepEqual(wasmP256PublicKey(priv), pub, `key ${i}`);
      const msg = randomBytes(i * 7);
      const sig = wasmP256Sign(priv, msg);
      assert.ok(verify('sha256', msg, { key: publicKey, dsaEncoding: 'der' }, sig), `node verify ${i}`);
      assert.ok(p256.verify(sig, sha256(msg), pub, { lowS: false }), `noble verify ${i}`);
      const ref = p256.sign(msg, priv, { lowS: false, prehash: true }).toDERRawBytes();
      assert.deepEqual(sig, ref, `noble deterministic signature ${i}`);
      assert.deepEqual(wasmP256SignDigest(priv, sha256(msg)), sig, `digest entry ${i}`);
    }
  });

  it('verifies node:crypto signatures (random k) and rejects tampering', () => {
    for (let i = 0; i < 30; i++) {
      const { pub, privateKey } = nodeKey();
      const msg = randomBytes(1 + i);
      const sig = new Uint8Array(sign('sha256', msg, { key: privateKey, dsaEncoding: 'der' }));
      assert.equal(wasmP256Verify(pub, msg, sig), true, `valid ${i}`);
      assert.equal(wasmP256VerifyDigest(pub, sha256(msg), sig), true, `valid digest ${i}`);
      const m2 = Buffer.from(msg); m2[i % m2.length]! ^= 1;
      assert.equal(wasmP256Verify(pub, m2, sig), false, `tampered message ${i}`);
      const { r, s } = parseDer(sig);
      assert.equal(wasmP256Verify(pub, msg, derOf(r, s ^ 1n)), false, `tampered s ${i}`);
      assert.equal(wasmP256Verify(pub, msg, derOf(r ^ 2n, s)), false, `tampered r ${i}`);
      assert.equal(wasmP256Verify(nodeKey().pub, msg, sig), false, `other key ${i}`);
      const s2 = Uint8Array.from(sig); s2[s2.length - 1]! ^= 0x10;
      assert.equal(wasmP256Verify(pub, msg, s2), false, `flipped byte ${i}`);
    }
  });

  it('accepts compressed public keys (both parities)', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 64 && (i < 12 || seen.size < 2); i++) {
      const { priv } = nodeKey();
      const compressed = p256.getPublicKey(priv, true);
      seen.add(compressed[0]!);
      const msg = randomBytes(20);
      assert.equal(wasmP256Verify(compressed, msg, wasmP256Sign(priv, msg)), true, `compressed ${i}`);
      assert.equal(wasmP256Verify(compressed, randomBytes(20), wasmP256Sign(priv, msg)), false);
    }
    assert.equal(seen.size, 2, 'both 02 and 03 prefixes exercised');
  });

  it('batch signing equals one-by-one signing', () => {
    const { priv, publicKey } = nodeKey();
    for (const count of [1, 2, 7, 33]) {
      const msgs = Array.from({ length: count }, (_, i) => randomBytes(i + 3));
      const sigs = wasmP256SignBatch(priv, msgs.map(sha256));
      assert.equal(sigs.length, count);
      sigs.forEach((sig, i) => {
        assert.deepEqual(sig, wasmP256Sign(priv, msgs[i]!), `batch ${count} #${i}`);
        assert.ok(verify('sha256', msgs[i]!, { key: publicKey, dsaEncoding: 'der' }, sig));
      });
    }
    assert.deepEqual(wasmP256SignBatch(priv, []), []);
  });
});

describe('wasm p256: malformed input returns a code, never aborts', () => {
  const { priv, pub } = nodeKey();
  const msg = new TextEncoder().encode('malformed');
  const good = wasmP256Sign(priv, msg);
  const { r, s } = parseDer(good);

  it('rejects bad private keys', () => {
    assert.throws(() => wasmP256PublicKey(new Uint8Array(32)), RangeError);
    assert.throws(() => wasmP256Sign(unhex(int32(N)), msg), RangeError);
    assert.throws(() => wasmP256Sign(new Uint8Array(32).fill(0xff), msg), RangeError);
    assert.throws(() => wasmP256Sign(new Uint8Array(31), msg), RangeError);
    assert.deepEqual(wasmP256PublicKey(unhex(int32(N - 1n))).subarray(0, 1), Uint8Array.of(4));
  });

  it('r or s out of range is invalid', () => {
    for (const [rr, ss] of [[0n, s], [r, 0n], [N, s], [r, N], [r + N, s], [r, s + N], [(1n << 256n) - 1n, s], [1n << 256n, s]] as const) {
      // Above 2^256 the INTEGER cannot be a P-256 scalar at all: malformed rather than invalid.
      const want = rr >= 1n << 256n || ss >= 1n << 256n ? -2 : 0;
      assert.equal(wasmP256VerifyCode(pub, msg, derOf(rr, ss)), want, `r=${rr} s=${ss}`);
    }
  });

  it('bad DER is malformed (-2)', () => {
    const bad: Uint8Array[] = [
      new Uint8Array(0), good.subarray(0, good.length - 1), Uint8Array.of(...good, 0),
      Uint8Array.of(0x31, ...good.subarray(1)), Uint8Array.of(0x30, 0x81, good[1]!, ...good.subarray(2)),
      Uint8Array.of(0x30, 6, 2, 1, 1, 2, 1, 1).subarray(0, 7), Uint8Array.of(0x30, 6, 2, 1, 0x81, 2, 1, 1),
      Uint8Array.of(0x30, 7, 2, 2, 0, 1, 2, 1, 1), Uint8Array.of(0x30, 6, 2, 0, 2, 2, 1, 1),
      Uint8Array.of(0x30, 6, 3, 1, 1, 2, 1, 1), new Uint8Array(200).fill(0x30),
      Uint8Array.of(0x30, 0x26, 2, 0x22, ...new Uint8Array(34).fill(1), 2, 1, 1),
    ];
    bad.forEach((sig, i) => assert.ok(wasmP256VerifyCode(pub, msg, sig) < 0, `bad DER #${i}`));
    // A mutated byte anywhere never aborts.
    for (let i = 0; i < good.length; i++) {
      for (const v of [0, 0x80, 0xff]) {
        const m = Uint8Array.from(good); m[i] = v;
        assert.ok([1, 0, -2].includes(wasmP256VerifyCode(pub, msg, m)), `mutated byte ${i}`);
      }
    }
  });

  it('bad public keys are malformed (-1)', () => {
    const offCurve = Uint8Array.from(pub); offCurve[64]! ^= 1;
    const xTooBig = Uint8Array.of(4, ...unhex('ff'.repeat(32)), ...pub.subarray(33));
    const noRoot = (() => { // an x with no y: x^3 - 3x + b a non-residue
      for (let x = 1n; ; x++) {
        const c = Uint8Array.of(2, ...unhex(int32(x)));
        try { p256.ProjectivePoint.fromHex(c); } catch { return c; }
      }
    })();
    const keys = [offCurve, xTooBig, noRoot, pub.subarray(0, 64), Uint8Array.of(5, ...pub.subarray(1)),
      new Uint8Array(65), Uint8Array.of(0), Uint8Array.of(2, ...new Uint8Array(32).fill(0xff))];
    keys.forEach((k, i) => assert.equal(wasmP256VerifyCode(k, msg, good), -1, `bad key #${i}`));
    assert.equal(wasmP256VerifyCode(pub, msg, good), 1);
  });
});
