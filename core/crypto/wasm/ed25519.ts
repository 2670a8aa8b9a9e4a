// Typed doors to the WASM Ed25519 (wasm/assembly/ed25519.ts). Seeds are the 32-byte private
// keys of RFC 8032; they pass through the arena, which the next call's reset() reuses but does
// not zero; the core also caches the last seed's expanded key (wasmEd25519Forget() wipes it).
// wasm/assembly/ed25519.ts says what is constant-time and what is not.
import { put, take, wasm } from './instance.js';

type PublicKeyFn = (seed: number, out: number) => void;
type SignFn = (seed: number, msg: number, msgLen: number, out64: number) => void;
type VerifyFn = (pub: number, msg: number, msgLen: number, sig: number) => number;

function check(name: string, bytes: Uint8Array, size: number): void {
  if (!(bytes instanceof Uint8Array)) throw new TypeError(`${name}: expected a Uint8Array`);
  if (bytes.length !== size) throw new RangeError(`${name}: expected ${size} bytes, got ${bytes.length}`);
}

export function wasmEd25519PublicKey(seed: Uint8Array): Uint8Array {
  check('seed', seed, 32);
  const w = wasm();
  w.reset();
  const s = put(seed);
  const out = w.alloc(32);
  (w['ed25519PublicKey'] as PublicKeyFn)(s, out);
  return take(out, 32);
}

export function wasmEd25519Sign(seed: Uint8Array, msg: Uint8Array): Uint8Array {
  check('seed', seed, 32);
  if (!(msg instanceof Uint8Array)) throw new TypeError('msg: expected a Uint8Array');
  const w = wasm();
  w.reset();
  const s = put(seed);
  const m = put(msg);
  const out = w.alloc(64);
  (w['ed25519Sign'] as SignFn)(s, m, msg.length, out);
  return take(out, 64);
}

/** Wipes the expanded key the core caches for the last seed used (when retiring a signing key). */
export function wasmEd25519Forget(): void {
  (wasm()['ed25519Forget'] as () => void)();
}

/** True only for a valid signature; a wrong-sized key or signature, or an undecodable key, is false. */
export function wasmEd25519Verify(pub: Uint8Array, msg: Uint8Array, sig: Uint8Array): boolean {
  if (!(pub instanceof Uint8Array) || !(msg instanceof Uint8Array) || !(sig instanceof Uint8Array)) {
    throw new TypeError('pub, msg, sig: expected Uint8Arrays');
  }
  if (pub.length !== 32 || sig.length !== 64) return false;
  return wasmEd25519VerifyCode(pub, msg, sig) === 1;
}

/** The raw result: 1 valid, 0 invalid, -1 public key not a curve point. */
export function wasmEd25519VerifyCode(pub: Uint8Array, msg: Uint8Array, sig: Uint8Array): number {
  check('pub', pub, 32);
  check('sig', sig, 64);
  const w = wasm();
  w.reset();
  const p = put(pub), m = put(msg), s = put(sig);
  return (w['ed25519Verify'] as VerifyFn)(p, m, msg.length, s);
}
