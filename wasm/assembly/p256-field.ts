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

// BEGIN GENERATED fmul (wasm/tools/gen-p256-field.mjs; do not edit by hand)
// r = a*b / 2^256 mod p, inputs < p: column-sum product + sparse Montgomery reduction.
export function fmul(r: usize, a: usize, b: usize): void {
  const a0 = <u64>load<u32>(a, 0);
  const a1 = <u64>load<u32>(a, 4);
  const a2 = <u64>load<u32>(a, 8);
  const a3 = <u64>load<u32>(a, 12);
  const a4 = <u64>load<u32>(a, 16);
  const a5 = <u64>load<u32>(a, 20);
  const a6 = <u64>load<u32>(a, 24);
  const a7 = <u64>load<u32>(a, 28);
  let v: u64 = 0, c0: u64 = 0, bi: u64 = 0;
  bi = <u64>load<u32>(b, 0);
  v = a0 * bi; let u0: u64 = v & M32; c0 = v >> 32;
  v = a1 * bi + c0; let u1: u64 = v & M32; c0 = v >> 32;
  v = a2 * bi + c0; let u2: u64 = v & M32; c0 = v >> 32;
  v = a3 * bi + c0; let u3: u64 = v & M32; c0 = v >> 32;
  v = a4 * bi + c0; let u4: u64 = v & M32; c0 = v >> 32;
  v = a5 * bi + c0; let u5: u64 = v & M32; c0 = v >> 32;
  v = a6 * bi + c0; let u6: u64 = v & M32; c0 = v >> 32;
  v = a7 * bi + c0; let u7: u64 = v & M32; c0 = v >> 32;
  let u8: u64 = c0;
  bi = <u64>load<u32>(b, 4);
  v = u1 + a0 * bi; u1 = v & M32; c0 = v >> 32;
  v = u2 + a1 * bi + c0; u2 = v & M32; c0 = v >> 32;
  v = u3 + a2 * bi + c0; u3 = v & M32; c0 = v >> 32;
  v = u4 + a3 * bi + c0; u4 = v & M32; c0 = v >> 32;
  v = u5 + a4 * bi + c0; u5 = v & M32; c0 = v >> 32;
  v = u6 + a5 * bi + c0; u6 = v & M32; c0 = v >> 32;
  v = u7 + a6 * bi + c0; u7 = v & M32; c0 = v >> 32;
  v = u8 + a7 * bi + c0; u8 = v & M32; c0 = v >> 32;
  let u9: u64 = c0;
  bi = <u64>load<u32>(b, 8);
  v = u2 + a0 * bi; u2 = v & M32; c0 = v >> 32;
  v = u3 + a1 * bi + c0; u3 = v & M32; c0 = v >> 32;
  v = u4 + a2 * bi + c0; u4 = v & M32; c0 = v >> 32;
  v = u5 + a3 * bi + c0; u5 = v & M32; c0 = v >> 32;
  v = u6 + a4 * bi + c0; u6 = v & M32; c0 = v >> 32;
  v = u7 + a5 * bi + c0; u7 = v & M32; c0 = v >> 32;
  v = u8 + a6 * bi + c0; u8 = v & M32; c0 = v >> 32;
  v = u9 + a7 * bi + c0; u9 = v & M32; c0 = v >> 32;
  let u10: u64 = c0;
  bi = <u64>load<u32>(b, 12);
  v = u3 + a0 * bi; u3 = v & M32; c0 = v >> 32;
  v = u4 + a1 * bi + c0; u4 = v & M32; c0 = v >> 32;
  v = u5 + a2 * bi + c0; u5 = v & M32; c0 = v >> 32;
  v = u6 + a3 * bi + c0; u6 = v & M32; c0 = v >> 32;
  v = u7 + a4 * bi + c0; u7 = v & M32; c0 = v >> 32;
  v = u8 + a5 * bi + c0; u8 = v & M32; c0 = v >> 32;
  v = u9 + a6 * bi + c0; u9 = v & M32; c0 = v >> 32;
  v = u10 + a7 * bi + c0; u10 = v & M32; c0 = v >> 32;
  let u11: u64 = c0;
  bi = <u64>load<u32>(b, 16);
  v = u4 + a0 * bi; u4 = v & M32; c0 = v >> 32;
  v = u5 + a1 * bi + c0; u5 = v & M32; c0 = v >> 32;
  v = u6 + a2 * bi + c0; u6 = v & M32; c0 = v >> 32;
  v = u7 + a3 * bi + c0; u7 = v & M32; c0 = v >> 32;
  v = u8 + a4 * bi + c0; u8 = v & M32; c0 = v >> 32;
  v = u9 + a5 * bi + c0; u9 = v & M32; c0 = v >> 32;
  v = u10 + a6 * bi + c0; u10 = v & M32; c0 = v >> 32;
  v = u11 + a7 * bi + c0; u11 = v & M32; c0 = v >> 32;
  let u12: u64 = c0;
  bi = <u64>load<u32>(b, 20);
  v = u5 + a0 * bi; u5 = v & M32; c0 = v >> 32;
  v = u6 + a1 * bi + c0; u6 = v & M32; c0 = v >> 32;
  v = u7 + a2 * bi + c0; u7 = v & M32; c0 = v >> 32;
  v = u8 + a3 * bi + c0; u8 = v & M32; c0 = v >> 32;
  v = u9 + a4 * bi + c0; u9 = v & M32; c0 = v >> 32;
  v = u10 + a5 * bi + c0; u10 = v & M32; c0 = v >> 32;
  v = u11 + a6 * bi + c0; u11 = v & M32; c0 = v >> 32;
  v = u12 + a7 * bi + c0; u12 = v & M32; c0 = v >> 32;
  let u13: u64 = c0;
  bi = <u64>load<u32>(b, 24);
  v = u6 + a0 * bi; u6 = v & M32; c0 = v >> 32;
  v = u7 + a1 * bi + c0; u7 = v & M32; c0 = v >> 32;
  v = u8 + a2 * bi + c0; u8 = v & M32; c0 = v >> 32;
  v = u9 + a3 * bi + c0; u9 = v & M32; c0 = v >> 32;
  v = u10 + a4 * bi + c0; u10 = v & M32; c0 = v >> 32;
  v = u11 + a5 * bi + c0; u11 = v & M32; c0 = v >> 32;
  v = u12 + a6 * bi + c0; u12 = v & M32; c0 = v >> 32;
  v = u13 + a7 * bi + c0; u13 = v & M32; c0 = v >> 32;
  let u14: u64 = c0;
  bi = <u64>load<u32>(b, 28);
  v = u7 + a0 * bi; u7 = v & M32; c0 = v >> 32;
  v = u8 + a1 * bi + c0; u8 = v & M32; c0 = v >> 32;
  v = u9 + a2 * bi + c0; u9 = v & M32; c0 = v >> 32;
  v = u10 + a3 * bi + c0; u10 = v & M32; c0 = v >> 32;
  v = u11 + a4 * bi + c0; u11 = v & M32; c0 = v >> 32;
  v = u12 + a5 * bi + c0; u12 = v & M32; c0 = v >> 32;
  v = u13 + a6 * bi + c0; u13 = v & M32; c0 = v >> 32;
  v = u14 + a7 * bi + c0; u14 = v & M32; c0 = v >> 32;
  let u15: u64 = c0;
  let w0: i64 = <i64>u0;
  let w1: i64 = <i64>u1;
  let w2: i64 = <i64>u2;
  let w3: i64 = <i64>u3;
  let w4: i64 = <i64>u4;
  let w5: i64 = <i64>u5;
  let w6: i64 = <i64>u6;
  let w7: i64 = <i64>u7;
  let w8: i64 = <i64>u8;
  let w9: i64 = <i64>u9;
  let w10: i64 = <i64>u10;
  let w11: i64 = <i64>u11;
  let w12: i64 = <i64>u12;
  let w13: i64 = <i64>u13;
  let w14: i64 = <i64>u14;
  let w15: i64 = <i64>u15;
  let c: i64 = 0, q: i64 = 0;
  w0 += c; q = w0 & <i64>M32; c = w0 >> 32;
  w3 += q; w6 += q; w7 -= q; w8 += q;
  w1 += c; q = w1 & <i64>M32; c = w1 >> 32;
  w4 += q; w7 += q; w8 -= q; w9 += q;
  w2 += c; q = w2 & <i64>M32; c = w2 >> 32;
  w5 += q; w8 += q; w9 -= q; w10 += q;
  w3 += c; q = w3 & <i64>M32; c = w3 >> 32;
  w6 += q; w9 += q; w10 -= q; w11 += q;
  w4 += c; q = w4 & <i64>M32; c = w4 >> 32;
  w7 += q; w10 += q; w11 -= q; w12 += q;
  w5 += c; q = w5 & <i64>M32; c = w5 >> 32;
  w8 += q; w11 += q; w12 -= q; w13 += q;
  w6 += c; q = w6 & <i64>M32; c = w6 >> 32;
  w9 += q; w12 += q; w13 -= q; w14 += q;
  w7 += c; q = w7 & <i64>M32; c = w7 >> 32;
  w10 += q; w13 += q; w14 -= q; w15 += q;
  w8 += c; c = w8 >> 32; const t0 = <u64>(w8 & <i64>M32);
  w9 += c; c = w9 >> 32; const t1 = <u64>(w9 & <i64>M32);
  w10 += c; c = w10 >> 32; const t2 = <u64>(w10 & <i64>M32);
  w11 += c; c = w11 >> 32; const t3 = <u64>(w11 & <i64>M32);
  w12 += c; c = w12 >> 32; const t4 = <u64>(w12 & <i64>M32);
  w13 += c; c = w13 >> 32; const t5 = <u64>(w13 & <i64>M32);
  w14 += c; c = w14 >> 32; const t6 = <u64>(w14 & <i64>M32);
  w15 += c; c = w15 >> 32; const t7 = <u64>(w15 & <i64>M32);
  const t8 = <u64>c; // value t8:t7..t0 is below 2p
  const d0 = t0 - 0xffffffff; let bw = d0 >> 63;
  const d1 = t1 - 0xffffffff - bw; bw = d1 >> 63;
  const d2 = t2 - 0xffffffff - bw; bw = d2 >> 63;
  const d3 = t3 - 0x0 - bw; bw = d3 >> 63;
  const d4 = t4 - 0x0 - bw; bw = d4 >> 63;
  const d5 = t5 - 0x0 - bw; bw = d5 >> 63;
  const d6 = t6 - 0x1 - bw; bw = d6 >> 63;
  const d7 = t7 - 0xffffffff - bw; bw = d7 >> 63;
  const keep = 0 - ((t8 - bw) >> 63); // all ones when the value is below p
  store<u32>(r, <u32>((t0 & keep) | (d0 & ~keep)), 0);
  store<u32>(r, <u32>((t1 & keep) | (d1 & ~keep)), 4);
  store<u32>(r, <u32>((t2 & keep) | (d2 & ~keep)), 8);
  store<u32>(r, <u32>((t3 & keep) | (d3 & ~keep)), 12);
  store<u32>(r, <u32>((t4 & keep) | (d4 & ~keep)), 16);
  store<u32>(r, <u32>((t5 & keep) | (d5 & ~keep)), 20);
  store<u32>(r, <u32>((t6 & keep) | (d6 & ~keep)), 24);
  store<u32>(r, <u32>((t7 & keep) | (d7 & ~keep)), 28);
}
// END GENERATED fmul

// BEGIN GENERATED fsqr (wasm/tools/gen-p256-field.mjs; do not edit by hand)
// r = a^2 / 2^256 mod p, inputs < p: column-sum product + sparse Montgomery reduction.
export function fsqr(r: usize, a: usize): void {
  const a0 = <u64>load<u32>(a, 0);
  const a1 = <u64>load<u32>(a, 4);
  const a2 = <u64>load<u32>(a, 8);
  const a3 = <u64>load<u32>(a, 12);
  const a4 = <u64>load<u32>(a, 16);
  const a5 = <u64>load<u32>(a, 20);
  const a6 = <u64>load<u32>(a, 24);
  const a7 = <u64>load<u32>(a, 28);
  let m: u64 = 0, lo: u64 = 0, hi: u64 = 0, hiPrev: u64 = 0, dlo: u64 = 0, dhi: u64 = 0, dhiPrev: u64 = 0;
  lo = 0; hi = 0;
  m = a0 * a0; dlo = m & M32; dhi = m >> 32;
  let w0: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a1; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w1: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a2; lo += m & M32; hi += m >> 32;
  m = a1 * a1; dlo = m & M32; dhi = m >> 32;
  let w2: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a3; lo += m & M32; hi += m >> 32;
  m = a1 * a2; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w3: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a4; lo += m & M32; hi += m >> 32;
  m = a1 * a3; lo += m & M32; hi += m >> 32;
  m = a2 * a2; dlo = m & M32; dhi = m >> 32;
  let w4: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a5; lo += m & M32; hi += m >> 32;
  m = a1 * a4; lo += m & M32; hi += m >> 32;
  m = a2 * a3; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w5: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a6; lo += m & M32; hi += m >> 32;
  m = a1 * a5; lo += m & M32; hi += m >> 32;
  m = a2 * a4; lo += m & M32; hi += m >> 32;
  m = a3 * a3; dlo = m & M32; dhi = m >> 32;
  let w6: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a7; lo += m & M32; hi += m >> 32;
  m = a1 * a6; lo += m & M32; hi += m >> 32;
  m = a2 * a5; lo += m & M32; hi += m >> 32;
  m = a3 * a4; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w7: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a1 * a7; lo += m & M32; hi += m >> 32;
  m = a2 * a6; lo += m & M32; hi += m >> 32;
  m = a3 * a5; lo += m & M32; hi += m >> 32;
  m = a4 * a4; dlo = m & M32; dhi = m >> 32;
  let w8: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a2 * a7; lo += m & M32; hi += m >> 32;
  m = a3 * a6; lo += m & M32; hi += m >> 32;
  m = a4 * a5; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w9: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a3 * a7; lo += m & M32; hi += m >> 32;
  m = a4 * a6; lo += m & M32; hi += m >> 32;
  m = a5 * a5; dlo = m & M32; dhi = m >> 32;
  let w10: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a4 * a7; lo += m & M32; hi += m >> 32;
  m = a5 * a6; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w11: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a5 * a7; lo += m & M32; hi += m >> 32;
  m = a6 * a6; dlo = m & M32; dhi = m >> 32;
  let w12: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a6 * a7; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w13: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a7 * a7; dlo = m & M32; dhi = m >> 32;
  let w14: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  dlo = 0; dhi = 0;
  let w15: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;
  let c: i64 = 0, q: i64 = 0;
  w0 += c; q = w0 & <i64>M32; c = w0 >> 32;
  w3 += q; w6 += q; w7 -= q; w8 += q;
  w1 += c; q = w1 & <i64>M32; c = w1 >> 32;
  w4 += q; w7 += q; w8 -= q; w9 += q;
  w2 += c; q = w2 & <i64>M32; c = w2 >> 32;
  w5 += q; w8 += q; w9 -= q; w10 += q;
  w3 += c; q = w3 & <i64>M32; c = w3 >> 32;
  w6 += q; w9 += q; w10 -= q; w11 += q;
  w4 += c; q = w4 & <i64>M32; c = w4 >> 32;
  w7 += q; w10 += q; w11 -= q; w12 += q;
  w5 += c; q = w5 & <i64>M32; c = w5 >> 32;
  w8 += q; w11 += q; w12 -= q; w13 += q;
  w6 += c; q = w6 & <i64>M32; c = w6 >> 32;
  w9 += q; w12 += q; w13 -= q; w14 += q;
  w7 += c; q = w7 & <i64>M32; c = w7 >> 32;
  w10 += q; w13 += q; w14 -= q; w15 += q;
  w8 += c; c = w8 >> 32; const t0 = <u64>(w8 & <i64>M32);
  w9 += c; c = w9 >> 32; const t1 = <u64>(w9 & <i64>M32);
  w10 += c; c = w10 >> 32; const t2 = <u64>(w10 & <i64>M32);
  w11 += c; c = w11 >> 32; const t3 = <u64>(w11 & <i64>M32);
  w12 += c; c = w12 >> 32; const t4 = <u64>(w12 & <i64>M32);
  w13 += c; c = w13 >> 32; const t5 = <u64>(w13 & <i64>M32);
  w14 += c; c = w14 >> 32; const t6 = <u64>(w14 & <i64>M32);
  w15 += c; c = w15 >> 32; const t7 = <u64>(w15 & <i64>M32);
  const t8 = <u64>c; // value t8:t7..t0 is below 2p
  const d0 = t0 - 0xffffffff; let bw = d0 >> 63;
  const d1 = t1 - 0xffffffff - bw; bw = d1 >> 63;
  const d2 = t2 - 0xffffffff - bw; bw = d2 >> 63;
  const d3 = t3 - 0x0 - bw; bw = d3 >> 63;
  const d4 = t4 - 0x0 - bw; bw = d4 >> 63;
  const d5 = t5 - 0x0 - bw; bw = d5 >> 63;
  const d6 = t6 - 0x1 - bw; bw = d6 >> 63;
  const d7 = t7 - 0xffffffff - bw; bw = d7 >> 63;
  const keep = 0 - ((t8 - bw) >> 63); // all ones when the value is below p
  store<u32>(r, <u32>((t0 & keep) | (d0 & ~keep)), 0);
  store<u32>(r, <u32>((t1 & keep) | (d1 & ~keep)), 4);
  store<u32>(r, <u32>((t2 & keep) | (d2 & ~keep)), 8);
  store<u32>(r, <u32>((t3 & keep) | (d3 & ~keep)), 12);
  store<u32>(r, <u32>((t4 & keep) | (d4 & ~keep)), 16);
  store<u32>(r, <u32>((t5 & keep) | (d5 & ~keep)), 20);
  store<u32>(r, <u32>((t6 & keep) | (d6 & ~keep)), 24);
  store<u32>(r, <u32>((t7 & keep) | (d7 & ~keep)), 28);
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


/** r = k*a mod p for a small public k (k <= 8), in one pass: the ninth limb h of k*a folds back
 *  with 2^256 = 2^224 - 2^192 - 2^96 + 1 (mod p) on signed i64 limbs; the sum is below 2p, so one
 *  masked subtraction of p finishes. Straight-line in a (constant-time). Replaces chains of fadd. */
export function fmulSmall(r: usize, a: usize, k: u32): void {
  const kk = <u64>k;
  let v: u64 = 0;
  v = <u64>load<u32>(a, 0) * kk; let l0 = v & M32;
  v = <u64>load<u32>(a, 4) * kk + (v >> 32); let l1 = v & M32;
  v = <u64>load<u32>(a, 8) * kk + (v >> 32); let l2 = v & M32;
  v = <u64>load<u32>(a, 12) * kk + (v >> 32); let l3 = v & M32;
  v = <u64>load<u32>(a, 16) * kk + (v >> 32); let l4 = v & M32;
  v = <u64>load<u32>(a, 20) * kk + (v >> 32); let l5 = v & M32;
  v = <u64>load<u32>(a, 24) * kk + (v >> 32); let l6 = v & M32;
  v = <u64>load<u32>(a, 28) * kk + (v >> 32); let l7 = v & M32;
  const h = <i64>(v >> 32);
  let w: i64 = 0;
  w = <i64>l0 + h; const s0 = <u64>w & M32; w >>= 32;
  w += <i64>l1; const s1 = <u64>w & M32; w >>= 32;
  w += <i64>l2; const s2 = <u64>w & M32; w >>= 32;
  w += <i64>l3 - h; const s3 = <u64>w & M32; w >>= 32;
  w += <i64>l4; const s4 = <u64>w & M32; w >>= 32;
  w += <i64>l5; const s5 = <u64>w & M32; w >>= 32;
  w += <i64>l6 - h; const s6 = <u64>w & M32; w >>= 32;
  w += <i64>l7 + h; const s7 = <u64>w & M32; w >>= 32;
  const c = <u64>w; // 0 or 1: the value c:s7..s0 is below 2^256 + 2^227 < 2p
  const d0 = s0 - 0xffffffff; let bw = d0 >> 63;
  const d1 = s1 - 0xffffffff - bw; bw = d1 >> 63;
  const d2 = s2 - 0xffffffff - bw; bw = d2 >> 63;
  const d3 = s3 - bw; bw = d3 >> 63;
  const d4 = s4 - bw; bw = d4 >> 63;
  const d5 = s5 - bw; bw = d5 >> 63;
  const d6 = s6 - 1 - bw; bw = d6 >> 63;
  const d7 = s7 - 0xffffffff - bw; bw = d7 >> 63;
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
