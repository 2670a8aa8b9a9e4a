// The variable-time verification path of the WASM P-256 core (wNAF u2*Q + comb u1*G in Jacobian
// coordinates, projective r check): differential against node:crypto and @noble/curves, and the
// special cases of the incomplete formulas and of the inversion-free r check, built by hand.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { p256 } from '@noble/curves/nist';
import { wasmP256Verify, wasmP256VerifyDigest } from '../../core/crypto/wasm/p256.js';

const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const G = p256.Point.BASE;
const mod = (a: bigint, m = N): bigint => ((a % m) + m) % m;
const inv = (a: bigint): bigint => {
  let [r0, r1, s0, s1] = [mod(a), N, 1n, 0n];
  while (r1 !== 0n) { const q = r0 / r1; [r0, r1] = [r1, r0 - q * r1]; [s0, s1] = [s1, s0 - q * s1]; }
  return mod(s0);
};
const be32 = (x: bigint): Uint8Array => new Uint8Array(Buffer.from(x.toString(16).padStart(64, '0'), 'hex'));
const randScalar = (): bigint => mod(BigInt('0x' + randomBytes(40).toString('hex')), N - 1n) + 1n;
const mul = (k: bigint) => G.multiply(mod(k));

function derOf(r: bigint, s: bigint): Uint8Array {
  const int = (x: bigint): string => {
    let h = x.toString(16);
    if (h.length % 2) h = '0' + h;
    if (parseInt(h.slice(0, 2), 16) >= 0x80) h = '00' + h;
    return '02' + (h.length / 2).toString(16).padStart(2, '0') + h;
  };
  const body = int(r) + int(s);
  return new Uint8Array(Buffer.from('30' + (body.length / 2).toString(16).padStart(2, '0') + body, 'hex'));
}

const nobleVerify = (pub: Uint8Array, digest: Uint8Array, r: bigint, s: bigint): boolean =>
  p256.verify(new p256.Signature(r, s).toDERRawBytes(), digest, pub, { prehash: false, lowS: false, format: 'der' });

describe('wasm p256 verify (variable-time path)', () => {
  it('accepts node:crypto signatures for 200 random keys and rejects altered ones', () => {
    for (let i = 0; i < 200; i++) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const pub = new Uint8Array(publicKey.export({ format: 'der', type: 'spki' }).subarray(-65));
      const msg = randomBytes(1 + (i % 97));
      const sig = new Uint8Array(sign('sha256', msg, privateKey));
      assert.equal(wasmP256Verify(pub, msg, sig), true, `key ${i}`);
      const compressed = p256.Point.fromHex(pub).toRawBytes(true);
      assert.equal(wasmP256Verify(compressed, msg, sig), true, `compressed key ${i}`);
      const other = Buffer.from(msg); other[0]! ^= 1;
      assert.equal(wasmP256Verify(pub, other, sig), false, `altered message ${i}`);
    }
  });

  it('accepts a signature whose x(R) is r + n (x(R) >= n) and agrees with noble', () => {
    // Find a curve point R with n <= x < p, then a key Q for which (r = x - n, s) signs e.
    let R: ReturnType<typeof mul> | undefined;
    for (let x = N + 1n; x < P; x++) {
      try { R = p256.Point.fromHex('02' + x.toString(16).padStart(64, '0')); break; } catch { /* not on the curve */ }
    }
    assert.ok(R);
    const r = R.toAffine().x - N;
    assert.ok(r > 0n && r < P - N);
    for (let t = 0; t < 5; t++) {
      const s = randScalar(), e = randScalar();
      const u1 = mod(e * inv(s)), u2 = mod(r * inv(s));
      const Q = R.subtract(mul(u1)).multiply(inv(u2)); // u1 G + u2 Q = R
      const pub = Q.toRawBytes(false), digest = be32(e);
      assert.equal(nobleVerify(pub, digest, r, s), true);
      assert.equal(wasmP256VerifyDigest(pub, digest, derOf(r, s)), true);
      assert.equal(wasmP256VerifyDigest(pub, digest, derOf(r, mod(s + 1n))), false);
      // r itself (x(R) - n) is not x(R): a signature claiming r = x(R) (>= n) is out of range.
      assert.equal(wasmP256VerifyDigest(pub, digest, derOf(R.toAffine().x, s)), false);
    }
  });

  it('rejects (no crash) when u1*G + u2*Q is the point at infinity', () => {
    for (let t = 0; t < 10; t++) {
      const d = randScalar(), r = randScalar(), s = randScalar();
      const e = mod(-r * d); // e + r d = 0, so u1 G + u2 Q = (e + r d)/s G = O
      const pub = mul(d).toRawBytes(false), digest = be32(e);
      assert.equal(nobleVerify(pub, digest, r, s), false);
      assert.equal(wasmP256VerifyDigest(pub, digest, derOf(r, s)), false);
    }
  });

  it('accepts valid signatures for keys Q = (c s / r) G with small c (u2*Q = c*G)', () => {
    // u1 = k - c with u1 = 197 (mod 4096) and u2 Q = c G for c = 187 and c = -197: partial sums
    // land on small multiples of G. (Built for a 6-bit comb; kept as structured-key coverage.)
    for (const c of [187n, mod(-197n)]) {
      for (let t = 0; t < 4; t++) {
        const u1 = (randScalar() >> 12n << 12n) + 197n;
        const k = mod(u1 + c);
        const r = mod(mul(k).toAffine().x), s = randScalar();
        const e = mod(s * u1);
        const q = mod(c * s * inv(r));
        const pub = mul(q).toRawBytes(false), digest = be32(e);
        assert.equal(nobleVerify(pub, digest, r, s), true);
        assert.equal(wasmP256VerifyDigest(pub, digest, derOf(r, s)), true, `c=${c} t=${t}`);
        assert.equal(wasmP256VerifyDigest(pub, digest, derOf(r, mod(s + 1n))), false);
      }
    }
  });

  it('takes the doubling and opposite-point branches of the Jacobian additions', () => {
    const pubG = G.toRawBytes(false), pubNegG = G.negate().toRawBytes(false);
    // Q = G, u1 = u2 = 1: acc = Q, then + G from the G-table hits P + P (doubling branch). R = 2G.
    {
      const r = mod(mul(2n).toAffine().x), s = r, e = r;
      assert.equal(nobleVerify(pubG, be32(e), r, s), true);
      assert.equal(wasmP256VerifyDigest(pubG, be32(e), derOf(r, s)), true);
    }
    // Q = -G, u1 = u2 = 1: acc = -G, then + G is P + (-P) (opposite branch): the sum is O, reject.
    {
      const r = mod(mul(2n).toAffine().x), s = r, e = r;
      assert.equal(wasmP256VerifyDigest(pubNegG, be32(e), derOf(r, s)), false);
    }
    // Q = -G, u2 = 2^20, u1 = 2^20 + 3: at bit 20 the accumulator -G meets +G (infinity mid-way),
    // then bit 0 adds 3G to infinity. R = 3G: valid.
    {
      const r = mod(mul(3n).toAffine().x), s = mod(r * inv(1n << 20n)), e = mod(s * ((1n << 20n) + 3n));
      assert.equal(nobleVerify(pubNegG, be32(e), r, s), true);
      assert.equal(wasmP256VerifyDigest(pubNegG, be32(e), derOf(r, s)), true);
      assert.equal(wasmP256VerifyDigest(pubNegG, be32(mod(e + 1n)), derOf(r, s)), false);
    }
  });

  it('handles Q = G and Q = -G', () => {
    for (const neg of [false, true]) {
      const Q = neg ? G.negate() : G;
      const digest = new Uint8Array(createHash('sha256').update('q=g').digest());
      const e = BigInt('0x' + Buffer.from(digest).toString('hex'));
      const k = randScalar(), r = mod(mul(k).toAffine().x);
      const dq = neg ? N - 1n : 1n;
      const s = mod(inv(k) * (e + r * dq));
      assert.equal(wasmP256VerifyDigest(Q.toRawBytes(false), digest, derOf(r, s)), true);
    }
  });
});

describe('wasm p256 k*G (constant-time Jacobian comb)', () => {
  it('matches noble for edge scalars and scalars with extreme top windows', async () => {
    const { wasmP256PublicKey } = await import('../../core/crypto/wasm/p256.js');
    const ks = [1n, 2n, 3n, 31n, 32n, 33n, 63n, 64n, 65n, N - 1n, N - 2n, N - 3n, 1n << 255n, (1n << 252n) * 15n,
      (1n << 256n) - (1n << 224n) - 1n, N >> 1n, (N >> 1n) + 1n, 0x7fn << 240n];
    for (let i = 0; i < 50; i++) ks.push(randScalar());
    for (let i = 0; i < 20; i++) ks.push(N - randScalar() % (1n << 64n));
    for (const k of ks) {
      if (k <= 0n || k >= N) continue;
      const want = Buffer.from(mul(k).toRawBytes(false)).toString('hex');
      assert.equal(Buffer.from(wasmP256PublicKey(be32(k))).toString('hex'), want, `k=${k.toString(16)}`);
    }
  });
});
