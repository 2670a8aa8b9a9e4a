// Arithmetic modulo p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (the P-256 field), in Montgomery form.
// An element is 8 little-endian u32 limbs (32 bytes) at an address, always fully reduced (< p).
// WASM has a 64-bit multiply but no 64x64->128, so 32-bit limbs with u64 products keep every
// partial sum of the multiplication inside a u64 without carries escaping.
// Constant-time: every function here is straight-line (no branch, no index on element values);
// conditional corrections use masks. Only fFromBytes's range flag and fIsZero/fEq results, used on
// public data (decoding, verification), are meant to be branched on.

// @ts-ignore: decorator
@inline const M32: u64 = 0xffffffff;

export const P = memory.data<u32>([0xffffffff, 0xffffffff, 0xffffffff, 0x0, 0x0, 0x0, 0x1, 0xffffffff]);
/** 2^512 mod p: multiplying by it enters Montgomery form. */
const P_R2 = memory.data<u32>([0x3, 0x0, 0xffffffff, 0xfffffffb, 0xfffffffe, 0xffffffff, 0xfffffffd, 0x4]);
/** 1 in Montgomery form (2^256 mod p). */
export const F_ONE = memory.data<u32>([0x1, 0x0, 0x0, 0xffffffff, 0xffffffff, 0xffffffff, 0xfffffffe, 0x0]);
/** The curve coefficient b in Montgomery form. */
export const F_B = memory.data<u32>([0x29c4bddf, 0xd89cdf62, 0x78843090, 0xacf005cd, 0xf7212ed6, 0xe5a220ab, 0x4874834, 0xdc30061d]);
const RAW_ONE = memory.data<u32>([1, 0, 0, 0, 0, 0, 0, 0]);
const T0 = memory.data(32);
const T1 = memory.data(32);
const T2 = memory.data(32);
const T3 = memory.data(32);

// Unrolled CIOS Montgomery product r = a*b/2^256 mod m (generated; m = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff).
// Straight-line code: no branch or index depends on a or b (constant-time).
export function fmul(r: usize, a: usize, b: usize): void {
  const a0 = <u64>load<u32>(a, 0);
  const a1 = <u64>load<u32>(a, 4);
  const a2 = <u64>load<u32>(a, 8);
  const a3 = <u64>load<u32>(a, 12);
  const a4 = <u64>load<u32>(a, 16);
  const a5 = <u64>load<u32>(a, 20);
  const a6 = <u64>load<u32>(a, 24);
  const a7 = <u64>load<u32>(a, 28);
  let t0: u64 = 0, t1: u64 = 0, t2: u64 = 0, t3: u64 = 0, t4: u64 = 0, t5: u64 = 0, t6: u64 = 0, t7: u64 = 0, t8: u64 = 0, t9: u64 = 0;
  let v: u64 = 0, c: u64 = 0, bi: u64 = 0, q: u64 = 0;
  bi = <u64>load<u32>(b, 0);
  v = a0 * bi; t0 = v & M32; c = v >> 32;
  v = a1 * bi + c; t1 = v & M32; c = v >> 32;
  v = a2 * bi + c; t2 = v & M32; c = v >> 32;
  v = a3 * bi + c; t3 = v & M32; c = v >> 32;
  v = a4 * bi + c; t4 = v & M32; c = v >> 32;
  v = a5 * bi + c; t5 = v & M32; c = v >> 32;
  v = a6 * bi + c; t6 = v & M32; c = v >> 32;
  v = a7 * bi + c; t7 = v & M32; c = v >> 32;
  t8 = c; t9 = 0;
  q = t0;
  v = t0 + q * 0xffffffff; c = v >> 32;
  v = t1 + q * 0xffffffff + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xffffffff + c; t1 = v & M32; c = v >> 32;
  v = t3 + c; t2 = v & M32; c = v >> 32;
  v = t4 + c; t3 = v & M32; c = v >> 32;
  v = t5 + c; t4 = v & M32; c = v >> 32;
  v = t6 + q + c; t5 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t8 + c; t7 = v & M32; t8 = t9 + (v >> 32);
  bi = <u64>load<u32>(b, 4);
  v = t0 + a0 * bi; t0 = v & M32; c = v >> 32;
  v = t1 + a1 * bi + c; t1 = v & M32; c = v >> 32;
  v = t2 + a2 * bi + c; t2 = v & M32; c = v >> 32;
  v = t3 + a3 * bi + c; t3 = v & M32; c = v >> 32;
  v = t4 + a4 * bi + c; t4 = v & M32; c = v >> 32;
  v = t5 + a5 * bi + c; t5 = v & M32; c = v >> 32;
  v = t6 + a6 * bi + c; t6 = v & M32; c = v >> 32;
  v = t7 + a7 * bi + c; t7 = v & M32; c = v >> 32;
  v = t8 + c; t8 = v & M32; t9 = v >> 32;
  q = t0;
  v = t0 + q * 0xffffffff; c = v >> 32;
  v = t1 + q * 0xffffffff + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xffffffff + c; t1 = v & M32; c = v >> 32;
  v = t3 + c; t2 = v & M32; c = v >> 32;
  v = t4 + c; t3 = v & M32; c = v >> 32;
  v = t5 + c; t4 = v & M32; c = v >> 32;
  v = t6 + q + c; t5 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t8 + c; t7 = v & M32; t8 = t9 + (v >> 32);
  bi = <u64>load<u32>(b, 8);
  v = t0 + a0 * bi; t0 = v & M32; c = v >> 32;
  v = t1 + a1 * bi + c; t1 = v & M32; c = v >> 32;
  v = t2 + a2 * bi + c; t2 = v & M32; c = v >> 32;
  v = t3 + a3 * bi + c; t3 = v & M32; c = v >> 32;
  v = t4 + a4 * bi + c; t4 = v & M32; c = v >> 32;
  v = t5 + a5 * bi + c; t5 = v & M32; c = v >> 32;
  v = t6 + a6 * bi + c; t6 = v & M32; c = v >> 32;
  v = t7 + a7 * bi + c; t7 = v & M32; c = v >> 32;
  v = t8 + c; t8 = v & M32; t9 = v >> 32;
  q = t0;
  v = t0 + q * 0xffffffff; c = v >> 32;
  v = t1 + q * 0xffffffff + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xffffffff + c; t1 = v & M32; c = v >> 32;
  v = t3 + c; t2 = v & M32; c = v >> 32;
  v = t4 + c; t3 = v & M32; c = v >> 32;
  v = t5 + c; t4 = v & M32; c = v >> 32;
  v = t6 + q + c; t5 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t8 + c; t7 = v & M32; t8 = t9 + (v >> 32);
  bi = <u64>load<u32>(b, 12);
  v = t0 + a0 * bi; t0 = v & M32; c = v >> 32;
  v = t1 + a1 * bi + c; t1 = v & M32; c = v >> 32;
  v = t2 + a2 * bi + c; t2 = v & M32; c = v >> 32;
  v = t3 + a3 * bi + c; t3 = v & M32; c = v >> 32;
  v = t4 + a4 * bi + c; t4 = v & M32; c = v >> 32;
  v = t5 + a5 * bi + c; t5 = v & M32; c = v >> 32;
  v = t6 + a6 * bi + c; t6 = v & M32; c = v >> 32;
  v = t7 + a7 * bi + c; t7 = v & M32; c = v >> 32;
  v = t8 + c; t8 = v & M32; t9 = v >> 32;
  q = t0;
  v = t0 + q * 0xffffffff; c = v >> 32;
  v = t1 + q * 0xffffffff + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xffffffff + c; t1 = v & M32; c = v >> 32;
  v = t3 + c; t2 = v & M32; c = v >> 32;
  v = t4 + c; t3 = v & M32; c = v >> 32;
  v = t5 + c; t4 = v & M32; c = v >> 32;
  v = t6 + q + c; t5 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t8 + c; t7 = v & M32; t8 = t9 + (v >> 32);
  bi = <u64>load<u32>(b, 16);
  v = t0 + a0 * bi; t0 = v & M32; c = v >> 32;
  v = t1 + a1 * bi + c; t1 = v & M32; c = v >> 32;
  v = t2 + a2 * bi + c; t2 = v & M32; c = v >> 32;
  v = t3 + a3 * bi + c; t3 = v & M32; c = v >> 32;
  v = t4 + a4 * bi + c; t4 = v & M32; c = v >> 32;
  v = t5 + a5 * bi + c; t5 = v & M32; c = v >> 32;
  v = t6 + a6 * bi + c; t6 = v & M32; c = v >> 32;
  v = t7 + a7 * bi + c; t7 = v & M32; c = v >> 32;
  v = t8 + c; t8 = v & M32; t9 = v >> 32;
  q = t0;
  v = t0 + q * 0xffffffff; c = v >> 32;
  v = t1 + q * 0xffffffff + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xffffffff + c; t1 = v & M32; c = v >> 32;
  v = t3 + c; t2 = v & M32; c = v >> 32;
  v = t4 + c; t3 = v & M32; c = v >> 32;
  v = t5 + c; t4 = v & M32; c = v >> 32;
  v = t6 + q + c; t5 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t8 + c; t7 = v & M32; t8 = t9 + (v >> 32);
  bi = <u64>load<u32>(b, 20);
  v = t0 + a0 * bi; t0 = v & M32; c = v >> 32;
  v = t1 + a1 * bi + c; t1 = v & M32; c = v >> 32;
  v = t2 + a2 * bi + c; t2 = v & M32; c = v >> 32;
  v = t3 + a3 * bi + c; t3 = v & M32; c = v >> 32;
  v = t4 + a4 * bi + c; t4 = v & M32; c = v >> 32;
  v = t5 + a5 * bi + c; t5 = v & M32; c = v >> 32;
  v = t6 + a6 * bi + c; t6 = v & M32; c = v >> 32;
  v = t7 + a7 * bi + c; t7 = v & M32; c = v >> 32;
  v = t8 + c; t8 = v & M32; t9 = v >> 32;
  q = t0;
  v = t0 + q * 0xffffffff; c = v >> 32;
  v = t1 + q * 0xffffffff + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xffffffff + c; t1 = v & M32; c = v >> 32;
  v = t3 + c; t2 = v & M32; c = v >> 32;
  v = t4 + c; t3 = v & M32; c = v >> 32;
  v = t5 + c; t4 = v & M32; c = v >> 32;
  v = t6 + q + c; t5 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t8 + c; t7 = v & M32; t8 = t9 + (v >> 32);
  bi = <u64>load<u32>(b, 24);
  v = t0 + a0 * bi; t0 = v & M32; c = v >> 32;
  v = t1 + a1 * bi + c; t1 = v & M32; c = v >> 32;
  v = t2 + a2 * bi + c; t2 = v & M32; c = v >> 32;
  v = t3 + a3 * bi + c; t3 = v & M32; c = v >> 32;
  v = t4 + a4 * bi + c; t4 = v & M32; c = v >> 32;
  v = t5 + a5 * bi + c; t5 = v & M32; c = v >> 32;
  v = t6 + a6 * bi + c; t6 = v & M32; c = v >> 32;
  v = t7 + a7 * bi + c; t7 = v & M32; c = v >> 32;
  v = t8 + c; t8 = v & M32; t9 = v >> 32;
  q = t0;
  v = t0 + q * 0xffffffff; c = v >> 32;
  v = t1 + q * 0xffffffff + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xffffffff + c; t1 = v & M32; c = v >> 32;
  v = t3 + c; t2 = v & M32; c = v >> 32;
  v = t4 + c; t3 = v & M32; c = v >> 32;
  v = t5 + c; t4 = v & M32; c = v >> 32;
  v = t6 + q + c; t5 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t8 + c; t7 = v & M32; t8 = t9 + (v >> 32);
  bi = <u64>load<u32>(b, 28);
  v = t0 + a0 * bi; t0 = v & M32; c = v >> 32;
  v = t1 + a1 * bi + c; t1 = v & M32; c = v >> 32;
  v = t2 + a2 * bi + c; t2 = v & M32; c = v >> 32;
  v = t3 + a3 * bi + c; t3 = v & M32; c = v >> 32;
  v = t4 + a4 * bi + c; t4 = v & M32; c = v >> 32;
  v = t5 + a5 * bi + c; t5 = v & M32; c = v >> 32;
  v = t6 + a6 * bi + c; t6 = v & M32; c = v >> 32;
  v = t7 + a7 * bi + c; t7 = v & M32; c = v >> 32;
  v = t8 + c; t8 = v & M32; t9 = v >> 32;
  q = t0;
  v = t0 + q * 0xffffffff; c = v >> 32;
  v = t1 + q * 0xffffffff + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xffffffff + c; t1 = v & M32; c = v >> 32;
  v = t3 + c; t2 = v & M32; c = v >> 32;
  v = t4 + c; t3 = v & M32; c = v >> 32;
  v = t5 + c; t4 = v & M32; c = v >> 32;
  v = t6 + q + c; t5 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t8 + c; t7 = v & M32; t8 = t9 + (v >> 32);
  // t8:t7..t0 < 2m: subtract m once, keep the difference unless it borrowed (mask select).
  const d0 = t0 - 0xffffffff; let bw = (d0 >> 63);
  const d1 = t1 - 0xffffffff - bw; bw = (d1 >> 63);
  const d2 = t2 - 0xffffffff - bw; bw = (d2 >> 63);
  const d3 = t3 - 0x0 - bw; bw = (d3 >> 63);
  const d4 = t4 - 0x0 - bw; bw = (d4 >> 63);
  const d5 = t5 - 0x0 - bw; bw = (d5 >> 63);
  const d6 = t6 - 0x1 - bw; bw = (d6 >> 63);
  const d7 = t7 - 0xffffffff - bw; bw = (d7 >> 63);
  const keep = 0 - ((t8 - bw) >> 63); // all ones when t < m (borrow out of the 257-bit value)
  store<u32>(r, <u32>(((t0 & keep) | (d0 & ~keep)) & M32), 0);
  store<u32>(r, <u32>(((t1 & keep) | (d1 & ~keep)) & M32), 4);
  store<u32>(r, <u32>(((t2 & keep) | (d2 & ~keep)) & M32), 8);
  store<u32>(r, <u32>(((t3 & keep) | (d3 & ~keep)) & M32), 12);
  store<u32>(r, <u32>(((t4 & keep) | (d4 & ~keep)) & M32), 16);
  store<u32>(r, <u32>(((t5 & keep) | (d5 & ~keep)) & M32), 20);
  store<u32>(r, <u32>(((t6 & keep) | (d6 & ~keep)) & M32), 24);
  store<u32>(r, <u32>(((t7 & keep) | (d7 & ~keep)) & M32), 28);
}

// BEGIN GENERATED fsqr (wasm/tools/gen-p256-sqr.mjs; do not edit by hand)
// r = a^2 / 2^256 mod m, a < m: 36 multiplications + reduction, straight-line (constant-time).
export function fsqr(r: usize, a: usize): void {
  const a0 = <u64>load<u32>(a, 0);
  const a1 = <u64>load<u32>(a, 4);
  const a2 = <u64>load<u32>(a, 8);
  const a3 = <u64>load<u32>(a, 12);
  const a4 = <u64>load<u32>(a, 16);
  const a5 = <u64>load<u32>(a, 20);
  const a6 = <u64>load<u32>(a, 24);
  const a7 = <u64>load<u32>(a, 28);
  let t0: u64 = 0, t1: u64 = 0, t2: u64 = 0, t3: u64 = 0, t4: u64 = 0, t5: u64 = 0, t6: u64 = 0, t7: u64 = 0, t8: u64 = 0, t9: u64 = 0, t10: u64 = 0, t11: u64 = 0, t12: u64 = 0, t13: u64 = 0, t14: u64 = 0, t15: u64 = 0;
  let v: u64 = 0, c: u64 = 0, q: u64 = 0, ov: u64 = 0;
  v = a0 * a1; t1 = v & M32; c = v >> 32;
  v = a0 * a2 + c; t2 = v & M32; c = v >> 32;
  v = a0 * a3 + c; t3 = v & M32; c = v >> 32;
  v = a0 * a4 + c; t4 = v & M32; c = v >> 32;
  v = a0 * a5 + c; t5 = v & M32; c = v >> 32;
  v = a0 * a6 + c; t6 = v & M32; c = v >> 32;
  v = a0 * a7 + c; t7 = v & M32; c = v >> 32;
  t8 = c;
  v = t3 + a1 * a2; t3 = v & M32; c = v >> 32;
  v = t4 + a1 * a3 + c; t4 = v & M32; c = v >> 32;
  v = t5 + a1 * a4 + c; t5 = v & M32; c = v >> 32;
  v = t6 + a1 * a5 + c; t6 = v & M32; c = v >> 32;
  v = t7 + a1 * a6 + c; t7 = v & M32; c = v >> 32;
  v = t8 + a1 * a7 + c; t8 = v & M32; c = v >> 32;
  t9 = c;
  v = t5 + a2 * a3; t5 = v & M32; c = v >> 32;
  v = t6 + a2 * a4 + c; t6 = v & M32; c = v >> 32;
  v = t7 + a2 * a5 + c; t7 = v & M32; c = v >> 32;
  v = t8 + a2 * a6 + c; t8 = v & M32; c = v >> 32;
  v = t9 + a2 * a7 + c; t9 = v & M32; c = v >> 32;
  t10 = c;
  v = t7 + a3 * a4; t7 = v & M32; c = v >> 32;
  v = t8 + a3 * a5 + c; t8 = v & M32; c = v >> 32;
  v = t9 + a3 * a6 + c; t9 = v & M32; c = v >> 32;
  v = t10 + a3 * a7 + c; t10 = v & M32; c = v >> 32;
  t11 = c;
  v = t9 + a4 * a5; t9 = v & M32; c = v >> 32;
  v = t10 + a4 * a6 + c; t10 = v & M32; c = v >> 32;
  v = t11 + a4 * a7 + c; t11 = v & M32; c = v >> 32;
  t12 = c;
  v = t11 + a5 * a6; t11 = v & M32; c = v >> 32;
  v = t12 + a5 * a7 + c; t12 = v & M32; c = v >> 32;
  t13 = c;
  v = t13 + a6 * a7; t13 = v & M32; c = v >> 32;
  t14 = c;
  t15 = t14 >> 31;
  t14 = ((t14 << 1) & M32) | (t13 >> 31);
  t13 = ((t13 << 1) & M32) | (t12 >> 31);
  t12 = ((t12 << 1) & M32) | (t11 >> 31);
  t11 = ((t11 << 1) & M32) | (t10 >> 31);
  t10 = ((t10 << 1) & M32) | (t9 >> 31);
  t9 = ((t9 << 1) & M32) | (t8 >> 31);
  t8 = ((t8 << 1) & M32) | (t7 >> 31);
  t7 = ((t7 << 1) & M32) | (t6 >> 31);
  t6 = ((t6 << 1) & M32) | (t5 >> 31);
  t5 = ((t5 << 1) & M32) | (t4 >> 31);
  t4 = ((t4 << 1) & M32) | (t3 >> 31);
  t3 = ((t3 << 1) & M32) | (t2 >> 31);
  t2 = ((t2 << 1) & M32) | (t1 >> 31);
  t1 = (t1 << 1) & M32;
  v = a0 * a0; t0 = v & M32; c = v >> 32;
  t1 += c; c = t1 >> 32; t1 &= M32;
  v = a1 * a1; c += v & M32; t2 += c; c = (v >> 32) + (t2 >> 32); t2 &= M32;
  t3 += c; c = t3 >> 32; t3 &= M32;
  v = a2 * a2; c += v & M32; t4 += c; c = (v >> 32) + (t4 >> 32); t4 &= M32;
  t5 += c; c = t5 >> 32; t5 &= M32;
  v = a3 * a3; c += v & M32; t6 += c; c = (v >> 32) + (t6 >> 32); t6 &= M32;
  t7 += c; c = t7 >> 32; t7 &= M32;
  v = a4 * a4; c += v & M32; t8 += c; c = (v >> 32) + (t8 >> 32); t8 &= M32;
  t9 += c; c = t9 >> 32; t9 &= M32;
  v = a5 * a5; c += v & M32; t10 += c; c = (v >> 32) + (t10 >> 32); t10 &= M32;
  t11 += c; c = t11 >> 32; t11 &= M32;
  v = a6 * a6; c += v & M32; t12 += c; c = (v >> 32) + (t12 >> 32); t12 &= M32;
  t13 += c; c = t13 >> 32; t13 &= M32;
  v = a7 * a7; c += v & M32; t14 += c; c = (v >> 32) + (t14 >> 32); t14 &= M32;
  t15 += c; c = t15 >> 32; t15 &= M32;
  q = t0;
  v = t0 + q * 0xffffffff; c = v >> 32;
  v = t1 + q * 0xffffffff + c; t1 = v & M32; c = v >> 32;
  v = t2 + q * 0xffffffff + c; t2 = v & M32; c = v >> 32;
  v = t3 + c; t3 = v & M32; c = v >> 32;
  v = t4 + c; t4 = v & M32; c = v >> 32;
  v = t5 + c; t5 = v & M32; c = v >> 32;
  v = t6 + q + c; t6 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t7 = v & M32; c = v >> 32;
  v = t8 + c + ov; t8 = v & M32; ov = v >> 32;
  q = t1;
  v = t1 + q * 0xffffffff; c = v >> 32;
  v = t2 + q * 0xffffffff + c; t2 = v & M32; c = v >> 32;
  v = t3 + q * 0xffffffff + c; t3 = v & M32; c = v >> 32;
  v = t4 + c; t4 = v & M32; c = v >> 32;
  v = t5 + c; t5 = v & M32; c = v >> 32;
  v = t6 + c; t6 = v & M32; c = v >> 32;
  v = t7 + q + c; t7 = v & M32; c = v >> 32;
  v = t8 + q * 0xffffffff + c; t8 = v & M32; c = v >> 32;
  v = t9 + c + ov; t9 = v & M32; ov = v >> 32;
  q = t2;
  v = t2 + q * 0xffffffff; c = v >> 32;
  v = t3 + q * 0xffffffff + c; t3 = v & M32; c = v >> 32;
  v = t4 + q * 0xffffffff + c; t4 = v & M32; c = v >> 32;
  v = t5 + c; t5 = v & M32; c = v >> 32;
  v = t6 + c; t6 = v & M32; c = v >> 32;
  v = t7 + c; t7 = v & M32; c = v >> 32;
  v = t8 + q + c; t8 = v & M32; c = v >> 32;
  v = t9 + q * 0xffffffff + c; t9 = v & M32; c = v >> 32;
  v = t10 + c + ov; t10 = v & M32; ov = v >> 32;
  q = t3;
  v = t3 + q * 0xffffffff; c = v >> 32;
  v = t4 + q * 0xffffffff + c; t4 = v & M32; c = v >> 32;
  v = t5 + q * 0xffffffff + c; t5 = v & M32; c = v >> 32;
  v = t6 + c; t6 = v & M32; c = v >> 32;
  v = t7 + c; t7 = v & M32; c = v >> 32;
  v = t8 + c; t8 = v & M32; c = v >> 32;
  v = t9 + q + c; t9 = v & M32; c = v >> 32;
  v = t10 + q * 0xffffffff + c; t10 = v & M32; c = v >> 32;
  v = t11 + c + ov; t11 = v & M32; ov = v >> 32;
  q = t4;
  v = t4 + q * 0xffffffff; c = v >> 32;
  v = t5 + q * 0xffffffff + c; t5 = v & M32; c = v >> 32;
  v = t6 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t7 + c; t7 = v & M32; c = v >> 32;
  v = t8 + c; t8 = v & M32; c = v >> 32;
  v = t9 + c; t9 = v & M32; c = v >> 32;
  v = t10 + q + c; t10 = v & M32; c = v >> 32;
  v = t11 + q * 0xffffffff + c; t11 = v & M32; c = v >> 32;
  v = t12 + c + ov; t12 = v & M32; ov = v >> 32;
  q = t5;
  v = t5 + q * 0xffffffff; c = v >> 32;
  v = t6 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t7 = v & M32; c = v >> 32;
  v = t8 + c; t8 = v & M32; c = v >> 32;
  v = t9 + c; t9 = v & M32; c = v >> 32;
  v = t10 + c; t10 = v & M32; c = v >> 32;
  v = t11 + q + c; t11 = v & M32; c = v >> 32;
  v = t12 + q * 0xffffffff + c; t12 = v & M32; c = v >> 32;
  v = t13 + c + ov; t13 = v & M32; ov = v >> 32;
  q = t6;
  v = t6 + q * 0xffffffff; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t7 = v & M32; c = v >> 32;
  v = t8 + q * 0xffffffff + c; t8 = v & M32; c = v >> 32;
  v = t9 + c; t9 = v & M32; c = v >> 32;
  v = t10 + c; t10 = v & M32; c = v >> 32;
  v = t11 + c; t11 = v & M32; c = v >> 32;
  v = t12 + q + c; t12 = v & M32; c = v >> 32;
  v = t13 + q * 0xffffffff + c; t13 = v & M32; c = v >> 32;
  v = t14 + c + ov; t14 = v & M32; ov = v >> 32;
  q = t7;
  v = t7 + q * 0xffffffff; c = v >> 32;
  v = t8 + q * 0xffffffff + c; t8 = v & M32; c = v >> 32;
  v = t9 + q * 0xffffffff + c; t9 = v & M32; c = v >> 32;
  v = t10 + c; t10 = v & M32; c = v >> 32;
  v = t11 + c; t11 = v & M32; c = v >> 32;
  v = t12 + c; t12 = v & M32; c = v >> 32;
  v = t13 + q + c; t13 = v & M32; c = v >> 32;
  v = t14 + q * 0xffffffff + c; t14 = v & M32; c = v >> 32;
  v = t15 + c + ov; t15 = v & M32; ov = v >> 32;
  const d0 = t8 - 0xffffffff; let bw = d0 >> 63;
  const d1 = t9 - 0xffffffff - bw; bw = d1 >> 63;
  const d2 = t10 - 0xffffffff - bw; bw = d2 >> 63;
  const d3 = t11 - 0x0 - bw; bw = d3 >> 63;
  const d4 = t12 - 0x0 - bw; bw = d4 >> 63;
  const d5 = t13 - 0x0 - bw; bw = d5 >> 63;
  const d6 = t14 - 0x1 - bw; bw = d6 >> 63;
  const d7 = t15 - 0xffffffff - bw; bw = d7 >> 63;
  const keep = 0 - ((ov - bw) >> 63); // all ones when the value is below m
  store<u32>(r, <u32>((t8 & keep) | (d0 & ~keep)), 0);
  store<u32>(r, <u32>((t9 & keep) | (d1 & ~keep)), 4);
  store<u32>(r, <u32>((t10 & keep) | (d2 & ~keep)), 8);
  store<u32>(r, <u32>((t11 & keep) | (d3 & ~keep)), 12);
  store<u32>(r, <u32>((t12 & keep) | (d4 & ~keep)), 16);
  store<u32>(r, <u32>((t13 & keep) | (d5 & ~keep)), 20);
  store<u32>(r, <u32>((t14 & keep) | (d6 & ~keep)), 24);
  store<u32>(r, <u32>((t15 & keep) | (d7 & ~keep)), 28);
}
// END GENERATED fsqr

/** r = a squared n times. */
export function fsqrn(r: usize, a: usize, n: i32): void {
  fsqr(r, a);
  for (let i = 1; i < n; i++) fsqr(r, r);
}

/** r = a + b mod p (unrolled; generated): masked final subtraction, no branch. */
export function fadd(r: usize, a: usize, b: usize): void {
  let v: u64 = 0, c: u64 = 0, bw: u64 = 0;
  v = <u64>load<u32>(a, 0) + <u64>load<u32>(b, 0); c = v >> 32; const s0 = v & M32;
  const d0 = s0 - 0xffffffff; bw = d0 >> 63;
  v = <u64>load<u32>(a, 4) + <u64>load<u32>(b, 4) + c; c = v >> 32; const s1 = v & M32;
  const d1 = s1 - 0xffffffff - bw; bw = d1 >> 63;
  v = <u64>load<u32>(a, 8) + <u64>load<u32>(b, 8) + c; c = v >> 32; const s2 = v & M32;
  const d2 = s2 - 0xffffffff - bw; bw = d2 >> 63;
  v = <u64>load<u32>(a, 12) + <u64>load<u32>(b, 12) + c; c = v >> 32; const s3 = v & M32;
  const d3 = s3 - bw; bw = d3 >> 63;
  v = <u64>load<u32>(a, 16) + <u64>load<u32>(b, 16) + c; c = v >> 32; const s4 = v & M32;
  const d4 = s4 - bw; bw = d4 >> 63;
  v = <u64>load<u32>(a, 20) + <u64>load<u32>(b, 20) + c; c = v >> 32; const s5 = v & M32;
  const d5 = s5 - bw; bw = d5 >> 63;
  v = <u64>load<u32>(a, 24) + <u64>load<u32>(b, 24) + c; c = v >> 32; const s6 = v & M32;
  const d6 = s6 - 0x1 - bw; bw = d6 >> 63;
  v = <u64>load<u32>(a, 28) + <u64>load<u32>(b, 28) + c; c = v >> 32; const s7 = v & M32;
  const d7 = s7 - 0xffffffff - bw; bw = d7 >> 63;
  // Keep the sum only when it is below p: no carry out and the subtraction borrowed.
  const keep = 0 - ((c - bw) >> 63);
  store<u32>(r, <u32>((s0 & keep) | (d0 & ~keep)), 0);
  store<u32>(r, <u32>((s1 & keep) | (d1 & ~keep)), 4);
  store<u32>(r, <u32>((s2 & keep) | (d2 & ~keep)), 8);
  store<u32>(r, <u32>((s3 & keep) | (d3 & ~keep)), 12);
  store<u32>(r, <u32>((s4 & keep) | (d4 & ~keep)), 16);
  store<u32>(r, <u32>((s5 & keep) | (d5 & ~keep)), 20);
  store<u32>(r, <u32>((s6 & keep) | (d6 & ~keep)), 24);
  store<u32>(r, <u32>((s7 & keep) | (d7 & ~keep)), 28);
}

/** r = a - b mod p (unrolled; generated): p added back under the borrow mask. */
export function fsub(r: usize, a: usize, b: usize): void {
  let v: u64 = 0, bw: u64 = 0, c: u64 = 0;
  const d0 = <u64>load<u32>(a, 0) - <u64>load<u32>(b, 0); bw = d0 >> 63;
  const d1 = <u64>load<u32>(a, 4) - <u64>load<u32>(b, 4) - bw; bw = d1 >> 63;
  const d2 = <u64>load<u32>(a, 8) - <u64>load<u32>(b, 8) - bw; bw = d2 >> 63;
  const d3 = <u64>load<u32>(a, 12) - <u64>load<u32>(b, 12) - bw; bw = d3 >> 63;
  const d4 = <u64>load<u32>(a, 16) - <u64>load<u32>(b, 16) - bw; bw = d4 >> 63;
  const d5 = <u64>load<u32>(a, 20) - <u64>load<u32>(b, 20) - bw; bw = d5 >> 63;
  const d6 = <u64>load<u32>(a, 24) - <u64>load<u32>(b, 24) - bw; bw = d6 >> 63;
  const d7 = <u64>load<u32>(a, 28) - <u64>load<u32>(b, 28) - bw; bw = d7 >> 63;
  const m = (0 - bw) & M32;
  v = (d0 & M32) + m; c = v >> 32; store<u32>(r, <u32>v, 0);
  v = (d1 & M32) + m + c; c = v >> 32; store<u32>(r, <u32>v, 4);
  v = (d2 & M32) + m + c; c = v >> 32; store<u32>(r, <u32>v, 8);
  v = (d3 & M32) + c; c = v >> 32; store<u32>(r, <u32>v, 12);
  v = (d4 & M32) + c; c = v >> 32; store<u32>(r, <u32>v, 16);
  v = (d5 & M32) + c; c = v >> 32; store<u32>(r, <u32>v, 20);
  v = (d6 & M32) + (m & 1) + c; c = v >> 32; store<u32>(r, <u32>v, 24);
  v = (d7 & M32) + m + c; c = v >> 32; store<u32>(r, <u32>v, 28);
}


/** r = mask ? b : a, for mask 0 or 0xffffffff; reads both, so the choice does not leak. */
// @ts-ignore: decorator
@inline export function fselect(r: usize, a: usize, b: usize, mask: u32): void {
  for (let i: usize = 0; i < 32; i += 4) {
    store<u32>(r + i, (load<u32>(a + i) & ~mask) | (load<u32>(b + i) & mask));
  }
}

export function fcopy(r: usize, a: usize): void {
  memory.copy(r, a, 32);
}

/** 0xffffffff when a == 0, else 0 (no branch on a). */
export function fIsZero(a: usize): u32 {
  let acc: u32 = 0;
  for (let i: usize = 0; i < 32; i += 4) acc |= load<u32>(a + i);
  return <u32>((<u64>acc - 1) >> 32);
}

/** 0xffffffff when a == b (fully reduced values compare limb-wise). */
export function fEq(a: usize, b: usize): u32 {
  let acc: u32 = 0;
  for (let i: usize = 0; i < 32; i += 4) acc |= load<u32>(a + i) ^ load<u32>(b + i);
  return <u32>((<u64>acc - 1) >> 32);
}

/** Reads 32 big-endian bytes as raw limbs; returns 1 when the value is below `mod`, else 0. */
export function rawFromBytes(r: usize, bytes: usize, mod: usize): u32 {
  let bw: u64 = 0;
  for (let i: usize = 0; i < 8; i++) {
    const w = bswap<u32>(load<u32>(bytes + 28 - 4 * i));
    store<u32>(r + 4 * i, w);
    bw = (<u64>w - <u64>load<u32>(mod + 4 * i) - bw) >> 63;
  }
  return <u32>bw;
}

/** Writes raw limbs as 32 big-endian bytes. */
export function rawToBytes(out: usize, a: usize): void {
  for (let i: usize = 0; i < 8; i++) store<u32>(out + 28 - 4 * i, bswap<u32>(load<u32>(a + 4 * i)));
}

/** Big-endian bytes -> Montgomery form; returns 1 when the value was < p (else r is garbage). */
export function fFromBytes(r: usize, bytes: usize): u32 {
  const ok = rawFromBytes(r, bytes, P);
  fmul(r, r, P_R2);
  return ok;
}

/** Montgomery form -> 32 big-endian bytes. */
export function fToBytes(out: usize, a: usize): void {
  fmul(T3, a, RAW_ONE);
  rawToBytes(out, T3);
}

/** r = a^(p-2) = 1/a (0 for a = 0). Fixed addition chain (12 mul, 255 sqr): constant-time.
 *  Chain from mmcloughlin/addchain as used by Go's crypto/internal/nistec. */
export function finv(r: usize, a: usize): void {
  const x3 = T0, x6 = T1, t = T2, x15 = T3;
  const x16 = memory.data(32), x32 = memory.data(32), x47 = memory.data(32), i53 = memory.data(32);
  fsqr(t, a); fmul(t, t, a);           // _11
  fsqr(t, t); fmul(x3, t, a);          // _111
  fsqrn(t, x3, 3); fmul(x6, t, x3);    // _111111
  fsqrn(t, x6, 6); fmul(t, t, x6);     // x12
  fsqrn(t, t, 3); fmul(x15, t, x3);    // x15
  fsqr(t, x15); fmul(x16, t, a);       // x16
  fsqrn(t, x16, 16); fmul(x32, t, x16); // x32
  fsqrn(i53, x32, 15);                 // i53
  fmul(x47, x15, i53);                 // x47
  fsqrn(t, i53, 17); fmul(t, t, a);
  fsqrn(t, t, 143); fmul(t, t, x47);
  fsqrn(t, t, 47);                     // i263
  fmul(t, t, x47);
  fsqrn(t, t, 2); fmul(r, t, a);
}
