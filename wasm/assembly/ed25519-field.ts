// Field arithmetic mod p = 2^255 - 19 for Ed25519, ref10's representation: 10 signed limbs in
// radix 2^25.5 (26, 25, 26, 25, ... bits), each held in an i64. WASM has a 64x64->64 multiply
// but no 128-bit product, so a 26-bit x 27-bit limb product times 38 still fits an i64 with room
// for the ten-term sums; 2^51 limbs would need emulated 128-bit products (4 multiplies each).
// A field element is a pointer to 80 bytes (10 x i64) in static memory; every function loads
// its inputs into locals before storing, so outputs may alias inputs.
// Constant-time: no branch or memory index depends on limb values anywhere in this file
// (feIsZero/feIsNegative return data; callers decide whether branching on it is public).
// mul/sq bodies are generated (schoolbook with 19*2^255 wrap, ref10's carry chain).


const SCRATCH: usize = memory.data(32, 8);
const T0: usize = memory.data(80, 8);
const T1: usize = memory.data(80, 8);
const T2: usize = memory.data(80, 8);
const T3: usize = memory.data(80, 8);

export function feMul(h: usize, f: usize, g: usize): void {
  const f0 = load<i64>(f, 0), f1 = load<i64>(f, 8), f2 = load<i64>(f, 16), f3 = load<i64>(f, 24), f4 = load<i64>(f, 32), f5 = load<i64>(f, 40), f6 = load<i64>(f, 48), f7 = load<i64>(f, 56), f8 = load<i64>(f, 64), f9 = load<i64>(f, 72);
  const g0 = load<i64>(g, 0), g1 = load<i64>(g, 8), g2 = load<i64>(g, 16), g3 = load<i64>(g, 24), g4 = load<i64>(g, 32), g5 = load<i64>(g, 40), g6 = load<i64>(g, 48), g7 = load<i64>(g, 56), g8 = load<i64>(g, 64), g9 = load<i64>(g, 72);
  const f1_2 = f1 * 2;
  const g9_19 = g9 * 19;
  const g8_19 = g8 * 19;
  const f3_2 = f3 * 2;
  const g7_19 = g7 * 19;
  const g6_19 = g6 * 19;
  const f5_2 = f5 * 2;
  const g5_19 = g5 * 19;
  const g4_19 = g4 * 19;
  const f7_2 = f7 * 2;
  const g3_19 = g3 * 19;
  const g2_19 = g2 * 19;
  const f9_2 = f9 * 2;
  const g1_19 = g1 * 19;
  let h0 = f0 * g0 + f1_2 * g9_19 + f2 * g8_19 + f3_2 * g7_19 + f4 * g6_19 + f5_2 * g5_19 + f6 * g4_19 + f7_2 * g3_19 + f8 * g2_19 + f9_2 * g1_19;
  let h1 = f0 * g1 + f1 * g0 + f2 * g9_19 + f3 * g8_19 + f4 * g7_19 + f5 * g6_19 + f6 * g5_19 + f7 * g4_19 + f8 * g3_19 + f9 * g2_19;
  let h2 = f0 * g2 + f1_2 * g1 + f2 * g0 + f3_2 * g9_19 + f4 * g8_19 + f5_2 * g7_19 + f6 * g6_19 + f7_2 * g5_19 + f8 * g4_19 + f9_2 * g3_19;
  let h3 = f0 * g3 + f1 * g2 + f2 * g1 + f3 * g0 + f4 * g9_19 + f5 * g8_19 + f6 * g7_19 + f7 * g6_19 + f8 * g5_19 + f9 * g4_19;
  let h4 = f0 * g4 + f1_2 * g3 + f2 * g2 + f3_2 * g1 + f4 * g0 + f5_2 * g9_19 + f6 * g8_19 + f7_2 * g7_19 + f8 * g6_19 + f9_2 * g5_19;
  let h5 = f0 * g5 + f1 * g4 + f2 * g3 + f3 * g2 + f4 * g1 + f5 * g0 + f6 * g9_19 + f7 * g8_19 + f8 * g7_19 + f9 * g6_19;
  let h6 = f0 * g6 + f1_2 * g5 + f2 * g4 + f3_2 * g3 + f4 * g2 + f5_2 * g1 + f6 * g0 + f7_2 * g9_19 + f8 * g8_19 + f9_2 * g7_19;
  let h7 = f0 * g7 + f1 * g6 + f2 * g5 + f3 * g4 + f4 * g3 + f5 * g2 + f6 * g1 + f7 * g0 + f8 * g9_19 + f9 * g8_19;
  let h8 = f0 * g8 + f1_2 * g7 + f2 * g6 + f3_2 * g5 + f4 * g4 + f5_2 * g3 + f6 * g2 + f7_2 * g1 + f8 * g0 + f9_2 * g9_19;
  let h9 = f0 * g9 + f1 * g8 + f2 * g7 + f3 * g6 + f4 * g5 + f5 * g4 + f6 * g3 + f7 * g2 + f8 * g1 + f9 * g0;
  let c: i64;
  c = (h0 + (1 << 25)) >> 26; h1 += c; h0 -= c << 26;
  c = (h4 + (1 << 25)) >> 26; h5 += c; h4 -= c << 26;
  c = (h1 + (1 << 24)) >> 25; h2 += c; h1 -= c << 25;
  c = (h5 + (1 << 24)) >> 25; h6 += c; h5 -= c << 25;
  c = (h2 + (1 << 25)) >> 26; h3 += c; h2 -= c << 26;
  c = (h6 + (1 << 25)) >> 26; h7 += c; h6 -= c << 26;
  c = (h3 + (1 << 24)) >> 25; h4 += c; h3 -= c << 25;
  c = (h7 + (1 << 24)) >> 25; h8 += c; h7 -= c << 25;
  c = (h4 + (1 << 25)) >> 26; h5 += c; h4 -= c << 26;
  c = (h8 + (1 << 25)) >> 26; h9 += c; h8 -= c << 26;
  c = (h9 + (1 << 24)) >> 25; h0 += c * 19; h9 -= c << 25;
  c = (h0 + (1 << 25)) >> 26; h1 += c; h0 -= c << 26;
  store<i64>(h, h0, 0); store<i64>(h, h1, 8); store<i64>(h, h2, 16); store<i64>(h, h3, 24); store<i64>(h, h4, 32); store<i64>(h, h5, 40); store<i64>(h, h6, 48); store<i64>(h, h7, 56); store<i64>(h, h8, 64); store<i64>(h, h9, 72);
}

export function feSq(h: usize, f: usize): void {
  const f0 = load<i64>(f, 0), f1 = load<i64>(f, 8), f2 = load<i64>(f, 16), f3 = load<i64>(f, 24), f4 = load<i64>(f, 32), f5 = load<i64>(f, 40), f6 = load<i64>(f, 48), f7 = load<i64>(f, 56), f8 = load<i64>(f, 64), f9 = load<i64>(f, 72);
  const f0_2 = f0 * 2;
  const f1_2 = f1 * 2;
  const f1_4 = f1 * 4;
  const f9_19 = f9 * 19;
  const f2_2 = f2 * 2;
  const f8_19 = f8 * 19;
  const f3_2 = f3 * 2;
  const f3_4 = f3 * 4;
  const f7_19 = f7 * 19;
  const f4_2 = f4 * 2;
  const f6_19 = f6 * 19;
  const f5_2 = f5 * 2;
  const f5_19 = f5 * 19;
  const f5_4 = f5 * 4;
  const f6_2 = f6 * 2;
  const f7_2 = f7 * 2;
  const f7_4 = f7 * 4;
  const f8_2 = f8 * 2;
  const f9_2 = f9 * 2;
  let h0 = f0 * f0 + f1_4 * f9_19 + f2_2 * f8_19 + f3_4 * f7_19 + f4_2 * f6_19 + f5_2 * f5_19;
  let h1 = f0_2 * f1 + f2_2 * f9_19 + f3_2 * f8_19 + f4_2 * f7_19 + f5_2 * f6_19;
  let h2 = f0_2 * f2 + f1_2 * f1 + f3_4 * f9_19 + f4_2 * f8_19 + f5_4 * f7_19 + f6 * f6_19;
  let h3 = f0_2 * f3 + f1_2 * f2 + f4_2 * f9_19 + f5_2 * f8_19 + f6_2 * f7_19;
  let h4 = f0_2 * f4 + f1_4 * f3 + f2 * f2 + f5_4 * f9_19 + f6_2 * f8_19 + f7_2 * f7_19;
  let h5 = f0_2 * f5 + f1_2 * f4 + f2_2 * f3 + f6_2 * f9_19 + f7_2 * f8_19;
  let h6 = f0_2 * f6 + f1_4 * f5 + f2_2 * f4 + f3_2 * f3 + f7_4 * f9_19 + f8 * f8_19;
  let h7 = f0_2 * f7 + f1_2 * f6 + f2_2 * f5 + f3_2 * f4 + f8_2 * f9_19;
  let h8 = f0_2 * f8 + f1_4 * f7 + f2_2 * f6 + f3_4 * f5 + f4 * f4 + f9_2 * f9_19;
  let h9 = f0_2 * f9 + f1_2 * f8 + f2_2 * f7 + f3_2 * f6 + f4_2 * f5;
  let c: i64;
  c = (h0 + (1 << 25)) >> 26; h1 += c; h0 -= c << 26;
  c = (h4 + (1 << 25)) >> 26; h5 += c; h4 -= c << 26;
  c = (h1 + (1 << 24)) >> 25; h2 += c; h1 -= c << 25;
  c = (h5 + (1 << 24)) >> 25; h6 += c; h5 -= c << 25;
  c = (h2 + (1 << 25)) >> 26; h3 += c; h2 -= c << 26;
  c = (h6 + (1 << 25)) >> 26; h7 += c; h6 -= c << 26;
  c = (h3 + (1 << 24)) >> 25; h4 += c; h3 -= c << 25;
  c = (h7 + (1 << 24)) >> 25; h8 += c; h7 -= c << 25;
  c = (h4 + (1 << 25)) >> 26; h5 += c; h4 -= c << 26;
  c = (h8 + (1 << 25)) >> 26; h9 += c; h8 -= c << 26;
  c = (h9 + (1 << 24)) >> 25; h0 += c * 19; h9 -= c << 25;
  c = (h0 + (1 << 25)) >> 26; h1 += c; h0 -= c << 26;
  store<i64>(h, h0, 0); store<i64>(h, h1, 8); store<i64>(h, h2, 16); store<i64>(h, h3, 24); store<i64>(h, h4, 32); store<i64>(h, h5, 40); store<i64>(h, h6, 48); store<i64>(h, h7, 56); store<i64>(h, h8, 64); store<i64>(h, h9, 72);
}

/** h = 2 f^2 (point doubling). */
export function feSq2(h: usize, f: usize): void {
  const f0 = load<i64>(f, 0), f1 = load<i64>(f, 8), f2 = load<i64>(f, 16), f3 = load<i64>(f, 24), f4 = load<i64>(f, 32), f5 = load<i64>(f, 40), f6 = load<i64>(f, 48), f7 = load<i64>(f, 56), f8 = load<i64>(f, 64), f9 = load<i64>(f, 72);
  const f0_2 = f0 * 2;
  const f1_2 = f1 * 2;
  const f1_4 = f1 * 4;
  const f9_19 = f9 * 19;
  const f2_2 = f2 * 2;
  const f8_19 = f8 * 19;
  const f3_2 = f3 * 2;
  const f3_4 = f3 * 4;
  const f7_19 = f7 * 19;
  const f4_2 = f4 * 2;
  const f6_19 = f6 * 19;
  const f5_2 = f5 * 2;
  const f5_19 = f5 * 19;
  const f5_4 = f5 * 4;
  const f6_2 = f6 * 2;
  const f7_2 = f7 * 2;
  const f7_4 = f7 * 4;
  const f8_2 = f8 * 2;
  const f9_2 = f9 * 2;
  let h0 = f0 * f0 + f1_4 * f9_19 + f2_2 * f8_19 + f3_4 * f7_19 + f4_2 * f6_19 + f5_2 * f5_19;
  let h1 = f0_2 * f1 + f2_2 * f9_19 + f3_2 * f8_19 + f4_2 * f7_19 + f5_2 * f6_19;
  let h2 = f0_2 * f2 + f1_2 * f1 + f3_4 * f9_19 + f4_2 * f8_19 + f5_4 * f7_19 + f6 * f6_19;
  let h3 = f0_2 * f3 + f1_2 * f2 + f4_2 * f9_19 + f5_2 * f8_19 + f6_2 * f7_19;
  let h4 = f0_2 * f4 + f1_4 * f3 + f2 * f2 + f5_4 * f9_19 + f6_2 * f8_19 + f7_2 * f7_19;
  let h5 = f0_2 * f5 + f1_2 * f4 + f2_2 * f3 + f6_2 * f9_19 + f7_2 * f8_19;
  let h6 = f0_2 * f6 + f1_4 * f5 + f2_2 * f4 + f3_2 * f3 + f7_4 * f9_19 + f8 * f8_19;
  let h7 = f0_2 * f7 + f1_2 * f6 + f2_2 * f5 + f3_2 * f4 + f8_2 * f9_19;
  let h8 = f0_2 * f8 + f1_4 * f7 + f2_2 * f6 + f3_4 * f5 + f4 * f4 + f9_2 * f9_19;
  let h9 = f0_2 * f9 + f1_2 * f8 + f2_2 * f7 + f3_2 * f6 + f4_2 * f5;
  h0 += h0; h1 += h1; h2 += h2; h3 += h3; h4 += h4; h5 += h5; h6 += h6; h7 += h7; h8 += h8; h9 += h9;
  let c: i64;
  c = (h0 + (1 << 25)) >> 26; h1 += c; h0 -= c << 26;
  c = (h4 + (1 << 25)) >> 26; h5 += c; h4 -= c << 26;
  c = (h1 + (1 << 24)) >> 25; h2 += c; h1 -= c << 25;
  c = (h5 + (1 << 24)) >> 25; h6 += c; h5 -= c << 25;
  c = (h2 + (1 << 25)) >> 26; h3 += c; h2 -= c << 26;
  c = (h6 + (1 << 25)) >> 26; h7 += c; h6 -= c << 26;
  c = (h3 + (1 << 24)) >> 25; h4 += c; h3 -= c << 25;
  c = (h7 + (1 << 24)) >> 25; h8 += c; h7 -= c << 25;
  c = (h4 + (1 << 25)) >> 26; h5 += c; h4 -= c << 26;
  c = (h8 + (1 << 25)) >> 26; h9 += c; h8 -= c << 26;
  c = (h9 + (1 << 24)) >> 25; h0 += c * 19; h9 -= c << 25;
  c = (h0 + (1 << 25)) >> 26; h1 += c; h0 -= c << 26;
  store<i64>(h, h0, 0); store<i64>(h, h1, 8); store<i64>(h, h2, 16); store<i64>(h, h3, 24); store<i64>(h, h4, 32); store<i64>(h, h5, 40); store<i64>(h, h6, 48); store<i64>(h, h7, 56); store<i64>(h, h8, 64); store<i64>(h, h9, 72);
}

export function feAdd(h: usize, f: usize, g: usize): void {
  for (let i: usize = 0; i < 80; i += 8) store<i64>(h + i, load<i64>(f + i) + load<i64>(g + i));
}

export function feSub(h: usize, f: usize, g: usize): void {
  for (let i: usize = 0; i < 80; i += 8) store<i64>(h + i, load<i64>(f + i) - load<i64>(g + i));
}

export function feNeg(h: usize, f: usize): void {
  for (let i: usize = 0; i < 80; i += 8) store<i64>(h + i, -load<i64>(f + i));
}

export function feCopy(h: usize, f: usize): void {
  memory.copy(h, f, 80);
}

export function feSet(h: usize, v: i64): void {
  memory.fill(h, 0, 80);
  store<i64>(h, v);
}

/** f = g when b == 1, unchanged when b == 0; by masking, not branching (b may be secret). */
export function feCmov(f: usize, g: usize, b: u32): void {
  const mask = -(<i64>b);
  for (let i: usize = 0; i < 80; i += 8) {
    const x = load<i64>(f + i);
    store<i64>(f + i, x ^ (mask & (x ^ load<i64>(g + i))));
  }
}

/** Reads 32 little-endian bytes, ignoring bit 255 (the caller handles it). Not reduced mod p. */
export function feFromBytes(h: usize, s: usize): void {
  const w0 = load<u64>(s, 0), w1 = load<u64>(s, 8), w2 = load<u64>(s, 16), w3 = load<u64>(s, 24);
  const m26: u64 = (1 << 26) - 1, m25: u64 = (1 << 25) - 1;
  store<i64>(h, w0 & m26, 0);
  store<i64>(h, (w0 >> 26) & m25, 8);
  store<i64>(h, ((w0 >> 51) | (w1 << 13)) & m26, 16);
  store<i64>(h, (w1 >> 13) & m25, 24);
  store<i64>(h, (w1 >> 38) & m26, 32);
  store<i64>(h, w2 & m25, 40);
  store<i64>(h, (w2 >> 25) & m26, 48);
  store<i64>(h, ((w2 >> 51) | (w3 << 13)) & m25, 56);
  store<i64>(h, (w3 >> 12) & m26, 64);
  store<i64>(h, (w3 >> 38) & m25, 72);
}

/** Writes the canonical (fully reduced) 32-byte little-endian encoding of h. */
export function feToBytes(s: usize, h: usize): void {
  let h0 = load<i64>(h, 0), h1 = load<i64>(h, 8), h2 = load<i64>(h, 16), h3 = load<i64>(h, 24), h4 = load<i64>(h, 32);
  let h5 = load<i64>(h, 40), h6 = load<i64>(h, 48), h7 = load<i64>(h, 56), h8 = load<i64>(h, 64), h9 = load<i64>(h, 72);
  // q = floor(h / p) in {0, 1} (ref10's argument): adding 19q and dropping 2^255 subtracts q*p.
  let q = (19 * h9 + (1 << 24)) >> 25;
  q = (h0 + q) >> 26; q = (h1 + q) >> 25; q = (h2 + q) >> 26; q = (h3 + q) >> 25; q = (h4 + q) >> 26;
  q = (h5 + q) >> 25; q = (h6 + q) >> 26; q = (h7 + q) >> 25; q = (h8 + q) >> 26; q = (h9 + q) >> 25;
  h0 += 19 * q;
  let c: i64;
  c = h0 >> 26; h1 += c; h0 -= c << 26;
  c = h1 >> 25; h2 += c; h1 -= c << 25;
  c = h2 >> 26; h3 += c; h2 -= c << 26;
  c = h3 >> 25; h4 += c; h3 -= c << 25;
  c = h4 >> 26; h5 += c; h4 -= c << 26;
  c = h5 >> 25; h6 += c; h5 -= c << 25;
  c = h6 >> 26; h7 += c; h6 -= c << 26;
  c = h7 >> 25; h8 += c; h7 -= c << 25;
  c = h8 >> 26; h9 += c; h8 -= c << 26;
  c = h9 >> 25; h9 -= c << 25;
  store<u64>(s, <u64>h0 | (<u64>h1 << 26) | (<u64>h2 << 51), 0);
  store<u64>(s, (<u64>h2 >> 13) | (<u64>h3 << 13) | (<u64>h4 << 38), 8);
  store<u64>(s, <u64>h5 | (<u64>h6 << 25) | (<u64>h7 << 51), 16);
  store<u64>(s, (<u64>h7 >> 13) | (<u64>h8 << 12) | (<u64>h9 << 38), 24);
}

/** 1 when f is odd after full reduction (the "negative" x of RFC 8032), else 0. */
export function feIsNegative(f: usize): u32 {
  feToBytes(SCRATCH, f);
  return load<u8>(SCRATCH) & 1;
}

/** 1 when f == 0 mod p, else 0, without branching on f. */
export function feIsZero(f: usize): u32 {
  feToBytes(SCRATCH, f);
  const x = load<u64>(SCRATCH, 0) | load<u64>(SCRATCH, 8) | load<u64>(SCRATCH, 16) | load<u64>(SCRATCH, 24);
  return <u32>(((x | (0 - x)) >> 63) ^ 1);
}

function sqN(h: usize, f: usize, n: i32): void {
  feSq(h, f);
  for (let i = 1; i < n; i++) feSq(h, h);
}

/** out = z^(p-2) = 1/z (0 for z = 0); ref10's addition chain, 254 squarings + 11 products. */
export function feInvert(out: usize, z: usize): void {
  feSq(T0, z); sqN(T1, T0, 2); feMul(T1, z, T1); feMul(T0, T0, T1);
  feSq(T2, T0); feMul(T1, T1, T2);
  sqN(T2, T1, 5); feMul(T1, T2, T1);
  sqN(T2, T1, 10); feMul(T2, T2, T1);
  sqN(T3, T2, 20); feMul(T2, T3, T2);
  sqN(T2, T2, 10); feMul(T1, T2, T1);
  sqN(T2, T1, 50); feMul(T2, T2, T1);
  sqN(T3, T2, 100); feMul(T2, T3, T2);
  sqN(T2, T2, 50); feMul(T1, T2, T1);
  sqN(T1, T1, 5); feMul(out, T1, T0);
}

/** out = z^((p-5)/8), the core of the square root in point decompression. */
export function fePow22523(out: usize, z: usize): void {
  feSq(T0, z); sqN(T1, T0, 2); feMul(T1, z, T1); feMul(T0, T0, T1);
  feSq(T0, T0); feMul(T0, T1, T0);
  sqN(T1, T0, 5); feMul(T0, T1, T0);
  sqN(T1, T0, 10); feMul(T1, T1, T0);
  sqN(T2, T1, 20); feMul(T1, T2, T1);
  sqN(T1, T1, 10); feMul(T0, T1, T0);
  sqN(T1, T0, 50); feMul(T1, T1, T0);
  sqN(T2, T1, 100); feMul(T1, T2, T1);
  sqN(T1, T1, 50); feMul(T0, T1, T0);
  sqN(T0, T0, 2); feMul(out, T0, z);
}
