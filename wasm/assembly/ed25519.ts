// Ed25519 (RFC 8032, pure, no context): public key from a 32-byte seed, sign, verify.
// Signing is written to be constant-time with respect to the seed, the expanded key and the
// nonce: the fixed-base multiplication reads every entry of a table row and selects by masking
// (no secret-dependent branch or memory index), the scalar code has fixed loops, and secrets
// other than the cached expanded key (see expand()) are wiped from static memory before
// returning. Not covered: whether the seed equals the cached one (see expand()), and whatever
// the JS caller does with the seed.
// Verification handles public data only and is variable-time (sliding windows, early exits).
// All state is static (memory.data), never the arena that JS resets between calls.
import { sha512, sha512Final, sha512Init, sha512Update } from './sha2';
import { scIsCanonical, scMulAdd, scReduce } from './ed25519-scalar';
import {
  addCached, madd, p1p1ToP2, p1p1ToP3, p2Dbl, p3Identity, p3Neg, p3FromBytes, p3ToBytes,
  p3ToCached, p3ToPrecomp, pointInit, precompCmov, precompIdentity, X, Y, Z, P3_SIZE, PRECOMP_SIZE,
} from './ed25519-point';
import { feCopy, feNeg } from './ed25519-field';

// The base point B: y = 4/5, x even.
const B_BYTES: usize = memory.data<u8>([
  0x58, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
  0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
]);
// BASE[i][j] = (j + 1) * 256^i * B for i < 32, j < 8 (ref10's layout), built once on first use.
const BASE: usize = memory.data(32 * 8 * PRECOMP_SIZE, 8);
// BI[j] = (2j + 1) * B for verification's sliding window.
const BI: usize = memory.data(8 * PRECOMP_SIZE, 8);
let ready = false;

const P: usize = memory.data(P3_SIZE, 8);
const Q: usize = memory.data(P3_SIZE, 8);
const R: usize = memory.data(P3_SIZE, 8); // P1P1 results
const S2: usize = memory.data(P3_SIZE, 8); // P2 scratch
const C: usize = memory.data(P3_SIZE, 8); // CACHED
const SEL: usize = memory.data(PRECOMP_SIZE, 8);
const NEGSEL: usize = memory.data(PRECOMP_SIZE, 8);
const AI: usize = memory.data(8 * P3_SIZE, 8); // cached odd multiples of -A
const DIGITS: usize = memory.data(64, 8); // signed radix-16 digits of a secret scalar
const SLIDE_A: usize = memory.data(256, 8);
const SLIDE_B: usize = memory.data(256, 8);
const AZ: usize = memory.data(64, 8); // SHA-512(seed): clamped scalar || prefix (secret)
const NONCE: usize = memory.data(64, 8); // r (secret)
const HRAM: usize = memory.data(64, 8);
const PUB: usize = memory.data(32, 8);
const CHECK: usize = memory.data(32, 8);

function ensureReady(): void {
  if (ready) return;
  pointInit();
  p3FromBytes(P, B_BYTES);
  for (let i: usize = 0; i < 32; i++) {
    p3ToCached(C, P);
    memory.copy(Q, P, P3_SIZE);
    for (let j: usize = 0; j < 8; j++) {
      p3ToPrecomp(BASE + (i * 8 + j) * PRECOMP_SIZE, Q);
      addCached(R, Q, C);
      p1p1ToP3(Q, R);
    }
    for (let k = 0; k < 8; k++) { p2Dbl(R, P); p1p1ToP3(P, R); } // P *= 256
  }
  p3FromBytes(P, B_BYTES);
  p2Dbl(R, P); p1p1ToP3(Q, R); p3ToCached(C, Q); // C = 2B
  for (let j: usize = 0; j < 8; j++) {
    p3ToPrecomp(BI + j * PRECOMP_SIZE, P);
    addCached(R, P, C); p1p1ToP3(P, R);
  }
  ready = true;
}

/** 1 when a == b (both in 0..8), else 0, computed without a branch. */
@inline function eq(a: u32, b: u32): u32 { return ((a ^ b) - 1) >>> 31; }

/** SEL = b * BASE[pos] for b in -8..8, reading all 8 entries and selecting by mask. */
function select(pos: usize, b: i32): void {
  const bneg = <u32>b >>> 31;
  const babs = <u32>(b - ((-<i32>bneg & b) << 1));
  precompIdentity(SEL);
  for (let j: u32 = 0; j < 8; j++) precompCmov(SEL, BASE + (pos * 8 + j) * PRECOMP_SIZE, eq(babs, j + 1));
  feCopy(NEGSEL + X, SEL + Y);
  feCopy(NEGSEL + Y, SEL + X);
  feNeg(NEGSEL + Z, SEL + Z);
  precompCmov(SEL, NEGSEL, bneg);
}

/** h (P3) = a * B for a 32-byte little-endian scalar a < 2^255. Constant-time in a. */
function scalarMultBase(h: usize, a: usize): void {
  // 64 signed digits in -8..8: a = sum e[i] 16^i.
  for (let i: usize = 0; i < 32; i++) {
    const v = load<u8>(a + i);
    store<i8>(DIGITS + 2 * i, <i8>(v & 15));
    store<i8>(DIGITS + 2 * i + 1, <i8>(v >> 4));
  }
  let carry: i32 = 0;
  for (let i: usize = 0; i < 63; i++) {
    const e = <i32>load<i8>(DIGITS + i) + carry;
    carry = (e + 8) >> 4;
    store<i8>(DIGITS + i, <i8>(e - (carry << 4)));
  }
  store<i8>(DIGITS + 63, <i8>(<i32>load<i8>(DIGITS + 63) + carry));
  p3Identity(h);
  for (let i: usize = 1; i < 64; i += 2) {
    select(i >> 1, <i32>load<i8>(DIGITS + i));
    madd(R, h, SEL); p1p1ToP3(h, R);
  }
  p2Dbl(R, h); p1p1ToP2(S2, R);
  p2Dbl(R, S2); p1p1ToP2(S2, R);
  p2Dbl(R, S2); p1p1ToP2(S2, R);
  p2Dbl(R, S2); p1p1ToP3(h, R);
  for (let i: usize = 0; i < 64; i += 2) {
    select(i >> 1, <i32>load<i8>(DIGITS + i));
    madd(R, h, SEL); p1p1ToP3(h, R);
  }
  memory.fill(DIGITS, 0, 64);
}

/** Width-5 sliding-window digits (odd, -15..15) of a public 32-byte scalar; ref10's slide. */
function slide(r: usize, a: usize): void {
  for (let i: usize = 0; i < 256; i++) store<i8>(r + i, <i8>(1 & (load<u8>(a + (i >> 3)) >> <u8>(i & 7))));
  for (let i: usize = 0; i < 256; i++) {
    if (!load<i8>(r + i)) continue;
    for (let b: usize = 1; b <= 6 && i + b < 256; b++) {
      const rb0 = <i32>load<i8>(r + i + b);
      if (!rb0) continue;
      const rb = rb0 << <i32>b;
      const ri = <i32>load<i8>(r + i);
      if (ri + rb <= 15) {
        store<i8>(r + i, <i8>(ri + rb)); store<i8>(r + i + b, 0);
      } else if (ri - rb >= -15) {
        store<i8>(r + i, <i8>(ri - rb));
        for (let k = i + b; k < 256; k++) {
          if (!load<i8>(r + k)) { store<i8>(r + k, 1); break; }
          store<i8>(r + k, 0);
        }
      } else break;
    }
  }
}

// The last seed's expansion is kept (AZ, PUB) so that a CA signing many certificates with one
// key pays for one fixed-base multiplication per signature instead of two (~1.9x). The cost:
// the expanded key stays in static memory until another seed is used or ed25519Forget() runs,
// and whether a seed equals the cached one is visible in timing (the comparison itself is
// branch-free; the recomputation that follows a miss is not hidden).
const CACHED_SEED: usize = memory.data(32, 8);
let cached = false;

/** Expands the seed into AZ (clamped scalar || prefix) and PUB = encode(a * B). */
function expand(seed: usize): void {
  ensureReady();
  let diff: u64 = 0;
  for (let k: usize = 0; k < 32; k += 8) diff |= load<u64>(CACHED_SEED + k) ^ load<u64>(seed + k);
  if (cached && diff == 0) return;
  memory.copy(CACHED_SEED, seed, 32);
  sha512(seed, 32, AZ);
  store<u8>(AZ, load<u8>(AZ) & 248);
  store<u8>(AZ + 31, (load<u8>(AZ + 31) & 127) | 64);
  scalarMultBase(P, AZ);
  p3ToBytes(PUB, P);
  cached = true;
}

/** Wipes the cached expanded key (call when a signing key is retired). */
export function ed25519Forget(): void {
  memory.fill(CACHED_SEED, 0, 32);
  memory.fill(AZ, 0, 64);
  memory.fill(PUB, 0, 32);
  cached = false;
}

/** Writes the 32-byte public key of a 32-byte seed (RFC 8032 5.1.5). */
export function ed25519PublicKey(seed: usize, out: usize): void {
  expand(seed);
  memory.copy(out, PUB, 32);
}

/** Writes the 64-byte signature R || S of msg (RFC 8032 5.1.6). out64 must not overlap msg. */
export function ed25519Sign(seed: usize, msg: usize, msgLen: usize, out64: usize): void {
  expand(seed);
  sha512Init(); sha512Update(AZ + 32, 32); sha512Update(msg, msgLen); sha512Final(NONCE);
  scReduce(NONCE, NONCE);
  scalarMultBase(P, NONCE);
  p3ToBytes(out64, P);
  sha512Init(); sha512Update(out64, 32); sha512Update(PUB, 32); sha512Update(msg, msgLen); sha512Final(HRAM);
  scReduce(HRAM, HRAM);
  scMulAdd(out64 + 32, HRAM, AZ, NONCE);
  memory.fill(NONCE, 0, 64);
}

/**
 * Verifies sig (R || S) over msg under pub (RFC 8032 5.1.7, cofactorless, as node:crypto and
 * OpenSSL do): 1 valid, 0 invalid (including S >= L and R not the canonical encoding of
 * [S]B - [k]A), -1 when pub does not decode to a curve point.
 */
export function ed25519Verify(pub: usize, msg: usize, msgLen: usize, sig: usize): i32 {
  ensureReady();
  if (!scIsCanonical(sig + 32)) return 0;
  if (p3FromBytes(P, pub) != 0) return -1;
  p3Neg(P, P);
  sha512Init(); sha512Update(sig, 32); sha512Update(pub, 32); sha512Update(msg, msgLen); sha512Final(HRAM);
  scReduce(HRAM, HRAM);
  slide(SLIDE_A, HRAM);
  slide(SLIDE_B, sig + 32);
  // AI[j] = (2j + 1)(-A) as CACHED.
  p3ToCached(AI, P);
  p2Dbl(R, P); p1p1ToP3(Q, R); p3ToCached(C, Q);
  for (let j: usize = 1; j < 8; j++) {
    addCached(R, P, C); p1p1ToP3(P, R);
    p3ToCached(AI + j * P3_SIZE, P);
  }
  let i = 255;
  while (i >= 0 && !load<i8>(SLIDE_A + i) && !load<i8>(SLIDE_B + i)) i--;
  p3Identity(S2);
  for (; i >= 0; i--) {
    p2Dbl(R, S2);
    const a = <i32>load<i8>(SLIDE_A + i), b = <i32>load<i8>(SLIDE_B + i);
    if (a) { p1p1ToP3(Q, R); addCached(R, Q, AI + <usize>((a < 0 ? -a : a) >> 1) * P3_SIZE, a < 0); }
    if (b) { p1p1ToP3(Q, R); madd(R, Q, BI + <usize>((b < 0 ? -b : b) >> 1) * PRECOMP_SIZE, b < 0); }
    p1p1ToP2(S2, R);
  }
  p3ToBytes(CHECK, S2);
  let diff: u64 = 0;
  for (let k: usize = 0; k < 32; k += 8) diff |= load<u64>(CHECK + k) ^ load<u64>(sig + k);
  return diff == 0 ? 1 : 0;
}
