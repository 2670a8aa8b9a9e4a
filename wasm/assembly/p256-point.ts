// P-256 points: projective (X:Y:Z), 96 bytes (three Montgomery field elements) at an address;
// affine table entries are 64 bytes (x, y). The group law uses the complete formulas of
// Renes-Costello-Batina 2016 for a = -3 (algorithms 4, 5, 6): one code path for every input,
// doubling and the point at infinity (0:1:0) included, so no branch depends on the point.
// Outputs go through scratch first, so a result may alias an input.
import { F_B, F_ONE, fadd, fsub, fmul, fsqr, fsqrn, fcopy, finv, fEq, fIsZero, fFromBytes, fToBytes, fselect } from './p256-field';

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
  fmul(Z3, F_B, t2); fsub(X3, Y3, Z3); fadd(Z3, X3, X3);
  fadd(X3, X3, Z3); fsub(Z3, t1, X3); fadd(X3, t1, X3);
  fmul(Y3, F_B, Y3); fadd(t1, t2, t2); fadd(t2, t1, t2);
  fsub(Y3, Y3, t2); fsub(Y3, Y3, t0); fadd(t1, Y3, Y3);
  fadd(Y3, t1, Y3); fadd(t1, t0, t0); fadd(t0, t1, t0);
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
  fadd(X3, Y3, Y3); fadd(Y3, X3, Y3); fsub(X3, t1, Y3);
  fadd(Y3, t1, Y3); fmul(Y3, X3, Y3); fmul(X3, X3, t3);
  fadd(t3, t2, t2); fadd(t2, t2, t3); fmul(Z3, F_B, Z3);
  fsub(Z3, Z3, t2); fsub(Z3, Z3, t0); fadd(t3, Z3, Z3);
  fadd(Z3, Z3, t3); fadd(t3, t0, t0); fadd(t0, t3, t0);
  fsub(t0, t0, t2); fmul(t0, t0, Z3); fadd(Y3, Y3, t0);
  fmul(t0, Y, Z); fadd(t0, t0, t0); fmul(Z3, t0, Z3);
  fsub(X3, X3, Z3); fmul(Z3, t0, t1); fadd(Z3, Z3, Z3);
  fadd(Z3, Z3, Z3);
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

/** Affine (x, y) of a finite point, in Montgomery form. One inversion (constant-time chain). */
export function pToAffine(x: usize, y: usize, p: usize): void {
  const zi = memory.data(32);
  finv(zi, p + 64);
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

/** r = k*G for a secret k (raw limbs, any 256-bit value). Constant-time: digits are computed with
 *  masks; every window reads all 32 entries of its row and keeps one by masking, negates y under a
 *  mask, performs one mixed addition, and discards it by masking when the digit is 0 (the table has
 *  no entry for infinity). Only the window position (public) indexes memory. */
export function pMulG(r: usize, k: usize): void {
  if (!gTableReady) buildGTable(); // public, one-off
  const acc = memory.data(96), sum = memory.data(96), sel = memory.data(64), ny = memory.data(32);
  const k2 = memory.data(48); // 2k with zero padding: window i is bits 6i..6i+6 of 2k
  memory.fill(k2, 0, 48);
  let carry: u32 = 0;
  for (let j: usize = 0; j < 32; j += 4) {
    const w = load<u32>(k + j);
    store<u32>(k2 + j, (w << 1) | carry);
    carry = w >> 31;
  }
  store<u32>(k2 + 32, carry);
  pSetInfinity(acc);
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
    paddAffine(sum, acc, sel);
    const keepAcc = <u64>(0 - <i64>((mag - 1) >> 31)); // all ones when the digit is 0
    for (let o: usize = 0; o < 96; o += 8) {
      store<u64>(acc + o, (load<u64>(acc + o) & keepAcc) | (load<u64>(sum + o) & ~keepAcc));
    }
  }
  memory.fill(k2, 0, 48);
  pCopy(r, acc);
}

/** The 4-bit digit i (public position) of a public scalar in raw little-endian limbs. */
// @ts-ignore: decorator
@inline function nibble(k: usize, i: i32): u32 {
  return (load<u32>(k + (<usize>(i >> 3) << 2)) >> ((i & 7) << 2)) & 15;
}

/** r = k*p for PUBLIC k and p (verification only): variable-time 4-bit fixed window. */
export function pMulVar(r: usize, p: usize, k: usize): void {
  const table = memory.data(16 * 96), acc = memory.data(96);
  pSetInfinity(table);
  pCopy(table + 96, p);
  for (let j: usize = 2; j < 16; j++) padd(table + j * 96, table + (j - 1) * 96, p);
  pSetInfinity(acc);
  for (let i = 63; i >= 0; i--) {
    pdbl(acc, acc); pdbl(acc, acc); pdbl(acc, acc); pdbl(acc, acc);
    const d = nibble(k, i);
    if (d != 0) padd(acc, acc, table + <usize>d * 96);
  }
  pCopy(r, acc);
}
