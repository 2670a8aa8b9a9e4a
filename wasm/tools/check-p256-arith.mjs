// Differential check of the P-256 field/scalar primitives against BigInt, on edge values and random
// inputs: builds a throwaway copy of the WASM module with extra test exports (the shipped module's
// exports are unchanged), then compares fmul, fsqr, fmulSmall, nmul, nsqr and the inversions
// (Fermat finv/ninv and safegcd finvSafe/ninvSafe). Run from the package root:
//   node wasm/tools/check-p256-arith.mjs [randomCasesPerOp]
import { cpSync, mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'p256-arith-'));
cpSync(join(root, 'wasm/assembly'), join(dir, 'assembly'), { recursive: true });
cpSync(join(root, 'wasm/asconfig.json'), join(dir, 'asconfig.json'));
appendFileSync(join(dir, 'assembly/index.ts'), `
import { fmul as _fm, fsqr as _fs, fmulSmall as _fk, finv as _fi } from './p256-field';
import { nmul as _nm, nsqr as _ns, ninv as _ni } from './p256-scalar';
import { finvSafe as _fis, ninvSafe as _nis } from './p256-inv';
export const IO = memory.data(128);
export function tOp(op: i32): void {
  const a = IO, b = IO + 32, r = IO + 64;
  if (op == 0) _fm(r, a, b); else if (op == 1) _fs(r, a); else if (op == 2) _nm(r, a, b);
  else if (op == 3) _ns(r, a); else if (op == 4) _fk(r, a, 3); else if (op == 5) _fk(r, a, 4);
  else if (op == 6) _fk(r, a, 8); else if (op == 7) _fi(r, a); else if (op == 8) _ni(r, a);
  else if (op == 9) _fis(r, a); else _nis(r, a);
}
`);
execFileSync(join(root, 'node_modules/.bin/asc'), ['--config', 'asconfig.json', '--target', 'release'], { cwd: dir, stdio: 'inherit' });
const mod = new WebAssembly.Module(readFileSync(join(dir, 'build/plat-crypto.wasm')));
rmSync(dir, { recursive: true, force: true });
const imports = {};
for (const i of WebAssembly.Module.imports(mod)) { imports[i.module] ??= {}; imports[i.module][i.name] = () => {}; }
const e = new WebAssembly.Instance(mod, imports).exports;

const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const R = 1n << 256n;
const io = e.IO.value;
const mem = () => new DataView(e.memory.buffer);
const put = (off, x) => { for (let i = 0; i < 8; i++) mem().setUint32(io + off + 4 * i, Number((x >> BigInt(32 * i)) & 0xffffffffn), true); };
const get = (off) => { let x = 0n; for (let i = 7; i >= 0; i--) x = (x << 32n) | BigInt(mem().getUint32(io + off + 4 * i, true)); return x; };
const inv = (a, m) => { let [r0, r1, s0, s1] = [a % m, m, 1n, 0n]; while (r1) { const q = r0 / r1; [r0, r1] = [r1, r0 - q * r1]; [s0, s1] = [s1, s0 - q * s1]; } return ((s0 % m) + m) % m; };
const mont = (m) => { const ri = inv(R % m, m); return (a, b) => a * b % m * ri % m; };
const mp = mont(P), mn = mont(N);
const minv = (m) => (a) => (a === 0n ? 0n : R * R % m * inv(a, m) % m); // (a/R)^-1 R
const ops = [
  ['fmul', P, (a, b) => mp(a, b)], ['fsqr', P, (a) => mp(a, a)], ['nmul', N, (a, b) => mn(a, b)],
  ['nsqr', N, (a) => mn(a, a)], ['fmulSmall3', P, (a) => 3n * a % P], ['fmulSmall4', P, (a) => 4n * a % P],
  ['fmulSmall8', P, (a) => 8n * a % P], ['finv', P, minv(P)], ['ninv', N, minv(N)],
  ['finvSafe', P, minv(P)], ['ninvSafe', N, minv(N)],
];
function edges(m) {
  const xs = [0n, 1n, 2n, 3n, m - 1n, m - 2n, 1n << 255n, m >> 1n, (1n << 224n) - 1n, 1n << 192n, (1n << 128n) - 1n, m - (1n << 128n)];
  for (let k = 0; k < 256; k += 32) xs.push(((1n << BigInt(k + 32)) - 1n) % m, (m - (1n << BigInt(k))) % m);
  return xs;
}
const rnd = (m) => BigInt('0x' + randomBytes(32).toString('hex')) % m;
const sparse = (m) => { // limbs of 0, 2^32 - 1 or random: stresses carries and the special moduli
  let x = 0n;
  for (let i = 0; i < 8; i++) { const t = Math.random(); x |= BigInt(t < 0.3 ? 0 : t < 0.6 ? 0xffffffff : Math.floor(Math.random() * 2 ** 32)) << BigInt(32 * i); }
  return x % m;
};
const count = Number(process.argv[2] ?? 20000);
let bad = 0;
ops.forEach(([name, m, f], op) => {
  const slow = name.includes('inv');
  const ed = edges(m), cases = [];
  for (const a of ed) for (const b of (f.length > 1 ? ed : [0n])) cases.push([a, b]);
  for (let i = 0; i < (slow ? count / 4 : count); i++) cases.push([i % 3 ? rnd(m) : sparse(m), i % 2 ? rnd(m) : sparse(m)]);
  for (const [a, b] of cases) {
    put(0, a); put(32, b); e.tOp(op);
    const got = get(64), want = f(a, b);
    if (got !== want && bad++ < 10) console.log(`MISMATCH ${name}(${a.toString(16)}, ${b.toString(16)}) = ${got.toString(16)}, want ${want.toString(16)}`);
  }
  console.log(`${name.padEnd(11)} ${cases.length} cases`);
});
console.log(bad ? `FAILED: ${bad} mismatches` : 'all match');
process.exitCode = bad ? 1 : 0;
