// ECDSA P-256 / SHA-256 in the WASM core: a typed door over wasm/assembly/p256.ts. Inputs are
// copied into the arena, outputs copied out; the arena is reset before each call, so private key
// bytes copied in stay in linear memory until the next operation overwrites them (see SECURITY
// notes in wasm/assembly/p256.ts for what is constant-time).
import { put, take, wasm } from './instance.js';

interface P256Exports {
  p256PublicKey(priv: number, out: number): number;
  p256SignDigest(priv: number, digest: number, out: number): number;
  p256Sign(priv: number, msg: number, msgLen: number, out: number): number;
  p256VerifyDigest(pub: number, pubLen: number, digest: number, sig: number, sigLen: number): number;
  p256Verify(pub: number, pubLen: number, msg: number, msgLen: number, sig: number, sigLen: number): number;
  p256SignBatch(priv: number, digests: number, count: number, out: number): number;
}

const SLOT = 73; // batch output slot: [DER length][DER, at most 72 bytes]

function core(): ReturnType<typeof wasm> & P256Exports {
  return wasm() as ReturnType<typeof wasm> & P256Exports;
}

function checkBytes(name: string, v: Uint8Array, len?: number): void {
  if (!(v instanceof Uint8Array)) throw new TypeError(`${name}: want a Uint8Array`);
  if (len !== undefined && v.length !== len) throw new RangeError(`${name}: want ${len} bytes, got ${v.length}`);
}

function signFailed(rc: number): never {
  throw new RangeError(rc === -1 ? 'p256: private key must be in [1, n-1]' : `p256: signing failed (${rc})`);
}

/** The uncompressed SEC1 public key (65 bytes, 04||X||Y) of a 32-byte private scalar. */
export function wasmP256PublicKey(priv: Uint8Array): Uint8Array {
  checkBytes('private key', priv, 32);
  const w = core();
  w.reset();
  const p = put(priv);
  const out = w.alloc(65);
  const rc = w.p256PublicKey(p, out);
  if (rc !== 65) signFailed(rc);
  return take(out, 65);
}

/** DER ECDSA signature over a 32-byte SHA-256 digest, RFC 6979 deterministic nonce. */
export function wasmP256SignDigest(priv: Uint8Array, digest: Uint8Array): Uint8Array {
  checkBytes('private key', priv, 32);
  checkBytes('digest', digest, 32);
  const w = core();
  w.reset();
  const p = put(priv), d = put(digest), out = w.alloc(72);
  const n = w.p256SignDigest(p, d, out);
  if (n <= 0) signFailed(n);
  return take(out, n);
}

/** DER ECDSA-with-SHA-256 signature over `msg`, RFC 6979 deterministic nonce. */
export function wasmP256Sign(priv: Uint8Array, msg: Uint8Array): Uint8Array {
  checkBytes('private key', priv, 32);
  checkBytes('message', msg);
  const w = core();
  w.reset();
  const p = put(priv), m = put(msg), out = w.alloc(72);
  const n = w.p256Sign(p, m, msg.length, out);
  if (n <= 0) signFailed(n);
  return take(out, n);
}

/** One key, many digests: the two inversions per signature are shared across the batch. */
export function wasmP256SignBatch(priv: Uint8Array, digests: readonly Uint8Array[]): Uint8Array[] {
  checkBytes('private key', priv, 32);
  if (digests.length === 0) return [];
  if (digests.length > 65536) throw new RangeError('p256: at most 65536 digests per batch');
  const all = new Uint8Array(digests.length * 32);
  digests.forEach((d, i) => { checkBytes(`digest ${i}`, d, 32); all.set(d, i * 32); });
  const w = core();
  w.reset();
  const p = put(priv), d = put(all), out = w.alloc(digests.length * SLOT);
  const rc = w.p256SignBatch(p, d, digests.length, out);
  if (rc !== digests.length) signFailed(rc);
  const bytes = take(out, digests.length * SLOT);
  return digests.map((_, i) => {
    const len = bytes[i * SLOT]!;
    if (len === 0) signFailed(-4);
    return bytes.slice(i * SLOT + 1, i * SLOT + 1 + len);
  });
}

/** Result of a verification: valid, invalid, or the reason the input was malformed. */
export type P256VerifyCode = 1 | 0 | -1 | -2;

function verifyCode(pub: Uint8Array, data: Uint8Array, derSig: Uint8Array, prehashed: boolean): P256VerifyCode {
  checkBytes('public key', pub);
  checkBytes(prehashed ? 'digest' : 'message', data, prehashed ? 32 : undefined);
  checkBytes('signature', derSig);
  if (derSig.length > 72) return -2;
  if (pub.length !== 65 && pub.length !== 33) return -1;
  const w = core();
  w.reset();
  const k = put(pub), m = put(data), s = put(derSig);
  const rc = prehashed
    ? w.p256VerifyDigest(k, pub.length, m, s, derSig.length)
    : w.p256Verify(k, pub.length, m, data.length, s, derSig.length);
  return rc as P256VerifyCode;
}

/** 1 valid, 0 invalid, -1 malformed public key, -2 malformed DER signature. */
export function wasmP256VerifyCode(pub: Uint8Array, msg: Uint8Array, derSig: Uint8Array): P256VerifyCode {
  return verifyCode(pub, msg, derSig, false);
}

/** ECDSA-with-SHA-256 verification; the key is SEC1 (65-byte uncompressed or 33-byte compressed). */
export function wasmP256Verify(pub: Uint8Array, msg: Uint8Array, derSig: Uint8Array): boolean {
  return verifyCode(pub, msg, derSig, false) === 1;
}

/** As wasmP256Verify over a 32-byte digest. */
export function wasmP256VerifyDigest(pub: Uint8Array, digest: Uint8Array, derSig: Uint8Array): boolean {
  return verifyCode(pub, digest, derSig, true) === 1;
}
