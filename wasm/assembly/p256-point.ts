// P-256 points: projective (X:Y:Z), 96 bytes (three Montgomery field elements) at an address;
// affine table entries are 64 bytes (x, y). The group law uses the complete formulas of
// Renes-Costello-Batina 2016 for a = -3 (algorithms 4, 5, 6): one code path for every input,
// doubling and the point at infinity (0:1:0) included, so no branch depends on the point.
// Outputs go through scratch first, so a result may alias an input.
// k*G (signing, secret k) runs a masked comb in Jacobian coordinates with an incomplete mixed
// addition whose special cases provably do not occur for 1 <= k < n except "accumulator at
// infinity", handled by masking (jAddAffineCT, pMulGJacobian). Verification (public data) uses
// separate variable-time Jacobian code at the end of this file; never call that with secrets.
import { finvSafe } from './p256-inv';
import { F_B, F_ONE, fadd, fsub, fmul, fmulSmall, fsqr, fsqrn, fcopy, finv, fEq, fIsZero, fFromBytes, fToBytes, fselect } from './p256-field';

const X3 = memory.data(32), Y3 = memory.data(32), Z3 = memory.data(32);
const t0 = memory.data(32), t1 = memory.data(32), t2 = memory.data(32), t3 = memory.data(32), t4 = memory.data(32);

export function pSetInfinity(r: usize): void {
  memory.fill(r, 0, 96);
  fcopy(r + 32, F_ONE);
}

export function pCopy(r: usize, a: usize): void {
  memory.copy(r, a, 96);
}

/** r = p + q, complete (RCB algorithm 4, a = -3): 12M + 2 mul-by-b. */
export function padd(r: usize, p: usize, q: usize): void {
  const X1 = p, Y1 = p + 32, Z1 = p + 64, X2 = q, Y2 = q + 32, Z2 = q + 64;
  fmul(t0, X1, X2); fmul(t1, Y1, Y2); fmul(t2, Z1, Z2);
  fadd(t3, X1, Y1); fadd(t4, X2, Y2); fmul(t3, t3, t4);
  fadd(t4, t0, t1); fsub(t3, t3, t4); fadd(t4, Y1, Z1);
  fadd(X3, Y2, Z2); fmul(t4, t4, X3); fadd(X3, t1, t2);
  fsub(t4, t4, X3); fadd(X3, X1, Z1); fadd(Y3, X2, Z2);
  fmul(X3, X3, Y3); fadd(Y3, t0, t2); fsub(Y3, X3, Y3);
  addTail(t4);
  store3(r);
}

/** r = p + (x, y) with the second point affine and not infinity (RCB algorithm 5): 11M + 2 mul-by-b. */
export function paddAffine(r: usize, p: usize, q: usize): void {
  const X1 = p, Y1 = p + 32, Z1 = p + 64, X2 = q, Y2 = q + 32;
  fmul(t0, X1, X2); fmul(t1, Y1, Y2); fadd(t3, X2, Y2);
  fadd(t4, X1, Y1); fmul(t3, t3, t4); fadd(t4, t0, t1);
  fsub(t3, t3, t4); fmul(t4, Y2, Z1); fadd(t4, t4, Y1);
  fmul(Y3, X2, Z1); fadd(Y3, Y3, X1);
  fcopy(t2, Z1);
  addTail(t4);
  store3(r);
}

/** The shared second half of algorithms 4 and 5 (from "Z3 = b*t2"); t4 holds the
 *  Y/Z cross term, t3 the X/Y one, t0 = X1X2, t1 = Y1Y2, t2 = Z1Z2, Y3 the X/Z one. */
// @ts-ignore: decorator
@inline function addTail(_t4: usize): void {
  // fmulSmall(x, x, 3) stands for the formulas' pairs "t = x + x; x = t + x" (same value).
  fmul(Z3, F_B, t2); fsub(X3, Y3, Z3); fmulSmall(X3, X3, 3);
  fsub(Z3, t1, X3); fadd(X3, t1, X3);
  fmul(Y3, F_B, Y3); fmulSmall(t2, t2, 3);
  fsub(Y3, Y3, t2); fsub(Y3, Y3, t0); fmulSmall(Y3, Y3, 3);
  fmulSmall(t0, t0, 3);
  fsub(t0, t0, t2); fmul(t1, t4, Y3); fmul(t2, t0, Y3);
  fmul(Y3, X3, Z3); fadd(Y3, Y3, t2); fmul(X3, X3, t3);
  fsub(X3, X3, t1); fmul(Z3, Z3, t4); fmul(t1, t3, t0);
  fadd(Z3, Z3, t1);
}

/** r = 2p, complete (RCB algorithm 6): 8M + 3S + 2 mul-by-b. */
export function pdbl(r: usize, p: usize): void {
  const X = p, Y = p + 32, Z = p + 64;
  fsqr(t0, X); fsqr(t1, Y); fsqr(t2, Z);
  fmul(t3, X, Y); fadd(t3, t3, t3); fmul(Z3, X, Z);
  fadd(Z3, Z3, Z3); fmul(Y3, F_B, t2); fsub(Y3, Y3, Z3);
  fmulSmall(Y3, Y3, 3); fsub(X3, t1, Y3);
  fadd(Y3, t1, Y3); fmul(Y3, X3, Y3); fmul(X3, X3, t3);
  fmulSmall(t2, t2, 3); fmul(Z3, F_B, Z3);
  fsub(Z3, Z3, t2); fsub(Z3, Z3, t0); fmulSmall(Z3, Z3, 3);
  fmulSmall(t0, t0, 3);
  fsub(t0, t0, t2); fmul(t0, t0, Z3); fadd(Y3, Y3, t0);
  fmul(t0, Y, Z); fadd(t0, t0, t0); fmul(Z3, t0, Z3);
  fsub(X3, X3, Z3); fmul(Z3, t0, t1); fmulSmall(Z3, Z3, 4);
  store3(r);
}

// @ts-ignore: decorator
@inline function store3(r: usize): void {
  fcopy(r, X3); fcopy(r + 32, Y3); fcopy(r + 64, Z3);
}

/** 0xffffffff when p is the point at infinity (Z = 0). */
export function pIsInfinity(p: usize): u32 {
  return fIsZero(p + 64);
}

/** Affine (x, y) of a finite point, in Montgomery form. One inversion (constant-time safegcd). */
export function pToAffine(x: usize, y: usize, p: usize): void {
  const zi = memory.data(32);
  finvSafe(zi, p + 64);
  fmul(x, p, zi);
  fmul(y, p + 32, zi);
}

/** rhs = x^3 - 3x + b. */
function curveRhs(rhs: usize, x: usize): void {
  fsqr(rhs, x); fmul(rhs, rhs, x);
  fadd(t0, x, x); fadd(t0, t0, x);
  fsub(rhs, rhs, t0); fadd(rhs, rhs, F_B);
}

/** r = a^((p+1)/4), a square root when one exists; (p+1)/4 = 2^254 - 2^222 + 2^190 + 2^94. */
function fsqrt(r: usize, a: usize): void {
  const x = memory.data(32), t = memory.data(32);
  fsqr(t, a); fmul(x, t, a);             // a^(2^2-1)
  fsqrn(t, x, 2); fmul(x, t, x);         // 2^4-1
  fsqrn(t, x, 4); fmul(x, t, x);         // 2^8-1
  fsqrn(t, x, 8); fmul(x, t, x);         // 2^16-1
  fsqrn(t, x, 16); fmul(x, t, x);        // 2^32-1
  fsqrn(t, x, 32); fmul(t, t, a);        // 2^64-2^32+1
  fsqrn(t, t, 96); fmul(t, t, a);        // 2^160-2^128+2^96+1
  fsqrn(r, t, 94);
}

/** Decodes an SEC1 public key (65-byte 04||X||Y or 33-byte 02/03||X) into projective p.
 *  Returns 1 when it is a valid curve point, 0 otherwise. Public data: variable time is fine. */
export function pDecode(p: usize, bytes: usize, len: usize): i32 {
  const x = p, y = p + 32, rhs = memory.data(32), y2 = memory.data(32);
  if (len == 65 && load<u8>(bytes) == 4) {
    if (!fFromBytes(x, bytes + 1) || !fFromBytes(y, bytes + 33)) return 0;
    curveRhs(rhs, x); fsqr(y2, y);
    if (!fEq(rhs, y2)) return 0;
  } else if (len == 33 && (load<u8>(bytes) == 2 || load<u8>(bytes) == 3)) {
    if (!fFromBytes(x, bytes + 1)) return 0;
    curveRhs(rhs, x); fsqrt(y, rhs); fsqr(y2, y);
    if (!fEq(rhs, y2)) return 0;
    const ybytes = memory.data(32);
    fToBytes(ybytes, y);
    if ((load<u8>(ybytes + 31) & 1) != (load<u8>(bytes) & 1)) fsub(y, memory.data(32), y);
  } else {
    return 0;
  }
  fcopy(p + 64, F_ONE);
  return 1;
}

/** Writes 04||X||Y for a finite point. */
export function pEncode(out: usize, p: usize): void {
  const x = memory.data(32), y = memory.data(32);
  pToAffine(x, y, p);
  store<u8>(out, 4);
  fToBytes(out + 1, x);
  fToBytes(out + 33, y);
}

// ---- scalar multiplication ----

const GX = memory.data<u32>([0x18a9143c, 0x79e730d4, 0x5fedb601, 0x75ba95fc, 0x77622510, 0x79fb732b, 0xa53755c6, 0x18905f76]);
const GY = memory.data<u32>([0xce95560a, 0xddf25357, 0xba19e45c, 0x8b4ab8e4, 0xdd21f325, 0xd2e88688, 0x25885d85, 0x8571ff18]);
// k*G uses signed 6-bit windows (Booth recoding): 43 digits in [-32, 32], so 43 mixed additions
// and a 32-entry row per window. Measured against unsigned 4-bit windows (64 additions, 15-entry
// rows): the additions dominate, the masked scans are cheap u64 loads.
// @ts-ignore: decorator
@inline const WINDOWS = 43;
// @ts-ignore: decorator
@inline const ROW = 32;
/** Comb table: entry [i][j-1] = affine j * 2^(6i) * G, i < 43, j = 1..32 (86 KiB). */
const G_TABLE = memory.data(WINDOWS * ROW * 64);
let gTableReady = false;
const F_ZERO = memory.data(32);

/** Builds the comb table once per instance. Each row's 32 points share one inversion
 *  (Montgomery's trick); the base point is public, so nothing here needs to be constant-time. */
function buildGTable(): void {
  const b = memory.data(96), q = memory.data(96);
  const row = memory.data(ROW * 96), acc = memory.data(ROW * 32), inv = memory.data(32), zi = memory.data(32);
  fcopy(b, GX); fcopy(b + 32, GY); fcopy(b + 64, F_ONE);
  for (let i = 0; i < WINDOWS; i++) {
    pCopy(q, b);
    for (let j = 0; j < ROW; j++) {
      pCopy(row + <usize>j * 96, q);
      padd(q, q, b);
    }
    pdbl(q, row + (ROW - 1) * 96); // 2 * (32 b) = 2^6 b
    pCopy(b, q);
    fcopy(acc, row + 64);
    for (let j: usize = 1; j < <usize>ROW; j++) fmul(acc + j * 32, acc + (j - 1) * 32, row + j * 96 + 64);
    finv(inv, acc + (ROW - 1) * 32);
    for (let j = ROW - 1; j >= 0; j--) {
      const p = row + <usize>j * 96;
      if (j > 0) { fmul(zi, inv, acc + <usize>(j - 1) * 32); fmul(inv, inv, p + 64); } else fcopy(zi, inv);
      const e = G_TABLE + <usize>(i * ROW + j) * 64;
      fmul(e, p, zi); fmul(e + 32, p + 32, zi);
    }
  }
  gTableReady = true;
}

const cA = memory.data(32), cB = memory.data(32), cC = memory.data(32), cD = memory.data(32);
const cE = memory.data(32), cF = memory.data(32), cS = memory.data(96);

/** acc += (x, y) unless `keep` (all ones: the digit was 0, acc unchanged), in Jacobian coordinates
 *  for the SIGNING comb, constant-time (madd-2004-hmv,
 *  8M + 3S, against 11M + 2 mul-by-b for the complete projective formula). The formula is
 *  incomplete; its special cases are handled as follows, without branches:
 *  - acc at infinity (Z = 0): the result is replaced by (x, y, 1) under a mask.
 *  - acc = +-(x, y) cannot occur for 1 <= k < n (see pMulGJacobian). Before window i the
 *    accumulator is a*G with a = sum_{j<i} d_j 2^(6j), |a| < 2^(6i-1), and the entry is b*G with
 *    b = d*2^(6i), 1 <= |d| <= 32, so a -+ b is a nonzero integer (|b| > |a|) below n in absolute
 *    value for i <= 41 (|a| + |b| < 2^252). For i = 42, 0 <= d <= 16 (k < 2^256): a = -b mod n
 *    means k = a + b = 0 mod n; a = b mod n means k = 2b - t*n with |b - t*n| < 2^251, which only
 *    t = 1, d = 16 satisfies, giving k = 2^257 - n > n. Neither is in [1, n-1]. */
function jAddAffineCT(acc: usize, e: usize, keep: u64): void {
  const X1 = acc, Y1 = acc + 32, Z1 = acc + 64, x2 = e, y2 = e + 32;
  fsqr(cA, Z1);                                   // Z1^2
  fmul(cB, x2, cA); fsub(cB, cB, X1);             // H = x2 Z1^2 - X1
  fmul(cC, Z1, cA); fmul(cC, cC, y2); fsub(cC, cC, Y1); // R = y2 Z1^3 - Y1
  fsqr(cD, cB); fmul(cE, cB, cD); fmul(cF, X1, cD); // HH, HHH, V = X1 HH
  fmul(cS + 64, Z1, cB);                          // Z3
  fmul(cA, Y1, cE);                               // Y1 HHH
  fsqr(cD, cC); fsub(cD, cD, cE); fsub(cD, cD, cF); fsub(cS, cD, cF); // X3 = R^2 - HHH - 2V
  fsub(cD, cF, cS); fmul(cD, cC, cD); fsub(cS + 32, cD, cA);        // Y3 = R (V - X3) - Y1 HHH
  // acc = keep ? acc : (acc at infinity ? (x2, y2, 1) : sum), with masks only.
  const inf = <u64>0 - <u64>(fIsZero(Z1) & 1);
  for (let o: usize = 0; o < 32; o += 8) {
    const x = (load<u64>(cS + o) & ~inf) | (load<u64>(x2 + o) & inf);
    const y = (load<u64>(cS + 32 + o) & ~inf) | (load<u64>(y2 + o) & inf);
    const z = (load<u64>(cS + 64 + o) & ~inf) | (load<u64>(F_ONE + o) & inf);
    store<u64>(acc + o, (load<u64>(acc + o) & keep) | (x & ~keep));
    store<u64>(acc + 32 + o, (load<u64>(acc + 32 + o) & keep) | (y & ~keep));
    store<u64>(acc + 64 + o, (load<u64>(acc + 64 + o) & keep) | (z & ~keep));
  }
}

/** r = k*G in JACOBIAN coordinates (x = X/Z^2, y = Y/Z^3; infinity has Z = 0) for a secret k,
 *  1 <= k < n (the private key or the nonce; other values may hit the formula's special cases, see
 *  jAddAffineCT). Constant-time: digits are computed with masks; every window reads all 32 entries
 *  of its row and keeps one by masking, negates y under a mask, performs one mixed addition, and
 *  discards it by masking when the digit is 0 (the table has no entry for infinity). Only the
 *  window position (public) indexes memory. */
export function pMulGJacobian(r: usize, k: usize): void {
  if (!gTableReady) buildGTable(); // public, one-off
  const acc = memory.data(96), sel = memory.data(64), ny = memory.data(32);
  const k2 = memory.data(48); // 2k with zero padding: window i is bits 6i..6i+6 of 2k
  memory.fill(k2, 0, 48);
  let carry: u32 = 0;
  for (let j: usize = 0; j < 32; j += 4) {
    const w = load<u32>(k + j);
    store<u32>(k2 + j, (w << 1) | carry);
    carry = w >> 31;
  }
  store<u32>(k2 + 32, carry);
  fcopy(acc, F_ONE); fcopy(acc + 32, F_ONE); memory.fill(acc + 64, 0, 32); // (1 : 1 : 0) = infinity
  for (let i = 0; i < WINDOWS; i++) {
    const bit = i * 6;
    const x = <u32>(load<u64>(k2 + (<usize>(bit >> 5) << 2)) >> (bit & 31)) & 0x7f;
    const neg: u32 = x >> 6;                                   // digit = ((x + 1) >> 1) - 64 * neg
    const v: u32 = (x + 1) >> 1;
    const negMask: u32 = <u32>0 - neg;
    const mag: u32 = ((<u32>64 - v) & negMask) | (v & ~negMask);    // |digit| in 0..32
    const rowBase = G_TABLE + <usize>(i * ROW) * 64;
    // u64 lanes (SIMD is not enabled in the shared build): 8 words per 64-byte entry.
    let s0: u64 = 0, s1: u64 = 0, s2: u64 = 0, s3: u64 = 0, s4: u64 = 0, s5: u64 = 0, s6: u64 = 0, s7: u64 = 0;
    for (let j: u32 = 1; j <= <u32>ROW; j++) {
      const m = <u64>(0 - <i64>(((mag ^ j) - 1) >> 31)); // all ones when j == |digit|
      const e = rowBase + <usize>(j - 1) * 64;
      s0 |= load<u64>(e) & m; s1 |= load<u64>(e, 8) & m; s2 |= load<u64>(e, 16) & m; s3 |= load<u64>(e, 24) & m;
      s4 |= load<u64>(e, 32) & m; s5 |= load<u64>(e, 40) & m; s6 |= load<u64>(e, 48) & m; s7 |= load<u64>(e, 56) & m;
    }
    store<u64>(sel, s0); store<u64>(sel, s1, 8); store<u64>(sel, s2, 16); store<u64>(sel, s3, 24);
    store<u64>(sel, s4, 32); store<u64>(sel, s5, 40); store<u64>(sel, s6, 48); store<u64>(sel, s7, 56);
    fsub(ny, F_ZERO, sel + 32);
    fselect(sel + 32, sel + 32, ny, negMask);
    const keepAcc = <u64>(0 - <i64>((mag - 1) >> 31)); // all ones when the digit is 0
    jAddAffineCT(acc, sel, keepAcc);
  }
  memory.fill(k2, 0, 48);
  pCopy(r, acc);
  // Hygiene: scratch derived from k (the result is the caller's to keep or wipe).
  memory.fill(acc, 0, 96); memory.fill(cS, 0, 96); memory.fill(sel, 0, 64); memory.fill(ny, 0, 32);
}

/** r = k*G in projective (X:Y:Z) coordinates for a secret 1 <= k < n (constant-time):
 *  the Jacobian comb result (X, Y, Z) is (X Z : Y : Z^3) projectively (infinity: (0 : Y : 0)). */
export function pMulG(r: usize, k: usize): void {
  const j = memory.data(96), zz = memory.data(32);
  pMulGJacobian(j, k);
  fsqr(zz, j + 64);
  fmul(r, j, j + 64);
  fcopy(r + 32, j + 32);
  fmul(r + 64, zz, j + 64);
}

// ---- verification only: PUBLIC scalars and points, variable time ----
// Jacobian coordinates (X:Y:Z) for x = X/Z^2, y = Y/Z^3, 96 bytes; Z = 0 is the point at infinity.
// These formulas are incomplete (doubling and opposite inputs are special cases), so the
// additions below test for them and branch: fine for public data, NEVER use them with secrets.
// Cheaper than the complete projective formulas: doubling 4M+4S (vs 8M+3S+2b), mixed addition
// 8M+3S (vs 11M+2b).

const jA = memory.data(32), jB = memory.data(32), jC = memory.data(32), jD = memory.data(32);
const jE = memory.data(32), jF = memory.data(32), jG = memory.data(32), jH = memory.data(32);

/** r = 2p (Jacobian, a = -3; dbl-2001-b with Z3 = 2YZ): 4M + 4S. Infinity maps to infinity
 *  (Z3 = 0). r may alias p. */
export function jDbl(r: usize, p: usize): void {
  const X = p, Y = p + 32, Z = p + 64;
  const delta = jA, gamma = jB, beta = jC, alpha = jD;
  fsqr(delta, Z); fsqr(gamma, Y); fmul(beta, X, gamma);
  fsub(jE, X, delta); fadd(jF, X, delta); fmul(alpha, jE, jF);
  fmulSmall(alpha, alpha, 3);                                // alpha = 3 (X - delta)(X + delta)
  fmul(jF, Y, Z); fadd(r + 64, jF, jF);                    // Z3 = 2 Y Z (Y, Z read first)
  fmulSmall(jF, beta, 8); fmulSmall(beta, beta, 4);          // 8 beta, 4 beta
  fsqr(jE, alpha); fsub(r, jE, jF);                          // X3 = alpha^2 - 8 beta
  fsub(jE, beta, r); fmul(jE, alpha, jE);                    // alpha (4 beta - X3)
  fsqr(gamma, gamma); fmulSmall(gamma, gamma, 8);            // 8 gamma^2
  fsub(r + 32, jE, gamma);                                   // Y3
}

/** r = p + (x, y) with (x, y) affine (never infinity), p Jacobian (madd-2004-hmv). Branches on
 *  the public special cases. r may alias p. */
export function jAddAffine(r: usize, p: usize, x2: usize, y2: usize): void {
  const X1 = p, Y1 = p + 32, Z1 = p + 64;
  if (fIsZero(Z1)) { fcopy(r, x2); fcopy(r + 32, y2); fcopy(r + 64, F_ONE); return; }
  const z1z1 = jA, h = jB, rr = jC;
  fsqr(z1z1, Z1);
  fmul(h, x2, z1z1); fsub(h, h, X1);                          // H = U2 - X1
  fmul(rr, Z1, z1z1); fmul(rr, rr, y2); fsub(rr, rr, Y1);     // R = S2 - Y1
  if (fIsZero(h)) {
    if (fIsZero(rr)) { jDbl(r, p); return; }                  // same point
    memory.fill(r, 0, 96); return;                            // opposite points
  }
  const hh = jD, hhh = jE, v = jF;
  fsqr(hh, h); fmul(hhh, h, hh); fmul(v, X1, hh);
  fmul(r + 64, Z1, h);                                        // Z3 (Z1 read before X1/Y1 change)
  fmul(jG, Y1, hhh);                                          // Y1 H^3
  fsqr(jH, rr); fsub(jH, jH, hhh); fsub(jH, jH, v); fsub(r, jH, v); // X3 = R^2 - H^3 - 2V
  fsub(jH, v, r); fmul(jH, rr, jH); fsub(r + 32, jH, jG);     // Y3 = R (V - X3) - Y1 H^3
}

/** r = p + q, both Jacobian (add-1998-cmo-2), special cases branched on. r may alias p or q. */
export function jAdd(r: usize, p: usize, q: usize): void {
  if (fIsZero(q + 64)) { if (r != p) pCopy(r, p); return; }
  if (fIsZero(p + 64)) { if (r != q) pCopy(r, q); return; }
  const X1 = p, Y1 = p + 32, Z1 = p + 64, X2 = q, Y2 = q + 32, Z2 = q + 64;
  const z1z1 = jA, z2z2 = jB, u1 = jC, s1 = jD, h = jE, rr = jF;
  fsqr(z1z1, Z1); fsqr(z2z2, Z2);
  fmul(u1, X1, z2z2); fmul(h, X2, z1z1); fsub(h, h, u1);      // H = U2 - U1
  fmul(s1, Y1, Z2); fmul(s1, s1, z2z2);                       // S1 = Y1 Z2^3
  fmul(rr, Y2, Z1); fmul(rr, rr, z1z1); fsub(rr, rr, s1);     // R = S2 - S1
  if (fIsZero(h)) {
    if (fIsZero(rr)) { jDbl(r, p); return; }
    memory.fill(r, 0, 96); return;
  }
  const hh = jG, hhh = jH;
  fsqr(hh, h); fmul(hhh, h, hh); fmul(u1, u1, hh);            // u1 <- V = U1 H^2
  fmul(z1z1, Z1, Z2); fmul(r + 64, z1z1, h);                  // Z3
  fmul(s1, s1, hhh);                                          // S1 H^3
  fsqr(z2z2, rr); fsub(z2z2, z2z2, hhh); fsub(z2z2, z2z2, u1); fsub(r, z2z2, u1); // X3
  fsub(z2z2, u1, r); fmul(z2z2, rr, z2z2); fsub(r + 32, z2z2, s1);                // Y3
}

/** Width-w NAF (w <= 12) of a public scalar k (raw limbs, < 2^256): up to 256 + w signed digits
 *  (i16, 528-byte buffer) in out, each 0 or odd in (-2^(w-1), 2^(w-1)). Returns the index of the
 *  highest nonzero digit + 1 (0 for k = 0). */
function wnaf(out: usize, k: usize, w: i32): i32 {
  const kp = memory.data(48);
  memory.fill(kp, 0, 48); memory.copy(kp, k, 32);
  memory.fill(out, 0, 528);
  let carry: u32 = 0, bit = 0, top = 0;
  // Past bit 255 only a pending carry remains; it lands on its own position (at most 255 + w).
  while (bit < 256 + w + 1) {
    const b = (load<u32>(kp + (<usize>(bit >> 5) << 2)) >> (bit & 31)) & 1;
    if (b == carry) { bit++; continue; }
    let word = <i32>((<u32>(load<u64>(kp + (<usize>(bit >> 5) << 2)) >> (bit & 31)) & ((1 << w) - 1)) + carry);
    carry = (<u32>word >> (w - 1)) & 1;
    word -= <i32>(carry << w);
    store<i16>(out + (<usize>bit << 1), <i16>word);
    top = bit + 1;
    bit += w;
  }
  return top;
}

// @ts-ignore: decorator
@inline const GW = 10;
/** Verification table: affine odd multiples (2i + 1) G, i < 2^(GW-2) (16 KiB), built once. */
const G_ODD = memory.data((1 << (GW - 2)) * 64);
let gOddReady = false;

function buildGOdd(): void {
  const cnt: usize = 1 << (GW - 2);
  const jac = memory.data((1 << (GW - 2)) * 96), acc = memory.data((1 << (GW - 2)) * 32), g2 = memory.data(96), inv = memory.data(32), zi = memory.data(32), z2 = memory.data(32);
  fcopy(jac, GX); fcopy(jac + 32, GY); fcopy(jac + 64, F_ONE);
  jDbl(g2, jac);
  for (let i: usize = 1; i < cnt; i++) jAdd(jac + i * 96, jac + (i - 1) * 96, g2);
  fcopy(acc, jac + 64);
  for (let i: usize = 1; i < cnt; i++) fmul(acc + i * 32, acc + (i - 1) * 32, jac + i * 96 + 64);
  finv(inv, acc + (cnt - 1) * 32);
  for (let j = <isize>cnt - 1; j >= 0; j--) {
    const i = <usize>j, p = jac + i * 96;
    if (i > 0) { fmul(zi, inv, acc + (i - 1) * 32); fmul(inv, inv, p + 64); } else fcopy(zi, inv);
    fsqr(z2, zi);
    const e = G_ODD + i * 64;
    fmul(e, p, z2); fmul(z2, z2, zi); fmul(e + 32, p + 32, z2);
  }
  gOddReady = true;
}

/** r = u1*G + u2*Q for PUBLIC u1, u2 (raw limbs) and affine Q (Z = 1), Jacobian result.
 *  Straus/Shamir: one chain of 256 doublings shared by both scalars; u2 as a width-5 NAF over the
 *  odd multiples Q..15Q (built per call, made affine with one shared inversion), u1 as a width-10
 *  NAF over the static affine odd multiples G..511G; all additions are mixed (Jacobian + affine).
 *  Variable time: public data only. */
export function pMulDoubleVar(r: usize, u1: usize, q: usize, u2: usize): void {
  if (!gOddReady) buildGOdd();
  const nafQ = memory.data(528), nafG = memory.data(528), tbl = memory.data(8 * 96), tblA = memory.data(8 * 64), q2 = memory.data(96), ny = memory.data(32);
  const acc = r;
  // Odd multiples: tbl[i] = (2i + 1) Q.
  pCopy(tbl, q);
  jDbl(q2, q);
  for (let i: usize = 1; i < 8; i++) jAdd(tbl + i * 96, tbl + (i - 1) * 96, q2);
  // To affine with one shared inversion (Montgomery's trick), so the ~43 additions of Q multiples
  // are mixed additions (8M + 3S instead of 12M + 4S).
  const zacc = memory.data(8 * 32), inv = memory.data(32), zi = memory.data(32), z2 = memory.data(32);
  fcopy(zacc, tbl + 64);
  for (let i: usize = 1; i < 8; i++) fmul(zacc + i * 32, zacc + (i - 1) * 32, tbl + i * 96 + 64);
  finvSafe(inv, zacc + 7 * 32);
  for (let j = 7; j >= 0; j--) {
    const i = <usize>j, p = tbl + i * 96;
    if (i > 0) { fmul(zi, inv, zacc + (i - 1) * 32); fmul(inv, inv, p + 64); } else fcopy(zi, inv);
    fsqr(z2, zi);
    const e = tblA + i * 64;
    fmul(e, p, z2); fmul(z2, z2, zi); fmul(e + 32, p + 32, z2);
  }
  memory.fill(acc, 0, 96);
  const topQ = wnaf(nafQ, u2, 5), topG = wnaf(nafG, u1, GW);
  const top = topQ > topG ? topQ : topG;
  for (let i = top - 1; i >= 0; i--) {
    if (!fIsZero(acc + 64)) jDbl(acc, acc);
    const d = <i32>load<i16>(nafQ + (<usize>i << 1));
    if (d > 0) {
      const e = tblA + <usize>((d - 1) >> 1) * 64;
      jAddAffine(acc, acc, e, e + 32);
    } else if (d < 0) {
      const e = tblA + <usize>((-d - 1) >> 1) * 64;
      fsub(ny, F_ZERO, e + 32); jAddAffine(acc, acc, e, ny);
    }
    const g = <i32>load<i16>(nafG + (<usize>i << 1));
    if (g > 0) {
      const e = G_ODD + <usize>((g - 1) >> 1) * 64;
      jAddAffine(acc, acc, e, e + 32);
    } else if (g < 0) {
      const e = G_ODD + <usize>((-g - 1) >> 1) * 64;
      fsub(ny, F_ZERO, e + 32); jAddAffine(acc, acc, e, ny);
    }
  }
}
