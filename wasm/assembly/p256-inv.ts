// Constant-time modular inversion for P-256 (mod p and mod n) by Bernstein-Yang "safegcd"
// divsteps, following libsecp256k1's modinv32 (signed 30-bit limbs, batches of 30 divsteps with
// a 2x2 transition matrix applied to (f, g) and (d, e)). 20 batches = 600 divsteps, enough for any
// 256-bit input (the bound is 590). Constant-time: the number of steps is fixed and every step is
// branch-free (masks from the sign of zeta and the low bit of g); no memory index depends on data.
// Replaces the Fermat exponentiations (about 256 squarings each): see finvSafe / ninvSafe.
import { fmul } from './p256-field';
import { nmul } from './p256-scalar';

// @ts-ignore: decorator
@inline const M30: i32 = 0x3fffffff;

/** Moduli as 9 signed 30-bit limbs, their inverses mod 2^30, and R^3 mod m (R = 2^256) to bring a
 *  Montgomery input aR to the Montgomery output a^-1 R: (aR)^-1 * R^3 / R = a^-1 R. */
const P30 = memory.data<i32>([0x3fffffff, 0x3fffffff, 0x3fffffff, 63, 0, 0, 4096, 1073725440, 65535]);
const N30 = memory.data<i32>([1013130577, 250030859, 830072911, 968797033, 1073741756, 1073741823, 4095, 1073725440, 65535]);
// @ts-ignore: decorator
@inline const P_INV30: u32 = 0x3fffffff;
// @ts-ignore: decorator
@inline const N_INV30: u32 = 0x11ff43b1;
const P_R3 = memory.data<u32>([0xa, 0xfffffffd, 0xfffffff7, 0xffffffed, 0xfffffffc, 0x5, 0x1, 0x18]);
const N_R3 = memory.data<u32>([0xb65a624, 0xac8ebec9, 0xc0555c9, 0x111f28ae, 0x6ba5e93f, 0x2543b924, 0x6407be65, 0x503a54e7]);

const F = memory.data(36), G = memory.data(36), D = memory.data(36), E = memory.data(36);
const PAD = memory.data(40), OUT = memory.data(32);
let tu: i32 = 0, tv: i32 = 0, tq: i32 = 0, tr: i32 = 0;

/** 30 divsteps on the low bits of f and g; the scaled transition matrix goes to tu, tv, tq, tr. */
function divsteps30(zeta: i32, f0: u32, g0: u32): i32 {
  let u: u32 = 1, v: u32 = 0, q: u32 = 0, r: u32 = 1, f = f0, g = g0;
  for (let i = 0; i < 30; i++) {
    let c1 = <u32>(zeta >> 31);     // all ones when zeta < 0 (delta > 0)
    const c2 = <u32>0 - (g & 1);      // all ones when g is odd
    const x = (f ^ c1) - c1, y = (u ^ c1) - c1, z = (v ^ c1) - c1;
    g += x & c2; q += y & c2; r += z & c2;
    c1 &= c2;
    zeta = (zeta ^ <i32>c1) - 1;
    f += g & c1; u += q & c1; v += r & c1;
    g >>= 1; u <<= 1; v <<= 1;
  }
  tu = <i32>u; tv = <i32>v; tq = <i32>q; tr = <i32>r;
  return zeta;
}

function updateDE(m30: usize, inv30: u32): void {
  const u = <i64>tu, v = <i64>tv, q = <i64>tq, r = <i64>tr;
  const sd = load<i32>(D, 32) >> 31, se = load<i32>(E, 32) >> 31;
  let md = (tu & sd) + (tv & se), me = (tq & sd) + (tr & se);
  let di = <i64>load<i32>(D), ei = <i64>load<i32>(E);
  let cd = u * di + v * ei, ce = q * di + r * ei;
  md -= <i32>((inv30 * <u32>cd + <u32>md) & <u32>M30);
  me -= <i32>((inv30 * <u32>ce + <u32>me) & <u32>M30);
  const m0 = <i64>load<i32>(m30);
  cd += m0 * <i64>md; ce += m0 * <i64>me;
  cd >>= 30; ce >>= 30;
  for (let i: usize = 1; i < 9; i++) {
    di = <i64>load<i32>(D + 4 * i); ei = <i64>load<i32>(E + 4 * i);
    const mi = <i64>load<i32>(m30 + 4 * i);
    cd += u * di + v * ei + mi * <i64>md;
    ce += q * di + r * ei + mi * <i64>me;
    store<i32>(D + 4 * (i - 1), <i32>cd & M30); cd >>= 30;
    store<i32>(E + 4 * (i - 1), <i32>ce & M30); ce >>= 30;
  }
  store<i32>(D, <i32>cd, 32); store<i32>(E, <i32>ce, 32);
}

function updateFG(): void {
  const u = <i64>tu, v = <i64>tv, q = <i64>tq, r = <i64>tr;
  let fi = <i64>load<i32>(F), gi = <i64>load<i32>(G);
  let cf = u * fi + v * gi, cg = q * fi + r * gi;
  cf >>= 30; cg >>= 30;
  for (let i: usize = 1; i < 9; i++) {
    fi = <i64>load<i32>(F + 4 * i); gi = <i64>load<i32>(G + 4 * i);
    cf += u * fi + v * gi;
    cg += q * fi + r * gi;
    store<i32>(F + 4 * (i - 1), <i32>cf & M30); cf >>= 30;
    store<i32>(G + 4 * (i - 1), <i32>cg & M30); cg >>= 30;
  }
  store<i32>(F, <i32>cf, 32); store<i32>(G, <i32>cg, 32);
}

/** D := D mod m in [0, m), negated first when `sign` < 0 (masked, no branch). */
function normalize(sign: i32, m30: usize): void {
  let condAdd = load<i32>(D, 32) >> 31;
  const neg = sign >> 31;
  for (let i: usize = 0; i < 9; i++) {
    const x = load<i32>(D + 4 * i) + (load<i32>(m30 + 4 * i) & condAdd);
    store<i32>(D + 4 * i, (x ^ neg) - neg);
  }
  for (let i: usize = 0; i < 8; i++) {
    const x = load<i32>(D + 4 * i);
    store<i32>(D + 4 * (i + 1), load<i32>(D + 4 * (i + 1)) + (x >> 30));
    store<i32>(D + 4 * i, x & M30);
  }
  condAdd = load<i32>(D, 32) >> 31;
  for (let i: usize = 0; i < 9; i++) store<i32>(D + 4 * i, load<i32>(D + 4 * i) + (load<i32>(m30 + 4 * i) & condAdd));
  for (let i: usize = 0; i < 8; i++) {
    const x = load<i32>(D + 4 * i);
    store<i32>(D + 4 * (i + 1), load<i32>(D + 4 * (i + 1)) + (x >> 30));
    store<i32>(D + 4 * i, x & M30);
  }
}

/** OUT = a^-1 mod m (raw 8x32 limbs in and out; 0 for a = 0), a < m. */
function safegcd(a: usize, m30: usize, inv30: u32): void {
  memory.fill(PAD, 0, 40); memory.copy(PAD, a, 32);
  for (let i: usize = 0; i < 9; i++) {
    const bit: usize = 30 * i;
    store<i32>(G + 4 * i, <i32>(load<u64>(PAD + ((bit >> 5) << 2)) >> <u64>(bit & 31)) & M30);
  }
  memory.copy(F, m30, 36);
  memory.fill(D, 0, 36); memory.fill(E, 0, 36); store<i32>(E, 1);
  let zeta: i32 = -1;
  for (let i = 0; i < 20; i++) {
    zeta = divsteps30(zeta, load<u32>(F), load<u32>(G));
    updateDE(m30, inv30);
    updateFG();
  }
  normalize(load<i32>(F, 32), m30);
  // 9 x 30 bits -> 8 x 32 bits.
  let acc: u64 = 0, bits: u32 = 0, o: usize = 0;
  for (let i: usize = 0; i < 9; i++) {
    acc |= <u64>load<u32>(D + 4 * i) << bits; bits += 30;
    if (bits >= 32) { store<u32>(OUT + o, <u32>acc); o += 4; acc >>= 32; bits -= 32; } // schedule is fixed
  }
  memory.fill(PAD, 0, 40); memory.fill(D, 0, 36); memory.fill(E, 0, 36); memory.fill(F, 0, 36); memory.fill(G, 0, 36);
}

/** r = 1/a mod p with a, r in Montgomery form (0 for 0). Constant-time. */
export function finvSafe(r: usize, a: usize): void {
  safegcd(a, P30, P_INV30);
  fmul(r, OUT, P_R3);
  memory.fill(OUT, 0, 32);
}

/** r = 1/a mod n with a, r in Montgomery form (0 for 0). Constant-time. */
export function ninvSafe(r: usize, a: usize): void {
  safegcd(a, N30, N_INV30);
  nmul(r, OUT, N_R3);
  memory.fill(OUT, 0, 32);
}
