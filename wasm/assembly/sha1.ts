// SHA-1 (FIPS 180-4), used only for subjectKeyIdentifier (RFC 5280 §4.2.1.2 method 1) over public
// key bits: nothing secret is hashed here, so no constant-time concerns. The 80-word schedule is a
// static scratch area (calls never overlap).

const W: usize = memory.data(320);
const BLOCK: usize = memory.data(64);

let h0: u32 = 0;
let h1: u32 = 0;
let h2: u32 = 0;
let h3: u32 = 0;
let h4: u32 = 0;

function compress(p: usize): void {
  for (let i: usize = 0; i < 16; i++) store<u32>(W + (i << 2), bswap<u32>(load<u32>(p + (i << 2))));
  for (let i: usize = 16; i < 80; i++) {
    const x = load<u32>(W + ((i - 3) << 2)) ^ load<u32>(W + ((i - 8) << 2)) ^ load<u32>(W + ((i - 14) << 2)) ^ load<u32>(W + ((i - 16) << 2));
    store<u32>(W + (i << 2), rotl<u32>(x, 1));
  }
  let a = h0, b = h1, c = h2, d = h3, e = h4;
  for (let i: usize = 0; i < 80; i++) {
    let f: u32, k: u32;
    if (i < 20) {
      f = (b & c) | (~b & d);
      k = 0x5a827999;
    } else if (i < 40) {
      f = b ^ c ^ d;
      k = 0x6ed9eba1;
    } else if (i < 60) {
      f = (b & c) | (b & d) | (c & d);
      k = 0x8f1bbcdc;
    } else {
      f = b ^ c ^ d;
      k = 0xca62c1d6;
    }
    const t = rotl<u32>(a, 5) + f + e + k + load<u32>(W + (i << 2));
    e = d;
    d = c;
    c = rotl<u32>(b, 30);
    b = a;
    a = t;
  }
  h0 += a;
  h1 += b;
  h2 += c;
  h3 += d;
  h4 += e;
}

/** Writes the 20-byte SHA-1 digest of [src, src+len) to out. */
export function sha1(src: usize, len: usize, out: usize): void {
  h0 = 0x67452301;
  h1 = 0xefcdab89;
  h2 = 0x98badcfe;
  h3 = 0x10325476;
  h4 = 0xc3d2e1f0;
  let off: usize = 0;
  while (len - off >= 64) {
    compress(src + off);
    off += 64;
  }
  const rest = len - off;
  memory.copy(BLOCK, src + off, rest);
  store<u8>(BLOCK + rest, 0x80);
  memory.fill(BLOCK + rest + 1, 0, 63 - rest);
  if (rest >= 56) {
    compress(BLOCK);
    memory.fill(BLOCK, 0, 56);
  }
  const bits = <u64>len << 3;
  store<u64>(BLOCK + 56, bswap<u64>(bits));
  compress(BLOCK);
  store<u32>(out, bswap<u32>(h0));
  store<u32>(out + 4, bswap<u32>(h1));
  store<u32>(out + 8, bswap<u32>(h2));
  store<u32>(out + 12, bswap<u32>(h3));
  store<u32>(out + 16, bswap<u32>(h4));
}
