// ECDSA over P-256 with SHA-256 (FIPS 186-5, RFC 6979 nonces) and the JS-callable exports.
// Signing is constant-time in the private key and the nonce: k*G is a masked comb in Jacobian
// coordinates (p256-point.ts, pMulGJacobian), k^-1 and the affine conversion's 1/Z use
// constant-time safegcd inversions (p256-inv.ts: fixed 600 branch-free divsteps), s is computed in Montgomery form
// with masked reductions. The DER encoding of (r, s) branches on their bytes, which are public.
// Verification handles public data only and is variable-time (pMulDoubleVar: Straus with a
// width-5 NAF for Q and a width-10 NAF over a static affine table for G, incomplete Jacobian
// formulas with branches, direct table indexes; the r check is done projectively, without an
// inversion; early returns).
// Error codes: -1 bad private or public key, -2 malformed signature DER, -3 bad length/count.
import { sha256 } from './sha2';
import { fToBytes, fFromBytes, fEq, fmul as fmulp, fsqr as fsqrp, rawFromBytes, rawToBytes } from './p256-field';
import { N, nmul, nadd, nToMont, nFromMont, nRawReduced, nIsZero, nToBytes } from './p256-scalar';
import { pMulG, pMulGJacobian, pMulDoubleVar, pDecode, pEncode, pIsInfinity, pToAffine } from './p256-point';
import { rfc6979Nonce } from './rfc6979';
import { finvSafe, ninvSafe } from './p256-inv';

const D = memory.data(32), KR = memory.data(32), R = memory.data(32), S = memory.data(32), E = memory.data(32);
const T = memory.data(32), KINV = memory.data(32), DIGEST = memory.data(32);
const PT = memory.data(96), PT2 = memory.data(96), AX = memory.data(32), AY = memory.data(32), XB = memory.data(32);
const RB = memory.data(32), SB = memory.data(32), ZZ = memory.data(32), RM = memory.data(32);
const ZI = memory.data(32), KB = memory.data(32), zinv = memory.data(32), kinv = memory.data(32), tmp = memory.data(32);

/** Loads a private key into D (raw limbs); false unless 1 <= d < n. Only validity leaks. */
function loadPrivate(priv: usize): bool {
  const below = rawFromBytes(D, priv, N);
  return (below & ~nIsZero(D) & 1) != 0;
}

function wipe(): void {
  memory.fill(D, 0, 32); memory.fill(KR, 0, 32); memory.fill(KINV, 0, 32); memory.fill(T, 0, 32);
}

export function p256PublicKey(priv32: usize, out65: usize): i32 {
  if (!loadPrivate(priv32)) return -1;
  pMulG(PT, D);
  pEncode(out65, PT);
  wipe();
  return 65;
}

/** s and r from D (loaded), the nonce KR and the digest; R/S raw limbs. Returns false when r or s
 *  is 0 (probability ~2^-256; the caller reports an error rather than loop). */
function finishSignature(zx: usize, kinvMont: usize, digest: usize): bool {
  fToBytes(XB, zx);            // affine x (public once the signature is released)
  nRawReduced(R, XB);          // r = x mod n (x < p < 2n)
  nRawReduced(E, digest);      // e = digest mod n
  nToMont(T, R); nToMont(S, D); nmul(T, T, S);   // r*d
  nToMont(S, E); nadd(T, T, S);                  // e + r*d
  nmul(S, kinvMont, T); nFromMont(S, S);          // k^-1 (e + r d)
  return (nIsZero(R) | nIsZero(S)) == 0;
}

/** Minimal DER INTEGER for a 32-byte big-endian unsigned value; returns the bytes written. */
function derInteger(out: usize, be: usize): usize {
  let i: usize = 0;
  while (i < 31 && load<u8>(be + i) == 0) i++;
  const pad: usize = load<u8>(be + i) >= 0x80 ? 1 : 0;
  const len: usize = 32 - i + pad;
  store<u8>(out, 0x02); store<u8>(out + 1, <u8>len);
  if (pad) store<u8>(out + 2, 0);
  memory.copy(out + 2 + pad, be + i, 32 - i);
  return 2 + len;
}

function encodeSignature(out: usize): i32 {
  nToBytes(RB, R); nToBytes(SB, S);
  let p = out + 2;
  p += derInteger(p, RB);
  p += derInteger(p, SB);
  store<u8>(out, 0x30); store<u8>(out + 1, <u8>(p - out - 2));
  return <i32>(p - out);
}

export function p256SignDigest(priv32: usize, digest32: usize, outDer: usize): i32 {
  if (!loadPrivate(priv32)) return -1;
  rfc6979Nonce(KR, priv32, digest32);
  pMulGJacobian(PT, KR);
  finvSafe(ZI, PT + 64); fsqrp(ZI, ZI); fmulp(AX, PT, ZI); // affine x = X / Z^2 (constant-time safegcd)
  nToMont(KINV, KR); ninvSafe(KINV, KINV);
  const ok = finishSignature(AX, KINV, digest32);
  wipe();
  return ok ? encodeSignature(outDer) : -1;
}

export function p256Sign(priv32: usize, msg: usize, msgLen: usize, outDer: usize): i32 {
  sha256(msg, msgLen, DIGEST);
  return p256SignDigest(priv32, DIGEST, outDer);
}

/** Signs `count` 32-byte digests (contiguous) with one key; each output slot is 73 bytes:
 *  [DER length][DER, up to 72]. The two inversions per signature (affine x mod p, k^-1 mod n) are
 *  shared across the batch with Montgomery's trick: a fixed sequence of multiplications plus one
 *  inversion each, so it stays constant-time. Scratch comes from the arena (freed by reset()). */
export function p256SignBatch(priv32: usize, digests: usize, count: u32, out: usize): i32 {
  if (count == 0) return 0;
  if (count > 65536) return -3;
  if (!loadPrivate(priv32)) return -1;
  const n = <usize>count;
  const xs = heap.alloc(n * 32), zs = heap.alloc(n * 32), ks = heap.alloc(n * 32);
  const zacc = heap.alloc(n * 32), kacc = heap.alloc(n * 32);
  for (let i: usize = 0; i < n; i++) {
    rfc6979Nonce(KR, priv32, digests + i * 32);
    pMulGJacobian(PT, KR);
    memory.copy(xs + i * 32, PT, 32);
    memory.copy(zs + i * 32, PT + 64, 32);
    nToMont(ks + i * 32, KR);
  }
  // Prefix products, one inversion each, then walk back.
  memory.copy(zacc, zs, 32); memory.copy(kacc, ks, 32);
  for (let i: usize = 1; i < n; i++) {
    fmulp(zacc + i * 32, zacc + (i - 1) * 32, zs + i * 32);
    nmul(kacc + i * 32, kacc + (i - 1) * 32, ks + i * 32);
  }
  finvSafe(zinv, zacc + (n - 1) * 32);
  ninvSafe(kinv, kacc + (n - 1) * 32);
  for (let j = <isize>n - 1; j >= 0; j--) {
    const i = <usize>j;
    const zi = ZI, ki = KB;
    if (i > 0) {
      fmulp(zi, zinv, zacc + (i - 1) * 32); fmulp(zinv, zinv, zs + i * 32);
      nmul(ki, kinv, kacc + (i - 1) * 32); nmul(kinv, kinv, ks + i * 32);
    } else {
      memory.copy(zi, zinv, 32); memory.copy(ki, kinv, 32);
    }
    fsqrp(zi, zi); fmulp(tmp, xs + i * 32, zi); // affine x = X / Z^2 (Jacobian)
    const slot = out + i * 73;
    if (finishSignature(tmp, ki, digests + i * 32)) {
      store<u8>(slot, <u8>encodeSignature(slot + 1));
    } else {
      store<u8>(slot, 0);
    }
  }
  memory.fill(ks, 0, n * 32); memory.fill(kacc, 0, n * 32);
  memory.fill(kinv, 0, 32); memory.fill(KB, 0, 32);
  wipe();
  return <i32>count;
}

/** Strict DER INTEGER into a 32-byte big-endian buffer; returns the offset after it or -1. */
function parseInteger(sig: usize, pos: usize, end: usize, outBe: usize): isize {
  if (pos + 2 > end || load<u8>(sig + pos) != 0x02) return -1;
  const len = <usize>load<u8>(sig + pos + 1);
  pos += 2;
  if (len == 0 || len > 33 || pos + len > end) return -1;
  const first = load<u8>(sig + pos);
  if (first & 0x80) return -1;                                         // negative
  if (len > 1 && first == 0 && (load<u8>(sig + pos + 1) & 0x80) == 0) return -1; // non-minimal
  let body = pos, blen = len;
  if (len == 33) { if (first != 0) return -1; body++; blen--; }
  memory.fill(outBe, 0, 32);
  memory.copy(outBe + 32 - blen, sig + body, blen);
  return <isize>(pos + len);
}

/** 1 valid, 0 invalid, -1 bad public key, -2 malformed DER. */
export function p256VerifyDigest(pub: usize, pubLen: usize, digest32: usize, sig: usize, sigLen: usize): i32 {
  if (sigLen < 8 || sigLen > 72 || load<u8>(sig) != 0x30) return -2;
  const seqLen = <usize>load<u8>(sig + 1);
  if (seqLen >= 0x80 || seqLen + 2 != sigLen) return -2; // short-form length only: content <= 70
  const p1 = parseInteger(sig, 2, sigLen, RB);
  if (p1 < 0) return -2;
  const p2 = parseInteger(sig, <usize>p1, sigLen, SB);
  if (p2 < 0 || <usize>p2 != sigLen) return -2;
  if (!pDecode(PT2, pub, pubLen)) return -1;
  if (!rawFromBytes(R, RB, N) || nIsZero(R) || !rawFromBytes(S, SB, N) || nIsZero(S)) return 0;
  nRawReduced(E, digest32);
  nToMont(T, S); ninvSafe(T, T);                              // w = s^-1
  nToMont(KINV, E); nmul(KINV, KINV, T); nFromMont(KINV, KINV); // u1 = e w
  nToMont(KR, R); nmul(KR, KR, T); nFromMont(KR, KR);           // u2 = r w
  pMulDoubleVar(PT, KINV, PT2, KR);                          // u1 G + u2 Q, Jacobian
  if (pIsInfinity(PT)) return 0;
  // No inversion: x(R) = X / Z^2, and r == x(R) mod n with x(R) < p < 2n means x(R) is r or r + n
  // (the latter only when r + n < p). Compare X with r Z^2 (and (r + n) Z^2) in the field.
  fsqrp(ZZ, PT + 64);
  fFromBytes(RM, RB);                                        // r < n < p: always in range
  fmulp(RM, RM, ZZ);
  if (fEq(RM, PT)) return 1;
  let c: u64 = 0;
  for (let i: usize = 0; i < 32; i += 4) {
    const v = <u64>load<u32>(R + i) + <u64>load<u32>(N + i) + c;
    store<u32>(T + i, <u32>v); c = v >> 32;
  }
  if (c != 0) return 0;
  rawToBytes(XB, T);
  if (!fFromBytes(RM, XB)) return 0;                         // r + n >= p: no second candidate
  fmulp(RM, RM, ZZ);
  if (fEq(RM, PT)) return 1;
  return 0;
}

export function p256Verify(pub: usize, pubLen: usize, msg: usize, msgLen: usize, sig: usize, sigLen: usize): i32 {
  sha256(msg, msgLen, DIGEST);
  return p256VerifyDigest(pub, pubLen, DIGEST, sig, sigLen);
}
