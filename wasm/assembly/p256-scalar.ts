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

// Unrolled CIOS Montgomery product r = a*b/2^256 mod m (generated; m = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551).
// Straight-line code: no branch or index depends on a or b (constant-time).
export function nmul(r: usize, a: usize, b: usize): void {
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
  q = (t0 * 0xee00bc4f) & M32;
  v = t0 + q * 0xfc632551; c = v >> 32;
  v = t1 + q * 0xf3b9cac2 + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xa7179e84 + c; t1 = v & M32; c = v >> 32;
  v = t3 + q * 0xbce6faad + c; t2 = v & M32; c = v >> 32;
  v = t4 + q * 0xffffffff + c; t3 = v & M32; c = v >> 32;
  v = t5 + q * 0xffffffff + c; t4 = v & M32; c = v >> 32;
  v = t6 + c; t5 = v & M32; c = v >> 32;
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
  q = (t0 * 0xee00bc4f) & M32;
  v = t0 + q * 0xfc632551; c = v >> 32;
  v = t1 + q * 0xf3b9cac2 + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xa7179e84 + c; t1 = v & M32; c = v >> 32;
  v = t3 + q * 0xbce6faad + c; t2 = v & M32; c = v >> 32;
  v = t4 + q * 0xffffffff + c; t3 = v & M32; c = v >> 32;
  v = t5 + q * 0xffffffff + c; t4 = v & M32; c = v >> 32;
  v = t6 + c; t5 = v & M32; c = v >> 32;
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
  q = (t0 * 0xee00bc4f) & M32;
  v = t0 + q * 0xfc632551; c = v >> 32;
  v = t1 + q * 0xf3b9cac2 + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xa7179e84 + c; t1 = v & M32; c = v >> 32;
  v = t3 + q * 0xbce6faad + c; t2 = v & M32; c = v >> 32;
  v = t4 + q * 0xffffffff + c; t3 = v & M32; c = v >> 32;
  v = t5 + q * 0xffffffff + c; t4 = v & M32; c = v >> 32;
  v = t6 + c; t5 = v & M32; c = v >> 32;
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
  q = (t0 * 0xee00bc4f) & M32;
  v = t0 + q * 0xfc632551; c = v >> 32;
  v = t1 + q * 0xf3b9cac2 + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xa7179e84 + c; t1 = v & M32; c = v >> 32;
  v = t3 + q * 0xbce6faad + c; t2 = v & M32; c = v >> 32;
  v = t4 + q * 0xffffffff + c; t3 = v & M32; c = v >> 32;
  v = t5 + q * 0xffffffff + c; t4 = v & M32; c = v >> 32;
  v = t6 + c; t5 = v & M32; c = v >> 32;
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
  q = (t0 * 0xee00bc4f) & M32;
  v = t0 + q * 0xfc632551; c = v >> 32;
  v = t1 + q * 0xf3b9cac2 + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xa7179e84 + c; t1 = v & M32; c = v >> 32;
  v = t3 + q * 0xbce6faad + c; t2 = v & M32; c = v >> 32;
  v = t4 + q * 0xffffffff + c; t3 = v & M32; c = v >> 32;
  v = t5 + q * 0xffffffff + c; t4 = v & M32; c = v >> 32;
  v = t6 + c; t5 = v & M32; c = v >> 32;
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
  q = (t0 * 0xee00bc4f) & M32;
  v = t0 + q * 0xfc632551; c = v >> 32;
  v = t1 + q * 0xf3b9cac2 + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xa7179e84 + c; t1 = v & M32; c = v >> 32;
  v = t3 + q * 0xbce6faad + c; t2 = v & M32; c = v >> 32;
  v = t4 + q * 0xffffffff + c; t3 = v & M32; c = v >> 32;
  v = t5 + q * 0xffffffff + c; t4 = v & M32; c = v >> 32;
  v = t6 + c; t5 = v & M32; c = v >> 32;
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
  q = (t0 * 0xee00bc4f) & M32;
  v = t0 + q * 0xfc632551; c = v >> 32;
  v = t1 + q * 0xf3b9cac2 + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xa7179e84 + c; t1 = v & M32; c = v >> 32;
  v = t3 + q * 0xbce6faad + c; t2 = v & M32; c = v >> 32;
  v = t4 + q * 0xffffffff + c; t3 = v & M32; c = v >> 32;
  v = t5 + q * 0xffffffff + c; t4 = v & M32; c = v >> 32;
  v = t6 + c; t5 = v & M32; c = v >> 32;
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
  q = (t0 * 0xee00bc4f) & M32;
  v = t0 + q * 0xfc632551; c = v >> 32;
  v = t1 + q * 0xf3b9cac2 + c; t0 = v & M32; c = v >> 32;
  v = t2 + q * 0xa7179e84 + c; t1 = v & M32; c = v >> 32;
  v = t3 + q * 0xbce6faad + c; t2 = v & M32; c = v >> 32;
  v = t4 + q * 0xffffffff + c; t3 = v & M32; c = v >> 32;
  v = t5 + q * 0xffffffff + c; t4 = v & M32; c = v >> 32;
  v = t6 + c; t5 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t8 + c; t7 = v & M32; t8 = t9 + (v >> 32);
  // t8:t7..t0 < 2m: subtract m once, keep the difference unless it borrowed (mask select).
  const d0 = t0 - 0xfc632551; let bw = (d0 >> 63);
  const d1 = t1 - 0xf3b9cac2 - bw; bw = (d1 >> 63);
  const d2 = t2 - 0xa7179e84 - bw; bw = (d2 >> 63);
  const d3 = t3 - 0xbce6faad - bw; bw = (d3 >> 63);
  const d4 = t4 - 0xffffffff - bw; bw = (d4 >> 63);
  const d5 = t5 - 0xffffffff - bw; bw = (d5 >> 63);
  const d6 = t6 - 0x0 - bw; bw = (d6 >> 63);
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

// BEGIN GENERATED nsqr (wasm/tools/gen-p256-sqr.mjs; do not edit by hand)
// r = a^2 / 2^256 mod m, a < m: 36 multiplications + reduction, straight-line (constant-time).
export function nsqr(r: usize, a: usize): void {
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
  q = (t0 * 0xee00bc4f) & M32;
  v = t0 + q * 0xfc632551; c = v >> 32;
  v = t1 + q * 0xf3b9cac2 + c; t1 = v & M32; c = v >> 32;
  v = t2 + q * 0xa7179e84 + c; t2 = v & M32; c = v >> 32;
  v = t3 + q * 0xbce6faad + c; t3 = v & M32; c = v >> 32;
  v = t4 + q * 0xffffffff + c; t4 = v & M32; c = v >> 32;
  v = t5 + q * 0xffffffff + c; t5 = v & M32; c = v >> 32;
  v = t6 + c; t6 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t7 = v & M32; c = v >> 32;
  v = t8 + c + ov; t8 = v & M32; ov = v >> 32;
  q = (t1 * 0xee00bc4f) & M32;
  v = t1 + q * 0xfc632551; c = v >> 32;
  v = t2 + q * 0xf3b9cac2 + c; t2 = v & M32; c = v >> 32;
  v = t3 + q * 0xa7179e84 + c; t3 = v & M32; c = v >> 32;
  v = t4 + q * 0xbce6faad + c; t4 = v & M32; c = v >> 32;
  v = t5 + q * 0xffffffff + c; t5 = v & M32; c = v >> 32;
  v = t6 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t7 + c; t7 = v & M32; c = v >> 32;
  v = t8 + q * 0xffffffff + c; t8 = v & M32; c = v >> 32;
  v = t9 + c + ov; t9 = v & M32; ov = v >> 32;
  q = (t2 * 0xee00bc4f) & M32;
  v = t2 + q * 0xfc632551; c = v >> 32;
  v = t3 + q * 0xf3b9cac2 + c; t3 = v & M32; c = v >> 32;
  v = t4 + q * 0xa7179e84 + c; t4 = v & M32; c = v >> 32;
  v = t5 + q * 0xbce6faad + c; t5 = v & M32; c = v >> 32;
  v = t6 + q * 0xffffffff + c; t6 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t7 = v & M32; c = v >> 32;
  v = t8 + c; t8 = v & M32; c = v >> 32;
  v = t9 + q * 0xffffffff + c; t9 = v & M32; c = v >> 32;
  v = t10 + c + ov; t10 = v & M32; ov = v >> 32;
  q = (t3 * 0xee00bc4f) & M32;
  v = t3 + q * 0xfc632551; c = v >> 32;
  v = t4 + q * 0xf3b9cac2 + c; t4 = v & M32; c = v >> 32;
  v = t5 + q * 0xa7179e84 + c; t5 = v & M32; c = v >> 32;
  v = t6 + q * 0xbce6faad + c; t6 = v & M32; c = v >> 32;
  v = t7 + q * 0xffffffff + c; t7 = v & M32; c = v >> 32;
  v = t8 + q * 0xffffffff + c; t8 = v & M32; c = v >> 32;
  v = t9 + c; t9 = v & M32; c = v >> 32;
  v = t10 + q * 0xffffffff + c; t10 = v & M32; c = v >> 32;
  v = t11 + c + ov; t11 = v & M32; ov = v >> 32;
  q = (t4 * 0xee00bc4f) & M32;
  v = t4 + q * 0xfc632551; c = v >> 32;
  v = t5 + q * 0xf3b9cac2 + c; t5 = v & M32; c = v >> 32;
  v = t6 + q * 0xa7179e84 + c; t6 = v & M32; c = v >> 32;
  v = t7 + q * 0xbce6faad + c; t7 = v & M32; c = v >> 32;
  v = t8 + q * 0xffffffff + c; t8 = v & M32; c = v >> 32;
  v = t9 + q * 0xffffffff + c; t9 = v & M32; c = v >> 32;
  v = t10 + c; t10 = v & M32; c = v >> 32;
  v = t11 + q * 0xffffffff + c; t11 = v & M32; c = v >> 32;
  v = t12 + c + ov; t12 = v & M32; ov = v >> 32;
  q = (t5 * 0xee00bc4f) & M32;
  v = t5 + q * 0xfc632551; c = v >> 32;
  v = t6 + q * 0xf3b9cac2 + c; t6 = v & M32; c = v >> 32;
  v = t7 + q * 0xa7179e84 + c; t7 = v & M32; c = v >> 32;
  v = t8 + q * 0xbce6faad + c; t8 = v & M32; c = v >> 32;
  v = t9 + q * 0xffffffff + c; t9 = v & M32; c = v >> 32;
  v = t10 + q * 0xffffffff + c; t10 = v & M32; c = v >> 32;
  v = t11 + c; t11 = v & M32; c = v >> 32;
  v = t12 + q * 0xffffffff + c; t12 = v & M32; c = v >> 32;
  v = t13 + c + ov; t13 = v & M32; ov = v >> 32;
  q = (t6 * 0xee00bc4f) & M32;
  v = t6 + q * 0xfc632551; c = v >> 32;
  v = t7 + q * 0xf3b9cac2 + c; t7 = v & M32; c = v >> 32;
  v = t8 + q * 0xa7179e84 + c; t8 = v & M32; c = v >> 32;
  v = t9 + q * 0xbce6faad + c; t9 = v & M32; c = v >> 32;
  v = t10 + q * 0xffffffff + c; t10 = v & M32; c = v >> 32;
  v = t11 + q * 0xffffffff + c; t11 = v & M32; c = v >> 32;
  v = t12 + c; t12 = v & M32; c = v >> 32;
  v = t13 + q * 0xffffffff + c; t13 = v & M32; c = v >> 32;
  v = t14 + c + ov; t14 = v & M32; ov = v >> 32;
  q = (t7 * 0xee00bc4f) & M32;
  v = t7 + q * 0xfc632551; c = v >> 32;
  v = t8 + q * 0xf3b9cac2 + c; t8 = v & M32; c = v >> 32;
  v = t9 + q * 0xa7179e84 + c; t9 = v & M32; c = v >> 32;
  v = t10 + q * 0xbce6faad + c; t10 = v & M32; c = v >> 32;
  v = t11 + q * 0xffffffff + c; t11 = v & M32; c = v >> 32;
  v = t12 + q * 0xffffffff + c; t12 = v & M32; c = v >> 32;
  v = t13 + c; t13 = v & M32; c = v >> 32;
  v = t14 + q * 0xffffffff + c; t14 = v & M32; c = v >> 32;
  v = t15 + c + ov; t15 = v & M32; ov = v >> 32;
  const d0 = t8 - 0xfc632551; let bw = d0 >> 63;
  const d1 = t9 - 0xf3b9cac2 - bw; bw = d1 >> 63;
  const d2 = t10 - 0xa7179e84 - bw; bw = d2 >> 63;
  const d3 = t11 - 0xbce6faad - bw; bw = d3 >> 63;
  const d4 = t12 - 0xffffffff - bw; bw = d4 >> 63;
  const d5 = t13 - 0xffffffff - bw; bw = d5 >> 63;
  const d6 = t14 - 0x0 - bw; bw = d6 >> 63;
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

/** r = a^(n-2) = 1/a in Montgomery form. Fixed 4-bit window over the public exponent: the
 *  multiply/square schedule is the same for every a, and the table index is exponent data. */
export function ninv(r: usize, a: usize): void {
  memory.copy(TABLE, N_ONE, 32);
  memory.copy(TABLE + 32, a, 32);
  for (let i: usize = 2; i < 16; i++) nmul(TABLE + 32 * i, TABLE + 32 * (i - 1), a);
  const acc = S0;
  memory.copy(acc, N_ONE, 32);
  for (let i: usize = 0; i < 32; i++) {
    const byte = <usize>load<u8>(N_MINUS_2 + i);
    for (let k = 0; k < 4; k++) nsqr(acc, acc);
    nmul(acc, acc, TABLE + 32 * (byte >> 4));
    for (let k = 0; k < 4; k++) nsqr(acc, acc);
    nmul(acc, acc, TABLE + 32 * (byte & 15));
  }
  memory.copy(r, acc, 32);
}
