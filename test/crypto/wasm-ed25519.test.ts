// WASM Ed25519 against RFC 8032 section 7.1, node:crypto and @noble/curves.
import assert from 'node:assert/strict';
import { createPrivateKey, createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { ed25519 } from '@noble/curves/ed25519';
import {
  wasmEd25519Forget, wasmEd25519PublicKey, wasmEd25519Sign, wasmEd25519Verify, wasmEd25519VerifyCode,
} from '../../core/crypto/wasm/ed25519.js';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
const unhex = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'hex'));
const L = (1n << 252n) + 27742317777372353535851937790883648493n;

function nodeKey(seed: Uint8Array): KeyObject {
  const prefix = Buffer.from('302e020100300506032b657004220420', 'hex');
  return createPrivateKey({ key: Buffer.concat([prefix, seed]), format: 'der', type: 'pkcs8' });
}
function nodePub(pub: Uint8Array): KeyObject {
  const prefix = Buffer.from('302a300506032b6570032100', 'hex');
  return createPublicKey({ key: Buffer.concat([prefix, pub]), format: 'der', type: 'spki' });
}
function nodeVerify(pub: Uint8Array, msg: Uint8Array, sig: Uint8Array): boolean {
  return verify(null, msg, nodePub(pub), sig);
}

const M1023 =
  '08b8b2b733424243760fe426a4b54908632110a66c2f6591eabd3345e3e4eb98fa6e264bf09efe12ee50f8f54e9f77b1' +
  'e355f6c50544e23fb1433ddf73be84d879de7c0046dc4996d9e773f4bc9efe5738829adb26c81b37c93a1b270b20329d' +
  '658675fc6ea534e0810a4432826bf58c941efb65d57a338bbd2e26640f89ffbc1a858efcb8550ee3a5e1998bd177e93a' +
  '7363c344fe6b199ee5d02e82d522c4feba15452f80288a821a579116ec6dad2b3b310da903401aa62100ab5d1a36553e' +
  '06203b33890cc9b832f79ef80560ccb9a39ce767967ed628c6ad573cb116dbefefd75499da96bd68a8a97b928a8bbc10' +
  '3b6621fcde2beca1231d206be6cd9ec7aff6f6c94fcd7204ed3455c68c83f4a41da4af2b74ef5c53f1d8ac70bdcb7ed1' +
  '85ce81bd84359d44254d95629e9855a94a7c1958d1f8ada5d0532ed8a5aa3fb2d17ba70eb6248e594e1a2297acbbb39d' +
  '502f1a8c6eb6f1ce22b3de1a1f40cc24554119a831a9aad6079cad88425de6bde1a9187ebb6092cf67bf2b13fd65f270' +
  '88d78b7e883c8759d2c4f5c65adb7553878ad575f9fad878e80a0c9ba63bcbcc2732e69485bbc9c90bfbd62481d9089b' +
  'eccf80cfe2df16a2cf65bd92dd597b0707e0917af48bbb75fed413d238f5555a7a569d80c3414a8d0859dc65a46128ba' +
  'b27af87a71314f318c782b23ebfe808b82b0ce26401d2e22f04d83d1255dc51addd3b75a2b1ae0784504df543af8969b' +
  'e3ea7082ff7fc9888c144da2af58429ec96031dbcad3dad9af0dcbaaaf268cb8fcffead94f3c7ca495e056a9b47acdb7' +
  '51fb73e666c6c655ade8297297d07ad1ba5e43f1bca32301651339e22904cc8c42f58c30c04aafdb038dda0847dd988d' +
  'cda6f3bfd15c4b4c4525004aa06eeff8ca61783aacec57fb3d1f92b0fe2fd1a85f6724517b65e614ad6808d6f6ee34df' +
  'f7310fdc82aebfd904b01e1dc54b2927094b2db68d6f903b68401adebf5a7e08d78ff4ef5d63653a65040cf9bfd4aca7' +
  '984a74d37145986780fc0b16ac451649de6188a7dbdf191f64b5fc5e2ab47b57f7f7276cd419c17a3ca8e1b939ae49e4' +
  '88acba6b965610b5480109c8b17b80e1b7b750dfc7598d5d5011fd2dcc5600a32ef5b52a1ecc820e308aa342721aac09' +
  '43bf6686b64b2579376504ccc493d97e6aed3fb0f9cd71a43dd497f01f17c0e2cb3797aa2a2f256656168e6c496afc5f' +
  'b93246f6b1116398a346f1a641f3b041e989f7914f90cc2c7fff357876e506b50d334ba77c225bc307ba537152f3f161' +
  '0e4eafe595f6d9d90d11faa933a15ef1369546868a7f3a45a96768d40fd9d03412c091c6315cf4fde7cb68606937380d' +
  'b2eaaa707b4c4185c32eddcdd306705e4dc1ffc872eeee475a64dfac86aba41c0618983f8741c5ef68d3a101e8a3b8ca' +
  'c60c905c15fc910840b94c00a0b9d0';

const RFC8032 = [
  { id: 'TEST 1', seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
    pub: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a', msg: '',
    sig: 'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b' },
  { id: 'TEST 2', seed: '4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb',
    pub: '3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c', msg: '72',
    sig: '92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00' },
  { id: 'TEST 3', seed: 'c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7',
    pub: 'fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025', msg: 'af82',
    sig: '6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a' },
  { id: 'TEST 1024', seed: 'f5e5767cf153319517630f226876b86c8160cc583bc013744c6bf255f5cc0ee5',
    pub: '278117fc144c72340f67d0f2316e8386ceffbf2b2428c9c51fef7c597f1d426e', msg: M1023,
    sig: '0aab4c900501b3e24d7cdf4663326a3a87df5e4843b2cbdb67cbf6e460fec350aa5371b1508f9f4528ecea23c436d94b5e8fcd4f681e30a6ac00a9704a188a03' },
];

describe('wasm Ed25519', () => {
  it('reproduces RFC 8032 7.1 (public key, signature, verification)', () => {
    assert.equal(M1023.length, 2046);
    for (const v of RFC8032) {
      const seed = unhex(v.seed), msg = unhex(v.msg);
      assert.equal(hex(wasmEd25519PublicKey(seed)), v.pub, `${v.id} public key`);
      assert.equal(hex(wasmEd25519Sign(seed, msg)), v.sig, `${v.id} signature`);
      assert.equal(wasmEd25519Verify(unhex(v.pub), msg, unhex(v.sig)), true, `${v.id} verify`);
    }
  });

  it('signs exactly as node:crypto and @noble/curves for random seeds and messages', () => {
    for (let i = 0; i < 40; i++) {
      const seed = randomBytes(32), msg = randomBytes(i * 13);
      const pub = wasmEd25519PublicKey(seed);
      assert.equal(hex(pub), hex(ed25519.getPublicKey(seed)), `case ${i} public key vs noble`);
      const sig = wasmEd25519Sign(seed, msg);
      assert.equal(hex(sig), sign(null, msg, nodeKey(seed)).toString('hex'), `case ${i} vs node`);
      assert.equal(hex(sig), hex(ed25519.sign(msg, seed)), `case ${i} vs noble`);
      assert.equal(nodeVerify(pub, msg, sig), true, `case ${i} node verifies ours`);
    }
  });

  it('accepts node:crypto signatures and rejects tampered messages, signatures and keys', () => {
    for (let i = 0; i < 20; i++) {
      const seed = randomBytes(32), msg = randomBytes(1 + i * 7);
      const pub = wasmEd25519PublicKey(seed);
      const sig = new Uint8Array(sign(null, msg, nodeKey(seed)));
      assert.equal(wasmEd25519Verify(pub, msg, sig), true, `case ${i} accepts`);
      const m2 = Uint8Array.from(msg); m2[i % m2.length]! ^= 1;
      assert.equal(wasmEd25519Verify(pub, m2, sig), false, `case ${i} tampered message`);
      for (const at of [0, 31, 32, 40]) {
        const s2 = Uint8Array.from(sig); s2[at]! ^= 0x10;
        assert.equal(wasmEd25519Verify(pub, msg, s2), nodeVerify(pub, msg, s2), `case ${i} sig byte ${at} agrees with node`);
        assert.equal(wasmEd25519Verify(pub, msg, s2), false, `case ${i} tampered sig byte ${at}`);
      }
      const otherPub = wasmEd25519PublicKey(randomBytes(32));
      assert.equal(wasmEd25519Verify(otherPub, msg, sig), false, `case ${i} other key`);
      assert.equal(wasmEd25519Verify(pub, msg.subarray(1), sig), false, `case ${i} truncated message`);
    }
  });

  it('rejects a non-canonical S (S + L), as node:crypto does', () => {
    const seed = randomBytes(32), msg = randomBytes(50);
    const pub = wasmEd25519PublicKey(seed);
    const sig = wasmEd25519Sign(seed, msg);
    const s = BigInt('0x' + hex(sig.subarray(32).reverse()));
    const s2 = s + L; // still < 2^256 since S < L < 2^253
    const s2le = unhex(s2.toString(16).padStart(64, '0')).reverse();
    const forged = new Uint8Array(64); forged.set(sig.subarray(0, 32)); forged.set(s2le, 32);
    assert.equal(nodeVerify(pub, msg, forged), false);
    assert.equal(wasmEd25519VerifyCode(pub, msg, forged), 0);
    const maxS = new Uint8Array(64).fill(0xff);
    assert.equal(wasmEd25519Verify(pub, msg, maxS), false);
  });

  it('returns invalid, not an abort, for keys that are not curve points', () => {
    const msg = randomBytes(10), sig = randomBytes(64);
    sig[63] = 0; // canonical S, so the key is what fails
    const nonCanonicalY = new Uint8Array(32).fill(0xff); nonCanonicalY[31] = 0x7f; // y = 2^255 - 1 >= p
    assert.equal(wasmEd25519VerifyCode(nonCanonicalY, msg, sig), -1);
    let notOnCurve = 0;
    for (let i = 0; i < 64; i++) {
      const pub = randomBytes(32);
      const code = wasmEd25519VerifyCode(pub, msg, sig);
      assert.ok(code === 0 || code === -1, `code ${code}`);
      if (code === -1) notOnCurve++;
      assert.equal(wasmEd25519Verify(pub, msg, sig), false);
    }
    assert.ok(notOnCurve > 0, 'about half of random y have no x');
    // x = 0 with the sign bit set (y = 1 encodes the identity; "-0" is not an encoding).
    const negZero = new Uint8Array(32); negZero[0] = 1; negZero[31] = 0x80;
    assert.equal(wasmEd25519VerifyCode(negZero, msg, sig), -1);
  });

  it('the expanded-key cache follows seed changes and survives ed25519Forget', () => {
    const a = randomBytes(32), b = randomBytes(32), msg = randomBytes(20);
    const sa = hex(sign(null, msg, nodeKey(a))), sb = hex(sign(null, msg, nodeKey(b)));
    for (let i = 0; i < 3; i++) {
      assert.equal(hex(wasmEd25519Sign(a, msg)), sa);
      assert.equal(hex(wasmEd25519Sign(a, msg)), sa);
      assert.equal(hex(wasmEd25519Sign(b, msg)), sb);
      wasmEd25519Forget();
      assert.equal(hex(wasmEd25519Sign(b, msg)), sb);
    }
    wasmEd25519Forget();
    assert.equal(hex(wasmEd25519Sign(new Uint8Array(32), msg)), hex(sign(null, msg, nodeKey(new Uint8Array(32)))), 'zero seed after forget');
  });

  it('checks argument sizes', () => {
    assert.throws(() => wasmEd25519PublicKey(new Uint8Array(31)), RangeError);
    assert.throws(() => wasmEd25519Sign(new Uint8Array(33), new Uint8Array(1)), RangeError);
    assert.equal(wasmEd25519Verify(new Uint8Array(32), new Uint8Array(0), new Uint8Array(63)), false);
  });
});
