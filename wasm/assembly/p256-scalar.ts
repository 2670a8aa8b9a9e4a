// Arithmetic modulo the P-256 group order n, in Montgomery form (8 little-endian u32 limbs).
// Used for ECDSA's s = k^-1 (e + r d): few operations per signature, so only the multiplication
// is unrolled. Constant-time: straight-line code and masked corrections throughout; the
// inversion exponent (n - 2) is public, so its fixed window schedule leaks nothing about k.
import { rawFromBytes, rawToBytes } from './p256-field';

// @ts-ignore: decorator
@inline const M32: u64 = 0xffffffff;

export const N = memory.data<u32>([0xfc632551, 0xf3b9cac2, 0xa7179e84, 0xbce6faad, 0xffffffff, 0xffffffff, 0x0, 0xffffffff]);
const N_R2 = memory.data<u32>([0xbe79eea2, 0x83244c95, 0x49bd6fa6, 0x4699799c, 0x2b6bec59, 0x2845b239, 0xf3d95620, 0x66e12d94]);
/** 1 in Montgomery form (2^256 mod n). */
export const N_ONE = memory.data<u32>([0x39cdaaf, 0xc46353d, 0x58e8617b, 0x43190552, 0x0, 0x0, 0xffffffff, 0x0]);
/** n - 2, the Fermat inversion exponent, as big-endian bytes. */
const N_MINUS_2 = memory.data<u8>([
  0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
  0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x4f]);
const RAW_ONE = memory.data<u32>([1, 0, 0, 0, 0, 0, 0, 0]);
const S0 = memory.data(32);
const TABLE = memory.data(32 * 16);

// BEGIN GENERATED nmul (wasm/tools/gen-p256-scalar.mjs; do not edit by hand)
// r = a*b / 2^256 mod n, inputs < n: straight-line (constant-time).
export function nmul(r: usize, a: usize, b: usize): void {
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
  v = a0 * bi; let w0: u64 = v & M32; c0 = v >> 32;
  v = a1 * bi + c0; let w1: u64 = v & M32; c0 = v >> 32;
  v = a2 * bi + c0; let w2: u64 = v & M32; c0 = v >> 32;
  v = a3 * bi + c0; let w3: u64 = v & M32; c0 = v >> 32;
  v = a4 * bi + c0; let w4: u64 = v & M32; c0 = v >> 32;
  v = a5 * bi + c0; let w5: u64 = v & M32; c0 = v >> 32;
  v = a6 * bi + c0; let w6: u64 = v & M32; c0 = v >> 32;
  v = a7 * bi + c0; let w7: u64 = v & M32; c0 = v >> 32;
  let w8: u64 = c0;
  bi = <u64>load<u32>(b, 4);
  v = w1 + a0 * bi; w1 = v & M32; c0 = v >> 32;
  v = w2 + a1 * bi + c0; w2 = v & M32; c0 = v >> 32;
  v = w3 + a2 * bi + c0; w3 = v & M32; c0 = v >> 32;
  v = w4 + a3 * bi + c0; w4 = v & M32; c0 = v >> 32;
  v = w5 + a4 * bi + c0; w5 = v & M32; c0 = v >> 32;
  v = w6 + a5 * bi + c0; w6 = v & M32; c0 = v >> 32;
  v = w7 + a6 * bi + c0; w7 = v & M32; c0 = v >> 32;
  v = w8 + a7 * bi + c0; w8 = v & M32; c0 = v >> 32;
  let w9: u64 = c0;
  bi = <u64>load<u32>(b, 8);
  v = w2 + a0 * bi; w2 = v & M32; c0 = v >> 32;
  v = w3 + a1 * bi + c0; w3 = v & M32; c0 = v >> 32;
  v = w4 + a2 * bi + c0; w4 = v & M32; c0 = v >> 32;
  v = w5 + a3 * bi + c0; w5 = v & M32; c0 = v >> 32;
  v = w6 + a4 * bi + c0; w6 = v & M32; c0 = v >> 32;
  v = w7 + a5 * bi + c0; w7 = v & M32; c0 = v >> 32;
  v = w8 + a6 * bi + c0; w8 = v & M32; c0 = v >> 32;
  v = w9 + a7 * bi + c0; w9 = v & M32; c0 = v >> 32;
  let w10: u64 = c0;
  bi = <u64>load<u32>(b, 12);
  v = w3 + a0 * bi; w3 = v & M32; c0 = v >> 32;
  v = w4 + a1 * bi + c0; w4 = v & M32; c0 = v >> 32;
  v = w5 + a2 * bi + c0; w5 = v & M32; c0 = v >> 32;
  v = w6 + a3 * bi + c0; w6 = v & M32; c0 = v >> 32;
  v = w7 + a4 * bi + c0; w7 = v & M32; c0 = v >> 32;
  v = w8 + a5 * bi + c0; w8 = v & M32; c0 = v >> 32;
  v = w9 + a6 * bi + c0; w9 = v & M32; c0 = v >> 32;
  v = w10 + a7 * bi + c0; w10 = v & M32; c0 = v >> 32;
  let w11: u64 = c0;
  bi = <u64>load<u32>(b, 16);
  v = w4 + a0 * bi; w4 = v & M32; c0 = v >> 32;
  v = w5 + a1 * bi + c0; w5 = v & M32; c0 = v >> 32;
  v = w6 + a2 * bi + c0; w6 = v & M32; c0 = v >> 32;
  v = w7 + a3 * bi + c0; w7 = v & M32; c0 = v >> 32;
  v = w8 + a4 * bi + c0; w8 = v & M32; c0 = v >> 32;
  v = w9 + a5 * bi + c0; w9 = v & M32; c0 = v >> 32;
  v = w10 + a6 * bi + c0; w10 = v & M32; c0 = v >> 32;
  v = w11 + a7 * bi + c0; w11 = v & M32; c0 = v >> 32;
  let w12: u64 = c0;
  bi = <u64>load<u32>(b, 20);
  v = w5 + a0 * bi; w5 = v & M32; c0 = v >> 32;
  v = w6 + a1 * bi + c0; w6 = v & M32; c0 = v >> 32;
  v = w7 + a2 * bi + c0; w7 = v & M32; c0 = v >> 32;
  v = w8 + a3 * bi + c0; w8 = v & M32; c0 = v >> 32;
  v = w9 + a4 * bi + c0; w9 = v & M32; c0 = v >> 32;
  v = w10 + a5 * bi + c0; w10 = v & M32; c0 = v >> 32;
  v = w11 + a6 * bi + c0; w11 = v & M32; c0 = v >> 32;
  v = w12 + a7 * bi + c0; w12 = v & M32; c0 = v >> 32;
  let w13: u64 = c0;
  bi = <u64>load<u32>(b, 24);
  v = w6 + a0 * bi; w6 = v & M32; c0 = v >> 32;
  v = w7 + a1 * bi + c0; w7 = v & M32; c0 = v >> 32;
  v = w8 + a2 * bi + c0; w8 = v & M32; c0 = v >> 32;
  v = w9 + a3 * bi + c0; w9 = v & M32; c0 = v >> 32;
  v = w10 + a4 * bi + c0; w10 = v & M32; c0 = v >> 32;
  v = w11 + a5 * bi + c0; w11 = v & M32; c0 = v >> 32;
  v = w12 + a6 * bi + c0; w12 = v & M32; c0 = v >> 32;
  v = w13 + a7 * bi + c0; w13 = v & M32; c0 = v >> 32;
  let w14: u64 = c0;
  bi = <u64>load<u32>(b, 28);
  v = w7 + a0 * bi; w7 = v & M32; c0 = v >> 32;
  v = w8 + a1 * bi + c0; w8 = v & M32; c0 = v >> 32;
  v = w9 + a2 * bi + c0; w9 = v & M32; c0 = v >> 32;
  v = w10 + a3 * bi + c0; w10 = v & M32; c0 = v >> 32;
  v = w11 + a4 * bi + c0; w11 = v & M32; c0 = v >> 32;
  v = w12 + a5 * bi + c0; w12 = v & M32; c0 = v >> 32;
  v = w13 + a6 * bi + c0; w13 = v & M32; c0 = v >> 32;
  v = w14 + a7 * bi + c0; w14 = v & M32; c0 = v >> 32;
  let w15: u64 = c0;
  let s0: i64 = <i64>w0;
  let s1: i64 = <i64>w1;
  let s2: i64 = <i64>w2;
  let s3: i64 = <i64>w3;
  let s4: i64 = <i64>w4;
  let s5: i64 = <i64>w5;
  let s6: i64 = <i64>w6;
  let s7: i64 = <i64>w7;
  let s8: i64 = <i64>w8;
  let s9: i64 = <i64>w9;
  let s10: i64 = <i64>w10;
  let s11: i64 = <i64>w11;
  let s12: i64 = <i64>w12;
  let s13: i64 = <i64>w13;
  let s14: i64 = <i64>w14;
  let s15: i64 = <i64>w15;
  let q: i64 = 0, p: i64 = 0;
  q = (s0 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s0 += p & <i64>M32; s1 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s1 += p & <i64>M32; s2 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s2 += p & <i64>M32; s3 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s3 += p & <i64>M32; s4 += <i64>(<u64>p >> 32);
  s4 -= q; s5 += q;
  s5 -= q; s6 += q;
  s7 -= q; s8 += q;
  s1 += s0 >> 32;
  q = (s1 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s1 += p & <i64>M32; s2 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s2 += p & <i64>M32; s3 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s3 += p & <i64>M32; s4 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s4 += p & <i64>M32; s5 += <i64>(<u64>p >> 32);
  s5 -= q; s6 += q;
  s6 -= q; s7 += q;
  s8 -= q; s9 += q;
  s2 += s1 >> 32;
  q = (s2 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s2 += p & <i64>M32; s3 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s3 += p & <i64>M32; s4 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s4 += p & <i64>M32; s5 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s5 += p & <i64>M32; s6 += <i64>(<u64>p >> 32);
  s6 -= q; s7 += q;
  s7 -= q; s8 += q;
  s9 -= q; s10 += q;
  s3 += s2 >> 32;
  q = (s3 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s3 += p & <i64>M32; s4 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s4 += p & <i64>M32; s5 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s5 += p & <i64>M32; s6 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s6 += p & <i64>M32; s7 += <i64>(<u64>p >> 32);
  s7 -= q; s8 += q;
  s8 -= q; s9 += q;
  s10 -= q; s11 += q;
  s4 += s3 >> 32;
  q = (s4 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s4 += p & <i64>M32; s5 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s5 += p & <i64>M32; s6 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s6 += p & <i64>M32; s7 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s7 += p & <i64>M32; s8 += <i64>(<u64>p >> 32);
  s8 -= q; s9 += q;
  s9 -= q; s10 += q;
  s11 -= q; s12 += q;
  s5 += s4 >> 32;
  q = (s5 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s5 += p & <i64>M32; s6 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s6 += p & <i64>M32; s7 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s7 += p & <i64>M32; s8 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s8 += p & <i64>M32; s9 += <i64>(<u64>p >> 32);
  s9 -= q; s10 += q;
  s10 -= q; s11 += q;
  s12 -= q; s13 += q;
  s6 += s5 >> 32;
  q = (s6 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s6 += p & <i64>M32; s7 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s7 += p & <i64>M32; s8 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s8 += p & <i64>M32; s9 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s9 += p & <i64>M32; s10 += <i64>(<u64>p >> 32);
  s10 -= q; s11 += q;
  s11 -= q; s12 += q;
  s13 -= q; s14 += q;
  s7 += s6 >> 32;
  q = (s7 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s7 += p & <i64>M32; s8 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s8 += p & <i64>M32; s9 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s9 += p & <i64>M32; s10 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s10 += p & <i64>M32; s11 += <i64>(<u64>p >> 32);
  s11 -= q; s12 += q;
  s12 -= q; s13 += q;
  s14 -= q; s15 += q;
  s8 += s7 >> 32;
  s9 += s8 >> 32; const t0 = <u64>(s8 & <i64>M32);
  s10 += s9 >> 32; const t1 = <u64>(s9 & <i64>M32);
  s11 += s10 >> 32; const t2 = <u64>(s10 & <i64>M32);
  s12 += s11 >> 32; const t3 = <u64>(s11 & <i64>M32);
  s13 += s12 >> 32; const t4 = <u64>(s12 & <i64>M32);
  s14 += s13 >> 32; const t5 = <u64>(s13 & <i64>M32);
  s15 += s14 >> 32; const t6 = <u64>(s14 & <i64>M32);
  const t7 = <u64>(s15 & <i64>M32), t8 = <u64>(s15 >> 32); // value t8:t7..t0 is below 2n
  const d0 = t0 - 0xfc632551; let bw = d0 >> 63;
  const d1 = t1 - 0xf3b9cac2 - bw; bw = d1 >> 63;
  const d2 = t2 - 0xa7179e84 - bw; bw = d2 >> 63;
  const d3 = t3 - 0xbce6faad - bw; bw = d3 >> 63;
  const d4 = t4 - 0xffffffff - bw; bw = d4 >> 63;
  const d5 = t5 - 0xffffffff - bw; bw = d5 >> 63;
  const d6 = t6 - 0x0 - bw; bw = d6 >> 63;
  const d7 = t7 - 0xffffffff - bw; bw = d7 >> 63;
  const keep = 0 - ((t8 - bw) >> 63); // all ones when the value is below n
  store<u32>(r, <u32>((t0 & keep) | (d0 & ~keep)), 0);
  store<u32>(r, <u32>((t1 & keep) | (d1 & ~keep)), 4);
  store<u32>(r, <u32>((t2 & keep) | (d2 & ~keep)), 8);
  store<u32>(r, <u32>((t3 & keep) | (d3 & ~keep)), 12);
  store<u32>(r, <u32>((t4 & keep) | (d4 & ~keep)), 16);
  store<u32>(r, <u32>((t5 & keep) | (d5 & ~keep)), 20);
  store<u32>(r, <u32>((t6 & keep) | (d6 & ~keep)), 24);
  store<u32>(r, <u32>((t7 & keep) | (d7 & ~keep)), 28);
}
// END GENERATED nmul

// BEGIN GENERATED nsqr (wasm/tools/gen-p256-scalar.mjs; do not edit by hand)
// r = a^2 / 2^256 mod n, inputs < n: straight-line (constant-time).
export function nsqr(r: usize, a: usize): void {
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
  let w0: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a1; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w1: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a2; lo += m & M32; hi += m >> 32;
  m = a1 * a1; dlo = m & M32; dhi = m >> 32;
  let w2: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a3; lo += m & M32; hi += m >> 32;
  m = a1 * a2; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w3: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a4; lo += m & M32; hi += m >> 32;
  m = a1 * a3; lo += m & M32; hi += m >> 32;
  m = a2 * a2; dlo = m & M32; dhi = m >> 32;
  let w4: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a5; lo += m & M32; hi += m >> 32;
  m = a1 * a4; lo += m & M32; hi += m >> 32;
  m = a2 * a3; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w5: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a6; lo += m & M32; hi += m >> 32;
  m = a1 * a5; lo += m & M32; hi += m >> 32;
  m = a2 * a4; lo += m & M32; hi += m >> 32;
  m = a3 * a3; dlo = m & M32; dhi = m >> 32;
  let w6: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a0 * a7; lo += m & M32; hi += m >> 32;
  m = a1 * a6; lo += m & M32; hi += m >> 32;
  m = a2 * a5; lo += m & M32; hi += m >> 32;
  m = a3 * a4; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w7: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a1 * a7; lo += m & M32; hi += m >> 32;
  m = a2 * a6; lo += m & M32; hi += m >> 32;
  m = a3 * a5; lo += m & M32; hi += m >> 32;
  m = a4 * a4; dlo = m & M32; dhi = m >> 32;
  let w8: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a2 * a7; lo += m & M32; hi += m >> 32;
  m = a3 * a6; lo += m & M32; hi += m >> 32;
  m = a4 * a5; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w9: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a3 * a7; lo += m & M32; hi += m >> 32;
  m = a4 * a6; lo += m & M32; hi += m >> 32;
  m = a5 * a5; dlo = m & M32; dhi = m >> 32;
  let w10: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a4 * a7; lo += m & M32; hi += m >> 32;
  m = a5 * a6; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w11: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a5 * a7; lo += m & M32; hi += m >> 32;
  m = a6 * a6; dlo = m & M32; dhi = m >> 32;
  let w12: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a6 * a7; lo += m & M32; hi += m >> 32;
  dlo = 0; dhi = 0;
  let w13: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  m = a7 * a7; dlo = m & M32; dhi = m >> 32;
  let w14: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  lo = 0; hi = 0;
  dlo = 0; dhi = 0;
  let w15: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;
  let s0: i64 = <i64>w0;
  let s1: i64 = <i64>w1;
  let s2: i64 = <i64>w2;
  let s3: i64 = <i64>w3;
  let s4: i64 = <i64>w4;
  let s5: i64 = <i64>w5;
  let s6: i64 = <i64>w6;
  let s7: i64 = <i64>w7;
  let s8: i64 = <i64>w8;
  let s9: i64 = <i64>w9;
  let s10: i64 = <i64>w10;
  let s11: i64 = <i64>w11;
  let s12: i64 = <i64>w12;
  let s13: i64 = <i64>w13;
  let s14: i64 = <i64>w14;
  let s15: i64 = <i64>w15;
  let q: i64 = 0, p: i64 = 0;
  q = (s0 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s0 += p & <i64>M32; s1 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s1 += p & <i64>M32; s2 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s2 += p & <i64>M32; s3 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s3 += p & <i64>M32; s4 += <i64>(<u64>p >> 32);
  s4 -= q; s5 += q;
  s5 -= q; s6 += q;
  s7 -= q; s8 += q;
  s1 += s0 >> 32;
  q = (s1 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s1 += p & <i64>M32; s2 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s2 += p & <i64>M32; s3 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s3 += p & <i64>M32; s4 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s4 += p & <i64>M32; s5 += <i64>(<u64>p >> 32);
  s5 -= q; s6 += q;
  s6 -= q; s7 += q;
  s8 -= q; s9 += q;
  s2 += s1 >> 32;
  q = (s2 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s2 += p & <i64>M32; s3 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s3 += p & <i64>M32; s4 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s4 += p & <i64>M32; s5 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s5 += p & <i64>M32; s6 += <i64>(<u64>p >> 32);
  s6 -= q; s7 += q;
  s7 -= q; s8 += q;
  s9 -= q; s10 += q;
  s3 += s2 >> 32;
  q = (s3 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s3 += p & <i64>M32; s4 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s4 += p & <i64>M32; s5 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s5 += p & <i64>M32; s6 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s6 += p & <i64>M32; s7 += <i64>(<u64>p >> 32);
  s7 -= q; s8 += q;
  s8 -= q; s9 += q;
  s10 -= q; s11 += q;
  s4 += s3 >> 32;
  q = (s4 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s4 += p & <i64>M32; s5 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s5 += p & <i64>M32; s6 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s6 += p & <i64>M32; s7 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s7 += p & <i64>M32; s8 += <i64>(<u64>p >> 32);
  s8 -= q; s9 += q;
  s9 -= q; s10 += q;
  s11 -= q; s12 += q;
  s5 += s4 >> 32;
  q = (s5 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s5 += p & <i64>M32; s6 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s6 += p & <i64>M32; s7 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s7 += p & <i64>M32; s8 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s8 += p & <i64>M32; s9 += <i64>(<u64>p >> 32);
  s9 -= q; s10 += q;
  s10 -= q; s11 += q;
  s12 -= q; s13 += q;
  s6 += s5 >> 32;
  q = (s6 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s6 += p & <i64>M32; s7 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s7 += p & <i64>M32; s8 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s8 += p & <i64>M32; s9 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s9 += p & <i64>M32; s10 += <i64>(<u64>p >> 32);
  s10 -= q; s11 += q;
  s11 -= q; s12 += q;
  s13 -= q; s14 += q;
  s7 += s6 >> 32;
  q = (s7 * 0xee00bc4f) & <i64>M32;
  p = q * 0xfc632551; s7 += p & <i64>M32; s8 += <i64>(<u64>p >> 32);
  p = q * 0xf3b9cac2; s8 += p & <i64>M32; s9 += <i64>(<u64>p >> 32);
  p = q * 0xa7179e84; s9 += p & <i64>M32; s10 += <i64>(<u64>p >> 32);
  p = q * 0xbce6faad; s10 += p & <i64>M32; s11 += <i64>(<u64>p >> 32);
  s11 -= q; s12 += q;
  s12 -= q; s13 += q;
  s14 -= q; s15 += q;
  s8 += s7 >> 32;
  s9 += s8 >> 32; const t0 = <u64>(s8 & <i64>M32);
  s10 += s9 >> 32; const t1 = <u64>(s9 & <i64>M32);
  s11 += s10 >> 32; const t2 = <u64>(s10 & <i64>M32);
  s12 += s11 >> 32; const t3 = <u64>(s11 & <i64>M32);
  s13 += s12 >> 32; const t4 = <u64>(s12 & <i64>M32);
  s14 += s13 >> 32; const t5 = <u64>(s13 & <i64>M32);
  s15 += s14 >> 32; const t6 = <u64>(s14 & <i64>M32);
  const t7 = <u64>(s15 & <i64>M32), t8 = <u64>(s15 >> 32); // value t8:t7..t0 is below 2n
  const d0 = t0 - 0xfc632551; let bw = d0 >> 63;
  const d1 = t1 - 0xf3b9cac2 - bw; bw = d1 >> 63;
  const d2 = t2 - 0xa7179e84 - bw; bw = d2 >> 63;
  const d3 = t3 - 0xbce6faad - bw; bw = d3 >> 63;
  const d4 = t4 - 0xffffffff - bw; bw = d4 >> 63;
  const d5 = t5 - 0xffffffff - bw; bw = d5 >> 63;
  const d6 = t6 - 0x0 - bw; bw = d6 >> 63;
  const d7 = t7 - 0xffffffff - bw; bw = d7 >> 63;
  const keep = 0 - ((t8 - bw) >> 63); // all ones when the value is below n
  store<u32>(r, <u32>((t0 & keep) | (d0 & ~keep)), 0);
  store<u32>(r, <u32>((t1 & keep) | (d1 & ~keep)), 4);
  store<u32>(r, <u32>((t2 & keep) | (d2 & ~keep)), 8);
  store<u32>(r, <u32>((t3 & keep) | (d3 & ~keep)), 12);
  store<u32>(r, <u32>((t4 & keep) | (d4 & ~keep)), 16);
  store<u32>(r, <u32>((t5 & keep) | (d5 & ~keep)), 20);
  store<u32>(r, <u32>((t6 & keep) | (d6 & ~keep)), 24);
  store<u32>(r, <u32>((t7 & keep) | (d7 & ~keep)), 28);
}
// END GENERATED nsqr

/** r = a + b mod n (a, b < n; masked final subtraction). */
export function nadd(r: usize, a: usize, b: usize): void {
  let c: u64 = 0;
  for (let i: usize = 0; i < 32; i += 4) {
    const v = <u64>load<u32>(a + i) + <u64>load<u32>(b + i) + c;
    c = v >> 32;
    store<u32>(r + i, <u32>v);
  }
  nReduceOnce(r, <u32>c);
}

/** r (with a carry bit above it, value < 2n) reduced to < n: subtract n, keep it unless it borrowed. */
export function nReduceOnce(r: usize, carry: u32): void {
  let bw: u64 = 0;
  for (let i: usize = 0; i < 32; i += 4) {
    const d = <u64>load<u32>(r + i) - <u64>load<u32>(N + i) - bw;
    bw = d >> 63;
    store<u32>(S0 + i, <u32>d);
  }
  const keep = <u32>(0 - ((<u64>carry - bw) >> 63)); // all ones: r was already below n
  for (let i: usize = 0; i < 32; i += 4) {
    store<u32>(r + i, (load<u32>(r + i) & keep) | (load<u32>(S0 + i) & ~keep));
  }
}

/** Big-endian bytes -> raw limbs reduced mod n once (any 256-bit value is < 2n). */
export function nRawReduced(r: usize, bytes: usize): void {
  rawFromBytes(r, bytes, N);
  nReduceOnce(r, 0);
}

/** Raw limbs (< n) -> Montgomery form. */
export function nToMont(r: usize, a: usize): void {
  nmul(r, a, N_R2);
}

/** Montgomery form -> raw limbs. */
export function nFromMont(r: usize, a: usize): void {
  nmul(r, a, RAW_ONE);
}

export function nToBytes(out: usize, rawLimbs: usize): void {
  rawToBytes(out, rawLimbs);
}

/** 0xffffffff when the raw value is zero. */
export function nIsZero(a: usize): u32 {
  let acc: u32 = 0;
  for (let i: usize = 0; i < 32; i += 4) acc |= load<u32>(a + i);
  return <u32>((<u64>acc - 1) >> 32);
}

/** r = a^(n-2) = 1/a in Montgomery form (0 for a = 0). The exponent n - 2 is public, so its
 *  schedule may depend on it; nothing depends on a (constant-time). n - 2 = 0xffffffff 00000000
 *  ffffffff ffffffff || low 128 bits: the top half comes from x32 = a^(2^32-1) (31S + 5M, then
 *  96S + 2M), the low half from a width-5 sliding window over the odd powers a, a^3, .., a^31
 *  (1S + 15M, then 128S and one multiplication per window): 255S + about 44M (was 256S + 78M). */
export function ninv(r: usize, a: usize): void {
  const acc = S0, t = memory.data(32), x32 = memory.data(32), a2 = memory.data(32);
  // x_k = a^(2^k - 1)
  nsqr(t, a); nmul(t, t, a);                             // x2
  nsqr(x32, t); nsqr(x32, x32); nmul(t, x32, t);         // x4
  memory.copy(x32, t, 32);
  for (let i = 0; i < 4; i++) nsqr(x32, x32);
  nmul(t, x32, t);                                       // x8
  memory.copy(x32, t, 32);
  for (let i = 0; i < 8; i++) nsqr(x32, x32);
  nmul(t, x32, t);                                       // x16
  memory.copy(x32, t, 32);
  for (let i = 0; i < 16; i++) nsqr(x32, x32);
  nmul(x32, x32, t);                                     // x32
  memory.copy(acc, x32, 32);
  for (let i = 0; i < 64; i++) nsqr(acc, acc);           // ffffffff 00000000 << 32 bits
  nmul(acc, acc, x32);
  for (let i = 0; i < 32; i++) nsqr(acc, acc);
  nmul(acc, acc, x32);                                   // ffffffff 00000000 ffffffff ffffffff
  // Odd powers TABLE[i] = a^(2i+1).
  nsqr(a2, a);
  memory.copy(TABLE, a, 32);
  for (let i: usize = 1; i < 16; i++) nmul(TABLE + 32 * i, TABLE + 32 * (i - 1), a2);
  // Sliding window over bits 127..0 of the public exponent (branches on exponent bits only).
  let i = 127;
  while (i >= 0) {
    if (expBit(i) == 0) { nsqr(acc, acc); i--; continue; }
    let j = i - 4; if (j < 0) j = 0;
    while (expBit(j) == 0) j++;
    let val = 0;
    for (let b = i; b >= j; b--) { nsqr(acc, acc); val = (val << 1) | expBit(b); }
    nmul(acc, acc, TABLE + 32 * <usize>(val >> 1));
    i = j - 1;
  }
  memory.copy(r, acc, 32);
}

/** Bit i (0 = least significant) of the public exponent n - 2. */
// @ts-ignore: decorator
@inline function expBit(i: i32): i32 {
  return (load<u8>(N_MINUS_2 + 31 - <usize>(i >> 3)) >> <u8>(i & 7)) & 1;
}
