// WASM SHA-2 and HMAC against NIST vectors and node:crypto.
import assert from 'node:assert/strict';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  wasmHmacSha256, wasmHmacSha256Parts, wasmHmacSha384, wasmHmacSha512, wasmSha256, wasmSha384, wasmSha512,
} from '../../core/crypto/wasm/hash.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const node = (alg: string, d: Uint8Array): string => createHash(alg).update(d).digest('hex');
const impls = [['sha256', wasmSha256], ['sha384', wasmSha384], ['sha512', wasmSha512]] as const;

describe('wasm SHA-2', () => {
  it('matches the FIPS 180 examples', () => {
    const abc = Buffer.from('abc');
    const m448 = Buffer.from('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq');
    const m896 = Buffer.from('abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu');
    const million = Buffer.alloc(1_000_000, 'a');
    assert.equal(hex(wasmSha256(abc)), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(hex(wasmSha256(m448)), '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
    assert.equal(hex(wasmSha256(million)), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
    assert.equal(hex(wasmSha512(abc)), 'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f');
    assert.equal(hex(wasmSha512(m896)), '8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909');
    assert.equal(hex(wasmSha384(abc)), 'cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7');
    assert.equal(hex(wasmSha384(m896)), '09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039');
    for (const [alg, f] of impls) {
      assert.equal(hex(f(million)), node(alg, million), `${alg} million a`);
      assert.equal(hex(f(m448)), node(alg, m448), `${alg} 448-bit`);
      assert.equal(hex(f(m896)), node(alg, m896), `${alg} 896-bit`);
    }
  });

  it('matches node:crypto for every length 0..300 (all padding boundaries)', () => {
    for (let n = 0; n <= 300; n++) {
      const d = randomBytes(n);
      for (const [alg, f] of impls) assert.equal(hex(f(d)), node(alg, d), `${alg} length ${n}`);
    }
  });

  it('matches node:crypto on random large inputs', () => {
    for (const n of [4095, 65536, 100_003, 1 << 20]) {
      const d = randomBytes(n);
      for (const [alg, f] of impls) assert.equal(hex(f(d)), node(alg, d), `${alg} length ${n}`);
    }
  });
});

describe('wasm HMAC', () => {
  const hm = [['sha256', wasmHmacSha256], ['sha384', wasmHmacSha384], ['sha512', wasmHmacSha512]] as const;
  it('matches RFC 4231 test case 2', () => {
    const k = Buffer.from('Jefe'), m = Buffer.from('what do ya want for nothing?');
    assert.equal(hex(wasmHmacSha256(k, m)), '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });
  it('matches node:crypto for key lengths around the block size, and long messages', () => {
    for (const kl of [0, 1, 20, 32, 63, 64, 65, 100, 127, 128, 129, 131, 500]) {
      for (const ml of [0, 1, 55, 64, 111, 128, 1000]) {
        const k = randomBytes(kl), m = randomBytes(ml);
        for (const [alg, f] of hm) {
          assert.equal(hex(f(k, m)), createHmac(alg, k).update(m).digest('hex'), `${alg} key ${kl} msg ${ml}`);
        }
      }
    }
  });
  it('Parts equals HMAC over the concatenation, zero-length parts allowed', () => {
    for (const [al, bl, cl] of [[0, 0, 0], [32, 1, 32], [0, 5, 0], [63, 1, 0], [1, 0, 200], [64, 64, 64]] as const) {
      const k = randomBytes(32), a = randomBytes(al), b = randomBytes(bl), c = randomBytes(cl);
      const want = createHmac('sha256', k).update(Buffer.concat([a, b, c])).digest('hex');
      assert.equal(hex(wasmHmacSha256Parts(k, a, b, c)), want, `parts ${al}/${bl}/${cl}`);
    }
  });
});
