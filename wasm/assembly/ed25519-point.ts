// Points of edwards25519 (-x^2 + y^2 = 1 + d x^2 y^2) in ref10's coordinate systems, all as
// pointers into static memory (fields of 80 bytes, see ed25519-field.ts):
//   P3 (extended: X, Y, Z, T = XY/Z), P2 (X, Y, Z), P1P1 (completed: X, Y, Z, T),
//   PRECOMP (affine Niels: y+x, y-x, 2dxy; 240 bytes), CACHED (Y+X, Y-X, Z, 2dT; 320 bytes).
// The unified a = -1 formulas below have no exceptional cases, so the same code handles the
// identity and doubling: point arithmetic never branches on coordinates (constant-time);
// decoding (public keys) is variable-time and says so.
import {
  feAdd, feCmov, feCopy, feFromBytes, feInvert, feIsNegative, feIsZero, feMul, feNeg, fePow22523,
  feSet, feSq, feSq2, feSub, feToBytes,
} from './ed25519-field';

export const X: usize = 0, Y: usize = 80, Z: usize = 160, T: usize = 240;
export const P3_SIZE: i32 = 320, PRECOMP_SIZE: i32 = 240;

// d, 2d and sqrt(-1) as 32 little-endian bytes; read into field form by pointInit().
const D_BYTES: usize = memory.data<u64>([0x75eb4dca135978a3, 0x00700a4d4141d8ab, 0x8cc740797779e898, 0x52036cee2b6ffe73]);
const D2_BYTES: usize = memory.data<u64>([0xebd69b9426b2f159, 0x00e0149a8283b156, 0x198e80f2eef3d130, 0x2406d9dc56dffce7]);
const SQRTM1_BYTES: usize = memory.data<u64>([0xc4ee1b274a0ea0b0, 0x2f431806ad2fe478, 0x2b4d00993dfbd7a7, 0x2b8324804fc1df0b]);
export const FD: usize = memory.data(80, 8);
export const FD2: usize = memory.data(80, 8);
const FSQRTM1: usize = memory.data(80, 8);
const ONE: usize = memory.data(80, 8);
const F0: usize = memory.data(80, 8);
const U: usize = memory.data(80, 8);
const V: usize = memory.data(80, 8);
const V3: usize = memory.data(80, 8);
const VXX: usize = memory.data(80, 8);
const BYTES: usize = memory.data(32, 8);

export function pointInit(): void {
  feFromBytes(FD, D_BYTES);
  feFromBytes(FD2, D2_BYTES);
  feFromBytes(FSQRTM1, SQRTM1_BYTES);
  feSet(ONE, 1);
}

export function p3Identity(h: usize): void {
  feSet(h + X, 0); feSet(h + Y, 1); feSet(h + Z, 1); feSet(h + T, 0);
}

export function precompIdentity(h: usize): void {
  feSet(h + X, 1); feSet(h + Y, 1); feSet(h + Z, 0);
}

/** r (P2 or P3 without T) = p (P1P1); r may equal p. */
export function p1p1ToP2(r: usize, p: usize): void {
  feMul(r + X, p + X, p + T);
  feMul(r + Y, p + Y, p + Z);
  feMul(r + Z, p + Z, p + T);
}

/** r (P3) = p (P1P1); r must not equal p. */
export function p1p1ToP3(r: usize, p: usize): void {
  feMul(r + X, p + X, p + T);
  feMul(r + Y, p + Y, p + Z);
  feMul(r + Z, p + Z, p + T);
  feMul(r + T, p + X, p + Y);
}

/** r (P1P1) = 2p for p a P2 or P3; r must not equal p. */
export function p2Dbl(r: usize, p: usize): void {
  feSq(r + X, p + X);
  feSq(r + Z, p + Y);
  feSq2(r + T, p + Z);
  feAdd(r + Y, p + X, p + Y);
  feSq(F0, r + Y);
  feAdd(r + Y, r + Z, r + X);
  feSub(r + Z, r + Z, r + X);
  feSub(r + X, F0, r + Y);
  feSub(r + T, r + T, r + Z);
}

/** r (CACHED) = p (P3). */
export function p3ToCached(r: usize, p: usize): void {
  feAdd(r + X, p + Y, p + X);
  feSub(r + Y, p + Y, p + X);
  feCopy(r + Z, p + Z);
  feMul(r + T, p + T, FD2);
}

/** r (P1P1) = p (P3) + q (PRECOMP), or p - q when `neg`; r must not equal p. */
export function madd(r: usize, p: usize, q: usize, neg: bool = false): void {
  feAdd(r + X, p + Y, p + X);
  feSub(r + Y, p + Y, p + X);
  feMul(r + Z, r + X, q + (neg ? Y : X));
  feMul(r + Y, r + Y, q + (neg ? X : Y));
  feMul(r + T, q + Z, p + T);
  feAdd(F0, p + Z, p + Z);
  feSub(r + X, r + Z, r + Y);
  feAdd(r + Y, r + Z, r + Y);
  if (neg) { feSub(r + Z, F0, r + T); feAdd(r + T, F0, r + T); }
  else { feAdd(r + Z, F0, r + T); feSub(r + T, F0, r + T); }
}

/** r (P1P1) = p (P3) + q (CACHED), or p - q when `neg`; r must not equal p. */
export function addCached(r: usize, p: usize, q: usize, neg: bool = false): void {
  feAdd(r + X, p + Y, p + X);
  feSub(r + Y, p + Y, p + X);
  feMul(r + Z, r + X, q + (neg ? Y : X));
  feMul(r + Y, r + Y, q + (neg ? X : Y));
  feMul(r + T, q + T, p + T);
  feMul(r + X, p + Z, q + Z);
  feAdd(F0, r + X, r + X);
  feSub(r + X, r + Z, r + Y);
  feAdd(r + Y, r + Z, r + Y);
  if (neg) { feSub(r + Z, F0, r + T); feAdd(r + T, F0, r + T); }
  else { feAdd(r + Z, F0, r + T); feSub(r + T, F0, r + T); }
}

/** t (PRECOMP) = t when b == 0, u when b == 1, by masking (b may be secret). */
export function precompCmov(t: usize, u: usize, b: u32): void {
  feCmov(t + X, u + X, b); feCmov(t + Y, u + Y, b); feCmov(t + Z, u + Z, b);
}

/** r (PRECOMP, limbs normalised) = p (P3) in affine Niels form; one inversion, table building only. */
export function p3ToPrecomp(r: usize, p: usize): void {
  feInvert(U, p + Z);
  feMul(V, p + X, U); // x
  feMul(V3, p + Y, U); // y
  feAdd(r + X, V3, V);
  feSub(r + Y, V3, V);
  feMul(VXX, V, V3);
  feMul(r + Z, VXX, FD2);
  for (let i: usize = 0; i < 240; i += 80) { feToBytes(BYTES, r + i); feFromBytes(r + i, BYTES); }
}

/** The 32-byte encoding of p (P2 or P3): y with the sign of x in bit 255. */
export function p3ToBytes(s: usize, p: usize): void {
  feInvert(U, p + Z);
  feMul(V, p + X, U);
  feMul(V3, p + Y, U);
  feToBytes(s, V3);
  store<u8>(s + 31, load<u8>(s + 31) ^ <u8>(feIsNegative(V) << 7));
}

/**
 * Decodes 32 bytes into h (P3) per RFC 8032 5.1.3: 0 on success, -1 when y >= p, when no x
 * exists, or when x = 0 with the sign bit set. Variable-time: only for public points.
 */
export function p3FromBytes(h: usize, s: usize): i32 {
  // Canonical y: the 255-bit value must be < p = 2^255 - 19.
  const top = load<u64>(s, 24) & 0x7fffffffffffffff;
  if (top == 0x7fffffffffffffff && load<u64>(s, 16) == <u64>-1 && load<u64>(s, 8) == <u64>-1 &&
      load<u64>(s, 0) >= 0xffffffffffffffed) return -1;
  feFromBytes(h + Y, s);
  feSet(h + Z, 1);
  feSq(U, h + Y);
  feMul(V, U, FD);
  feSub(U, U, h + Z); // u = y^2 - 1
  feAdd(V, V, h + Z); // v = d y^2 + 1
  feSq(V3, V); feMul(V3, V3, V); // v^3
  feSq(h + X, V3); feMul(h + X, h + X, V); feMul(h + X, h + X, U); // u v^7
  fePow22523(h + X, h + X);
  feMul(h + X, h + X, V3); feMul(h + X, h + X, U); // x = u v^3 (u v^7)^((p-5)/8)
  feSq(VXX, h + X); feMul(VXX, VXX, V);
  feSub(F0, VXX, U);
  if (!feIsZero(F0)) {
    feAdd(F0, VXX, U);
    if (!feIsZero(F0)) return -1;
    feMul(h + X, h + X, FSQRTM1);
  }
  const sign = <u32>(load<u8>(s + 31) >> 7);
  if (feIsZero(h + X) && sign) return -1;
  if (feIsNegative(h + X) != sign) feNeg(h + X, h + X);
  feMul(h + T, h + X, h + Y);
  return 0;
}

export function p3Copy(r: usize, p: usize): void { memory.copy(r, p, 320); }

export function p3Neg(r: usize, p: usize): void {
  feNeg(r + X, p + X); feCopy(r + Y, p + Y); feCopy(r + Z, p + Z); feNeg(r + T, p + T);
}
