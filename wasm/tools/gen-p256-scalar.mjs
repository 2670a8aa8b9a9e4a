// Generates nmul and nsqr (Montgomery, mod the P-256 group order n) for wasm/assembly/p256-scalar.ts,
// between "// BEGIN GENERATED <name>" / "// END GENERATED <name>". Run: node wasm/tools/gen-p256-scalar.mjs
// Product: schoolbook rows with a carry chain (nmul) or column sums of the 32-bit halves of the
// 36 partial products, cross terms doubled (nsqr). Reduction: 8 Montgomery rounds, q = w_i * (-1/n)
// mod 2^32; each q*n_j splits into halves added to words i+j and i+j+1 (no serial carry chain inside
// a round; only w_i's carry moves on to w_{i+1}); limbs 2^32 - 1 of n cost an add and a subtract. The result is below 2n: one masked subtraction.
// Straight-line code throughout: constant-time.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const limbs = (x) => Array.from({ length: 8 }, (_, i) => Number((x >> BigInt(32 * i)) & 0xffffffffn));
const hex = (v) => '0x' + v.toString(16);
function modInverse(a, m) {
  let [r0, r1, s0, s1] = [a % m, m, 1n, 0n];
  while (r1 !== 0n) { const q = r0 / r1; [r0, r1] = [r1, r0 - q * r1]; [s0, s1] = [s1, s0 - q * s1]; }
  return ((s0 % m) + m) % m;
}

function gen(name, square) {
  const m = limbs(N);
  const ninv = Number((-modInverse(N & 0xffffffffn, 1n << 32n) % (1n << 32n) + (1n << 32n)) % (1n << 32n));
  const L = [];
  const e = (s) => L.push('  ' + s);
  L.push(square ? `export function ${name}(r: usize, a: usize): void {` : `export function ${name}(r: usize, a: usize, b: usize): void {`);
  for (let i = 0; i < 8; i++) e(`const a${i} = <u64>load<u32>(a, ${4 * i});`);
  if (square) {
    e('let m: u64 = 0, lo: u64 = 0, hi: u64 = 0, hiPrev: u64 = 0, dlo: u64 = 0, dhi: u64 = 0, dhiPrev: u64 = 0;');
    for (let k = 0; k < 16; k++) {
      const pairs = [];
      for (let i = 0; i < 8; i++) { const j = k - i; if (j >= 0 && j < 8 && i < j) pairs.push([i, j]); }
      const diag = k % 2 === 0 ? k / 2 : -1;
      e('lo = 0; hi = 0;');
      for (const [i, j] of pairs) e(`m = a${i} * a${j}; lo += m & M32; hi += m >> 32;`);
      if (diag >= 0) e(`m = a${diag} * a${diag}; dlo = m & M32; dhi = m >> 32;`); else e('dlo = 0; dhi = 0;');
      e(`let w${k}: u64 = ((lo + hiPrev) << 1) + dlo + dhiPrev; hiPrev = hi; dhiPrev = dhi;`);
    }
  } else {
    e('let v: u64 = 0, c0: u64 = 0, bi: u64 = 0;');
    const def = new Array(16).fill(false);
    for (let i = 0; i < 8; i++) {
      e(`bi = <u64>load<u32>(b, ${4 * i});`);
      for (let j = 0; j < 8; j++) {
        const k = i + j;
        const parts = [];
        if (def[k]) parts.push(`w${k}`);
        parts.push(`a${j} * bi`);
        if (j > 0) parts.push('c0');
        e(`v = ${parts.join(' + ')}; ${def[k] ? '' : 'let '}w${k}${def[k] ? '' : ': u64'} = v & M32; c0 = v >> 32;`);
        def[k] = true;
      }
      e(`let w${i + 8}: u64 = c0;`);
      def[i + 8] = true;
    }
  }
  // Reduction on signed i64 words (below 2^40 in absolute value throughout). q*n_j for the limbs
  // n_j = 2^32 - 1 is (q << 32) - q: +q on word i+j+1 and -q on word i+j, no multiplication.
  for (let k = 0; k < 16; k++) e(`let s${k}: i64 = <i64>w${k};`);
  e('let q: i64 = 0, p: i64 = 0;');
  for (let i = 0; i < 8; i++) {
    e(`q = (s${i} * ${hex(ninv)}) & <i64>M32;`);
    for (let j = 0; j < 8; j++) {
      if (m[j] === 0) continue;
      if (m[j] === 0xffffffff) { e(`s${i + j} -= q; s${i + j + 1} += q;`); continue; }
      e(`p = q * ${hex(m[j])}; s${i + j} += p & <i64>M32; s${i + j + 1} += <i64>(<u64>p >> 32);`);
    }
    e(`s${i + 1} += s${i} >> 32;`);
  }
  for (let i = 8; i < 15; i++) e(`s${i + 1} += s${i} >> 32; const t${i - 8} = <u64>(s${i} & <i64>M32);`);
  e('const t7 = <u64>(s15 & <i64>M32), t8 = <u64>(s15 >> 32); // value t8:t7..t0 is below 2n');
  e(`const d0 = t0 - ${hex(m[0])}; let bw = d0 >> 63;`);
  for (let j = 1; j < 8; j++) e(`const d${j} = t${j} - ${hex(m[j])} - bw; bw = d${j} >> 63;`);
  e('const keep = 0 - ((t8 - bw) >> 63); // all ones when the value is below n');
  for (let j = 0; j < 8; j++) e(`store<u32>(r, <u32>((t${j} & keep) | (d${j} & ~keep)), ${4 * j});`);
  L.push('}');
  return L.join('\n');
}

const path = fileURLToPath(new URL('../assembly/p256-scalar.ts', import.meta.url));
let src = readFileSync(path, 'utf8');
for (const [name, square] of [['nmul', false], ['nsqr', true]]) {
  const begin = `// BEGIN GENERATED ${name}`, end = `// END GENERATED ${name}`;
  const a = src.indexOf(begin), b = src.indexOf(end);
  if (a < 0 || b < 0) throw new Error(`markers for ${name} missing`);
  const header = `${begin} (wasm/tools/gen-p256-scalar.mjs; do not edit by hand)\n` +
    `// r = a${square ? '^2' : '*b'} / 2^256 mod n, inputs < n: straight-line (constant-time).\n`;
  src = src.slice(0, a) + header + gen(name, square) + '\n' + src.slice(b);
}
writeFileSync(path, src);
