// Generates fmul and fsqr (Montgomery, mod p = 2^256 - 2^224 + 2^192 + 2^96 - 1) for
// wasm/assembly/p256-field.ts, between "// BEGIN GENERATED <name>" / "// END GENERATED <name>".
// Run: node wasm/tools/gen-p256-field.mjs (after it, gen-p256-sqr.mjs must not rewrite fsqr).
// Product: column sums of the 32-bit halves of the u64 partial products (no serial carry chain:
// each column is a sum of independent terms below 2^37). Reduction: since -1/p mod 2^32 = 1, the
// Montgomery digit is q = w_i mod 2^32 and adding q*p*2^(32i) is sparse: +q at words i+3, i+6,
// i+8 and -q at word i+7 (signed i64 words, arithmetic carries). The result is below 2p and one
// masked subtraction of p finishes. Straight-line code, no data-dependent branch or index.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

function gen(name, square) {
  const L = [];
  const e = (s) => L.push('  ' + s);
  L.push(square ? `export function ${name}(r: usize, a: usize): void {` : `export function ${name}(r: usize, a: usize, b: usize): void {`);
  for (let i = 0; i < 8; i++) e(`const a${i} = <u64>load<u32>(a, ${4 * i});`);
  // b limbs are loaded where used: 16 live limbs would spill on x64 anyway.
  if (square) {
    // Column k: w_k = sum of low halves of the products of column k + high halves of column
    // k - 1 (only one column of products live at a time, which keeps register pressure down).
    e('let m: u64 = 0, lo: u64 = 0, hi: u64 = 0, hiPrev: u64 = 0, dlo: u64 = 0, dhi: u64 = 0, dhiPrev: u64 = 0;');
    for (let k = 0; k < 16; k++) {
      const pairs = [];
      for (let i = 0; i < 8; i++) { const j = k - i; if (j >= 0 && j < 8 && i < j) pairs.push([i, j]); }
      const diag = k % 2 === 0 ? k / 2 : -1;
      e('lo = 0; hi = 0;');
      for (const [i, j] of pairs) e(`m = a${i} * a${j}; lo += m & M32; hi += m >> 32;`);
      if (diag >= 0) e(`m = a${diag} * a${diag}; dlo = m & M32; dhi = m >> 32;`); else e('dlo = 0; dhi = 0;');
      e(`let w${k}: i64 = <i64>(((lo + hiPrev) << 1) + dlo + dhiPrev); hiPrev = hi; dhiPrev = dhi;`);
    }
  } else {
    // Schoolbook rows with a carry chain (measured faster than column sums for the full product).
    e('let v: u64 = 0, c0: u64 = 0, bi: u64 = 0;');
    const def = new Array(16).fill(false);
    for (let i = 0; i < 8; i++) {
      e(`bi = <u64>load<u32>(b, ${4 * i});`);
      for (let j = 0; j < 8; j++) {
        const k = i + j;
        const parts = [];
        if (def[k]) parts.push(`u${k}`);
        parts.push(`a${j} * bi`);
        if (j > 0) parts.push('c0');
        e(`v = ${parts.join(' + ')}; ${def[k] ? '' : 'let '}u${k} = v & M32; c0 = v >> 32;`.replace('let u', 'let u').replace(/let (u\d+) = /, 'let $1: u64 = '));
        def[k] = true;
      }
      e(`let u${i + 8}: u64 = c0;`);
      def[i + 8] = true;
    }
    for (let k = 0; k < 16; k++) e(`let w${k}: i64 = <i64>u${k};`);
  }
  // Reduction.
  e('let c: i64 = 0, q: i64 = 0;');
  for (let i = 0; i < 8; i++) {
    e(`w${i} += c; q = w${i} & <i64>M32; c = w${i} >> 32;`);
    e(`w${i + 3} += q; w${i + 6} += q; w${i + 7} -= q; w${i + 8} += q;`);
  }
  for (let i = 8; i < 16; i++) e(`w${i} += c; c = w${i} >> 32; const t${i - 8} = <u64>(w${i} & <i64>M32);`);
  e('const t8 = <u64>c; // value t8:t7..t0 is below 2p');
  const m = [0xffffffff, 0xffffffff, 0xffffffff, 0, 0, 0, 1, 0xffffffff];
  e(`const d0 = t0 - 0x${m[0].toString(16)}; let bw = d0 >> 63;`);
  for (let j = 1; j < 8; j++) e(`const d${j} = t${j} - 0x${m[j].toString(16)} - bw; bw = d${j} >> 63;`);
  e('const keep = 0 - ((t8 - bw) >> 63); // all ones when the value is below p');
  for (let j = 0; j < 8; j++) e(`store<u32>(r, <u32>((t${j} & keep) | (d${j} & ~keep)), ${4 * j});`);
  L.push('}');
  return L.join('\n');
}

const path = fileURLToPath(new URL('../assembly/p256-field.ts', import.meta.url));
let src = readFileSync(path, 'utf8');
for (const [name, square] of [['fmul', false], ['fsqr', true]]) {
  const begin = `// BEGIN GENERATED ${name}`, end = `// END GENERATED ${name}`;
  const a = src.indexOf(begin), b = src.indexOf(end);
  if (a < 0 || b < 0) throw new Error(`markers for ${name} missing`);
  const header = `${begin} (wasm/tools/gen-p256-field.mjs; do not edit by hand)\n` +
    `// r = a${square ? '^2' : '*b'} / 2^256 mod p, inputs < p: column-sum product + sparse Montgomery reduction.\n`;
  src = src.slice(0, a) + header + gen(name, square) + '\n' + src.slice(b);
}
writeFileSync(path, src);
