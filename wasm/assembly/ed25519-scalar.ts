// Scalars mod L = 2^252 + 27742317777372353535851937790883648493 (the Ed25519 group order).
// TweetNaCl's reduction: 64 signed radix-2^8 limbs in i64, folded from the top with L's low
// bytes; simple and constant-time (loop bounds and indexes are fixed, no branch on values).
// ~1.5k multiply-adds per product: negligible next to a scalar multiplication.

// L as 32 little-endian bytes, one per i64 for the folding loops.
const L: usize = memory.data<i64>([
  0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x10,
]);
const X: usize = memory.data(64 * 8, 8);

@inline function x(i: i32): i64 { return load<i64>(X + (<usize>i << 3)); }
@inline function setx(i: i32, v: i64): void { store<i64>(X + (<usize>i << 3), v); }
@inline function l(i: i32): i64 { return load<i64>(L + (<usize>i << 3)); }

/** Reduces X (64 limbs, value < 2^512 in signed radix 2^8) mod L into 32 bytes at r. */
function modL(r: usize): void {
  let carry: i64;
  for (let i = 63; i >= 32; --i) {
    carry = 0;
    let j = i - 32;
    for (; j < i - 12; ++j) {
      const v = x(j) + carry - 16 * x(i) * l(j - (i - 32));
      carry = (v + 128) >> 8;
      setx(j, v - (carry << 8));
    }
    setx(j, x(j) + carry);
    setx(i, 0);
  }
  carry = 0;
  for (let j = 0; j < 32; j++) {
    const v = x(j) + carry - (x(31) >> 4) * l(j);
    carry = v >> 8;
    setx(j, v & 255);
  }
  for (let j = 0; j < 32; j++) setx(j, x(j) - carry * l(j));
  for (let i = 0; i < 32; i++) {
    setx(i + 1, x(i + 1) + (x(i) >> 8));
    store<u8>(r + <usize>i, <u8>(x(i) & 255));
  }
  memory.fill(X, 0, 64 * 8); // the limbs may be secret (nonce, key): do not leave them behind
}

/** r = (64-byte little-endian s) mod L; r may alias s. */
export function scReduce(r: usize, s: usize): void {
  for (let i = 0; i < 64; i++) setx(i, <i64>load<u8>(s + <usize>i));
  modL(r);
}

/** r = (a * b + c) mod L for 32-byte little-endian a, b, c; r may alias any of them. */
export function scMulAdd(r: usize, a: usize, b: usize, c: usize): void {
  for (let i = 0; i < 64; i++) setx(i, i < 32 ? <i64>load<u8>(c + <usize>i) : 0);
  for (let i = 0; i < 32; i++) {
    const ai = <i64>load<u8>(a + <usize>i);
    for (let j = 0; j < 32; j++) setx(i + j, x(i + j) + ai * <i64>load<u8>(b + <usize>j));
  }
  modL(r);
}

/** 1 when the 32-byte little-endian s is < L (a canonical signature S), else 0. Public data: variable-time. */
export function scIsCanonical(s: usize): i32 {
  for (let i = 31; i >= 0; i--) {
    const a = <i64>load<u8>(s + <usize>i), b = l(i);
    if (a < b) return 1;
    if (a > b) return 0;
  }
  return 0;
}
